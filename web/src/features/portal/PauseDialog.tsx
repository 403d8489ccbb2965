import { Button, Dialog, HStack, Portal, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { PauseDialogFragment_membership$key } from "./__generated__/PauseDialogFragment_membership.graphql.ts";
import type { PauseDialogMutation } from "./__generated__/PauseDialogMutation.graphql.ts";
import { monthDayOrdinal, monthYear, shiftMonth } from "../../lib/dates.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { FormError } from "../../ui/FormError.tsx";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";
import { monthSpan } from "./monthSpan.ts";

const PauseDialogFragment = graphql`
  fragment PauseDialogFragment_membership on Membership {
    id
    business {
      name
      page {
        pauseMaxMonths
      }
    }
    skipTarget {
      month
    }
  }
`;

const PauseMutation = graphql`
  mutation PauseDialogMutation($input: PauseMembershipInput!) {
    pauseMembership(input: $input) {
      __typename
      ... on PauseMembershipSuccess {
        data {
          fromMonth
          throughMonth
          resumeDate
          membership {
            # The card shows the pause as soon as the server has it.
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** The months a pause of `length` months from `from` skips: a preview (the server writes and answers the real ones). */
const previewMonths = (from: string, length: number) => Array.from({ length }, (_, i) => shiftMonth(from, i));

/**
 * A membership's "Pause": how many months (1 to the page's longest pause), which months that skips and when boxes
 * come back, then the server's word on the pause. A refusal stays in the dialog; closing it hands the refusal to the
 * card (`onClose`), which shows it until a dialog opens again.
 */
export function PauseDialog({ membership, open, onClose }: { membership: PauseDialogFragment_membership$key; open: boolean; onClose: (error: string | null) => void }) {
  const m = useFragment(PauseDialogFragment, membership);
  const environment = useRelayEnvironment();
  const primary = usePrimaryButton();
  const [months, setMonths] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The server's pause once it is written; null while the dialog asks. */
  const [paused, setPaused] = useState<{ months: string; resumeDate: string } | null>(null);
  const max = m.business.page?.pauseMaxMonths ?? 0;
  const choices = Array.from({ length: max }, (_, i) => i + 1);
  // From the month "Skip a month" pauses (the server's), as the server counts them.
  const skipped = previewMonths(m.skipTarget.month, months);

  function close() {
    onClose(error);
    setError(null);
    setPaused(null);
    setMonths(1);
  }

  async function pause() {
    setBusy(true);
    setError(null);
    try {
      const res = await commitAsync<PauseDialogMutation>(environment, PauseMutation, { input: { subscriptionId: m.id, months } });
      const r = res.pauseMembership;
      if (!r.data) {
        setError(("message" in r && r.message) || "Failed to pause your membership");
        return;
      }
      setPaused({ months: r.data.fromMonth === r.data.throughMonth ? monthYear(r.data.fromMonth) : `${monthYear(r.data.fromMonth)} through ${monthYear(r.data.throughMonth)}`, resumeDate: r.data.resumeDate });
    } catch (e) {
      setError((e as Error).message || "Failed to pause your membership");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && !busy && close()} placement="center" role={open && paused === null ? "alertdialog" : "dialog"}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            {open && paused === null && (
              <>
                <Dialog.Header>
                  <Dialog.Title>Pause your membership</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="4">
                    <Stack as="fieldset" role="radiogroup" aria-label="How many months?" gap="2">
                      <Text as="legend" fontWeight="medium" mb="2">
                        How many months?
                      </Text>
                      <SimpleGrid columns={{ base: 2, sm: 3 }} gap="2">
                        {choices.map((n) => (
                          <HStack as="label" key={n} gap="2" cursor="pointer" px="3" py="2" rounded="md" borderWidth="1px" borderColor={months === n ? "orange.500" : "border"}>
                            <input type="radio" name="pause-months" value={n} checked={months === n} onChange={() => setMonths(n)} style={{ width: 18, height: 18 }} />
                            <Text>
                              {n} month{n === 1 ? "" : "s"}
                            </Text>
                          </HStack>
                        ))}
                      </SimpleGrid>
                    </Stack>
                    <Text data-testid="pause-preview">
                      Your {m.business.name} boxes for {monthSpan(skipped)} will be skipped and you won't be charged for them. Your boxes come back in {monthYear(shiftMonth(m.skipTarget.month, months))}.
                    </Text>
                    <FormError>{error}</FormError>
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch" gap="3">
                  <Button variant="outline" onClick={close} disabled={busy}>
                    Keep my boxes
                  </Button>
                  <Button {...primary} onClick={pause} loading={busy}>
                    Pause membership
                  </Button>
                </Dialog.Footer>
              </>
            )}
            {open && paused !== null && (
              <>
                <Dialog.Header>
                  <Dialog.Title>Membership paused</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Stack gap="2">
                    <Text fontWeight="semibold">Paused until {monthDayOrdinal(paused.resumeDate)}</Text>
                    <Text>No boxes and no charges for {paused.months}.</Text>
                  </Stack>
                </Dialog.Body>
                <Dialog.Footer>
                  <Button {...primary} onClick={close}>
                    Done
                  </Button>
                </Dialog.Footer>
              </>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
