import { Field, HStack, SimpleGrid, Stack, Text, Textarea } from "@chakra-ui/react";
import { CANCELLATION_NOTE_MAX } from "@shared/cancellation.ts";
import { CANCELLATION_REASONS } from "./cancellation.ts";

type Reason = (typeof CANCELLATION_REASONS)[number]["value"];

/** The cancel dialog's first step: why the member is leaving (one of the fixed reasons) and an optional note. */
export function CancelReasonStep({ labelledBy, reason, note, onReason, onNote }: { labelledBy: string; reason: Reason | null; note: string; onReason: (reason: Reason) => void; onNote: (note: string) => void }) {
  return (
    <Stack gap="4">
      <SimpleGrid as="fieldset" role="radiogroup" aria-labelledby={labelledBy} columns={{ base: 1, sm: 2 }} gap="2">
        {CANCELLATION_REASONS.map((r) => (
          <HStack as="label" key={r.value} gap="2" cursor="pointer" px="3" py="2" rounded="md" borderWidth="1px" borderColor={reason === r.value ? "orange.500" : "border"}>
            <input type="radio" name="cancel-reason" value={r.value} checked={reason === r.value} onChange={() => onReason(r.value)} style={{ width: 18, height: 18, flexShrink: 0 }} />
            <Text>{r.label}</Text>
          </HStack>
        ))}
      </SimpleGrid>
      <Field.Root>
        <Field.Label>Anything you'd like to tell us? (optional)</Field.Label>
        <Textarea value={note} onChange={(e) => onNote(e.target.value)} maxLength={CANCELLATION_NOTE_MAX} rows={3} />
        <Field.HelperText alignSelf="flex-end" data-testid="cancel-note-count">
          {note.length}/{CANCELLATION_NOTE_MAX}
        </Field.HelperText>
      </Field.Root>
    </Stack>
  );
}
