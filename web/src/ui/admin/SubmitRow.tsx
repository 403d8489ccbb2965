import { Button, HStack, Text } from "@chakra-ui/react";
import { FormError } from "../FormError.tsx";

/** The end of an admin create form: its refusal, what the last submit did, and the submit button. */
export function SubmitRow({ error, status, busy, label }: { error: string | null; status: string | null; busy: boolean; label: string }) {
  return (
    <>
      <FormError>{error}</FormError>
      {status && <Text color="green.700">{status}</Text>}
      <HStack>
        <Button type="submit" colorPalette="orange" loading={busy}>
          {label}
        </Button>
      </HStack>
    </>
  );
}
