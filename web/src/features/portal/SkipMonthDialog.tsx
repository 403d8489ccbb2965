import { Button, Dialog, Portal, Text } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { SkipMonthDialogFragment_membership$key } from "./__generated__/SkipMonthDialogFragment_membership.graphql.ts";
import type { SkipMonthDialogMutation } from "./__generated__/SkipMonthDialogMutation.graphql.ts";
import { monthDayOrdinal, monthOnly, monthYear } from "../../lib/dates.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { FormError } from "../../ui/FormError.tsx";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";

const SkipMonthDialogFragment = graphql`
  fragment SkipMonthDialogFragment_membership on Membership {
    id
    business {
      name
    }
    skipTarget {
      month
      resumeDate
    }
  }
`;

const SkipMutation = graphql`
  mutation SkipMonthDialogMutation($input: SkipMonthInput!) {
    skipMonth(input: $input) {
      __typename
      ... on SkipMonthSuccess {
        data {
          resumeDate
          skippedMonth
          membership {
            # The card shows the skipped month as soon as the server has it.
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

/**
 * A membership's "Skip a month": the confirmation, then the server's word on when payments resume. A refusal stays
 * in the dialog; closing it hands the refusal to the card (`onClose`), which shows it until a dialog opens again.
 */
export function SkipMonthDialog({ membership, open, onClose }: { membership: SkipMonthDialogFragment_membership$key; open: boolean; onClose: (error: string | null) => void }) {
  const m = useFragment(SkipMonthDialogFragment, membership);
  const environment = useRelayEnvironment();
  const primary = usePrimaryButton();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** What the dialog says once the month is skipped; null while it asks. */
  const [skipped, setSkipped] = useState<string | null>(null);
  // The month "Skip a month" pauses is the server's (skipMonth applies the same rule): never guessed here.
  const skipMonthName = monthOnly(m.skipTarget.month);

  function close() {
    onClose(error);
    setError(null);
    setSkipped(null);
  }

  async function skip() {
    setBusy(true);
    setError(null);
    try {
      const res = await commitAsync<SkipMonthDialogMutation>(environment, SkipMutation, { input: { subscriptionId: m.id } });
      const r = res.skipMonth;
      if (!r.data) {
        setError(("message" in r && r.message) || "Failed to skip this month");
        return;
      }
      setSkipped(r.data.resumeDate ? `Payments paused until ${monthDayOrdinal(r.data.resumeDate)}` : "Payments paused successfully");
    } catch (e) {
      setError((e as Error).message || "Failed to skip this month");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && !busy && close()} placement="center" role={open && skipped === null ? "alertdialog" : "dialog"}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            {open && skipped === null && (
              <>
                <Dialog.Header>
                  <Dialog.Title>Skip {skipMonthName}?</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Text>
                    Your {m.business.name} box for {monthYear(m.skipTarget.month)} will be skipped and you won't be charged for it. Payments resume {monthDayOrdinal(m.skipTarget.resumeDate)}.
                  </Text>
                  <FormError mt="3">{error}</FormError>
                </Dialog.Body>
                <Dialog.Footer>
                  <Button variant="outline" onClick={close} disabled={busy}>
                    Keep my box
                  </Button>
                  <Button {...primary} onClick={skip} loading={busy}>
                    Skip month
                  </Button>
                </Dialog.Footer>
              </>
            )}
            {open && skipped !== null && (
              <>
                <Dialog.Header>
                  <Dialog.Title>Month skipped</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Text>{skipped}</Text>
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
