import { Button, Dialog, Portal, Text } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { ResumeDialogFragment_membership$key } from "./__generated__/ResumeDialogFragment_membership.graphql.ts";
import type { ResumeDialogMutation } from "./__generated__/ResumeDialogMutation.graphql.ts";
import { monthYear } from "../../lib/dates.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { FormError } from "../../ui/FormError.tsx";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";
import { monthSpan } from "./monthSpan.ts";

const ResumeDialogFragment = graphql`
  fragment ResumeDialogFragment_membership on Membership {
    id
    business {
      name
    }
    skipTarget {
      month
    }
    pausedThrough
  }
`;

const ResumeMutation = graphql`
  mutation ResumeDialogMutation($input: ResumeMembershipInput!) {
    resumeMembership(input: $input) {
      __typename
      ... on ResumeMembershipSuccess {
        data {
          months
          membership {
            # The card shows the boxes back on as soon as the server has them.
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
 * A paused membership's "Resume now": the confirmation, then the months whose boxes the server put back on (a month
 * already being packed or paid stays skipped: the server decides). A refusal stays in the dialog; closing it hands
 * the refusal to the card (`onClose`).
 */
export function ResumeDialog({ membership, open, onClose }: { membership: ResumeDialogFragment_membership$key; open: boolean; onClose: (error: string | null) => void }) {
  const m = useFragment(ResumeDialogFragment, membership);
  const environment = useRelayEnvironment();
  const primary = usePrimaryButton();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The months back on, once the server has resumed; null while the dialog asks. */
  const [resumed, setResumed] = useState<readonly string[] | null>(null);
  const from = m.skipTarget.month;
  const through = m.pausedThrough ?? from;
  const pausedMonths = from === through ? monthYear(from) : `${monthYear(from)} through ${monthYear(through)}`;

  function close() {
    onClose(error);
    setError(null);
    setResumed(null);
  }

  async function resume() {
    setBusy(true);
    setError(null);
    try {
      const res = await commitAsync<ResumeDialogMutation>(environment, ResumeMutation, { input: { subscriptionId: m.id } });
      const r = res.resumeMembership;
      if (!r.data) {
        setError(("message" in r && r.message) || "Failed to resume your membership");
        return;
      }
      setResumed(r.data.months);
    } catch (e) {
      setError((e as Error).message || "Failed to resume your membership");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && !busy && close()} placement="center" role={open && resumed === null ? "alertdialog" : "dialog"}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            {open && resumed === null && (
              <>
                <Dialog.Header>
                  <Dialog.Title>Resume your membership?</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Text>
                    Your {m.business.name} membership is paused for {pausedMonths}. Resuming now puts those boxes back on, and each month is charged on its billing day as usual. A month already being
                    packed stays skipped.
                  </Text>
                  <FormError mt="3">{error}</FormError>
                </Dialog.Body>
                <Dialog.Footer flexDirection={{ base: "column-reverse", sm: "row" }} alignItems="stretch" gap="3">
                  <Button variant="outline" onClick={close} disabled={busy}>
                    Stay paused
                  </Button>
                  <Button {...primary} onClick={resume} loading={busy}>
                    Resume now
                  </Button>
                </Dialog.Footer>
              </>
            )}
            {open && resumed !== null && (
              <>
                <Dialog.Header>
                  <Dialog.Title>Membership resumed</Dialog.Title>
                </Dialog.Header>
                <Dialog.Body>
                  <Text>Your boxes for {monthSpan(resumed)} are back on.</Text>
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
