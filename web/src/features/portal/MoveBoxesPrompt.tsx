import { Box, Button, Dialog, HStack, Portal, Stack, Text } from "@chakra-ui/react";
import { addressLines } from "@shared/address.ts";
import { fromModeCode } from "@shared/fulfillment.ts";
import { useState } from "react";
import { graphql, readInlineData } from "react-relay";
import type { MoveBoxesPrompt_membership$key } from "./__generated__/MoveBoxesPrompt_membership.graphql.ts";
import type { SelectionAddress } from "../../lib/selection.ts";
import { FormError } from "../../ui/FormError.tsx";
import { addressSummary, membershipLabel } from "./deliveryAddress.ts";

/** A membership the Profile's new address may take along (User.boxAddressMemberships: current shipping and delivery). */
const MoveBoxesPromptMembership = graphql`
  fragment MoveBoxesPrompt_membership on Membership @inline {
    id
    planName
    mode
    business {
      name
    }
    # Every part the card shows (so a save that moves the boxes refreshes it), without a fragment spread: each costs
    # two levels of the server's depth limit (12).
    deliveryAddress {
      fullName
      phone
      street
      apt
      city
      state
      zip
      country
      instructions
    }
  }
`;

/** One line of the prompt: the membership (business, plan, mode) and where its boxes go now. */
export interface MoveChoice {
  id: string;
  label: string;
  current: string;
}

export function readMoveChoice(key: MoveBoxesPrompt_membership$key): MoveChoice {
  const m = readInlineData(MoveBoxesPromptMembership, key);
  let address: SelectionAddress | null = null;
  if (m.deliveryAddress) {
    const { fullName, phone, street, apt, city, state, zip, country, instructions } = m.deliveryAddress;
    address = { fullName, phone, street, apt, city, state, zip, country, instructions };
  }
  return { id: m.id, label: membershipLabel(m.business.name, m.planName, fromModeCode(m.mode)), current: addressSummary(address) };
}

/**
 * "Also send my boxes here?", asked when the member saves a new address in Profile and holds shipping or
 * delivery memberships. One checkbox per membership, none ticked: saving sends the ticked ones' boxes to the new
 * address too (a save with none ticked moves none); Cancel saves nothing. Mounted afresh for each question.
 */
export function MoveBoxesPrompt({ open, choices, address, busy, error, onCancel, onConfirm }: {
  open: boolean;
  choices: readonly MoveChoice[];
  /** The address being saved. */
  address: SelectionAddress;
  busy: boolean;
  /** The save's refusal (nothing was saved). */
  error: string | null;
  onCancel: () => void;
  onConfirm: (ticked: MoveChoice[]) => void;
}) {
  const [ticked, setTicked] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string, on: boolean) =>
    setTicked((cur) => {
      const next = new Set(cur);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const newLines = addressLines(address);

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && !busy && onCancel()} placement="center" scrollBehavior="inside" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content data-testid="move-boxes-prompt">
            <Dialog.Header>
              <Dialog.Title>Also send my boxes here?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Dialog.Description asChild>
                  <Stack gap="2" fontSize="sm">
                    <Text>Your profile address becomes:</Text>
                    <Box as="address" fontStyle="normal" fontWeight="medium" pl="3" borderLeftWidth="3px" borderColor="orange.300">
                      {newLines.map((line) => (
                        <Text key={line} overflowWrap="anywhere">
                          {line}
                        </Text>
                      ))}
                    </Box>
                    <Text color="fg.muted">Tick the memberships whose boxes should go there too. The others keep their delivery address.</Text>
                  </Stack>
                </Dialog.Description>
                <Stack as="fieldset" gap="2">
                  <Text as="legend" srOnly>
                    Memberships to send to the new address
                  </Text>
                  {choices.map((c) => {
                    const on = ticked.has(c.id);
                    return (
                      <HStack as="label" key={c.id} align="flex-start" gap="3" p="3" rounded="md" borderWidth="1px" borderColor={on ? "orange.500" : "border"} cursor="pointer" data-testid="move-boxes-choice">
                        <input type="checkbox" checked={on} onChange={(e) => toggle(c.id, e.target.checked)} style={{ width: 18, height: 18, marginTop: 2, flexShrink: 0, accentColor: "var(--chakra-colors-orange-600)" }} />
                        <Box minW="0">
                          <Text fontWeight="medium" overflowWrap="anywhere">
                            {c.label}
                          </Text>
                          <Text fontSize="sm" color="fg.muted" overflowWrap="anywhere">
                            Now: {c.current}
                          </Text>
                        </Box>
                      </HStack>
                    );
                  })}
                </Stack>
                <FormError>{error}</FormError>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch" gap="3">
              <Button variant="outline" onClick={onCancel} disabled={busy}>
                Cancel
              </Button>
              <Button colorPalette="orange" loading={busy} loadingText="Saving…" onClick={() => onConfirm(choices.filter((c) => ticked.has(c.id)))}>
                Save profile
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
