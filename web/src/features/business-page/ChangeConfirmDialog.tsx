import { Button, CloseButton, Dialog, Portal, Text } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useMutation } from "react-relay";
import { useNavigate } from "react-router";
import type { ChangeConfirmDialogMutation } from "./__generated__/ChangeConfirmDialogMutation.graphql.ts";
import { clearSelection, toGraphQLMode, type FulfillmentModeName } from "../../lib/selection.ts";

const ChangeMutation = graphql`
  mutation ChangeConfirmDialogMutation($input: ChangeSubscriptionInput!) {
    changeSubscription(input: $input) {
      __typename
      ... on ChangeSubscriptionSuccess {
        data {
          id
          pendingChange {
            effectivePeriod
            mode
            plan {
              ref
              name
            }
            addons {
              ref
              name
            }
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

type Phase = "idle" | "applying" | "done";

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  membershipId: string;
  planId: string;
  addonIds: string[];
  mode: FulfillmentModeName;
  summary: string;
}

/** Spec §4 change confirm dialog: open → 'Applying...' → 'Update scheduled' and back to /membership; errors stay in the dialog. */
export function ChangeConfirmDialog({ open, onOpenChange, membershipId, planId, addonIds, mode, summary }: Props) {
  const [commit] = useMutation<ChangeConfirmDialogMutation>(ChangeMutation);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();

  function apply() {
    setPhase("applying");
    setError(null);
    commit({
      variables: { input: { subscriptionId: membershipId, planId, addonIds, mode: toGraphQLMode(mode) } },
      onCompleted: (res) => {
        const r = res.changeSubscription;
        if (r.data) {
          setPhase("done");
          clearSelection();
          setTimeout(() => navigate("/membership?changed=1"), 1200);
        } else {
          setPhase("idle");
          setError(("message" in r && r.message) || "Change failed");
        }
      },
      onError: (e) => {
        setPhase("idle");
        setError(e.message || "Change failed");
      },
    });
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => phase !== "applying" && onOpenChange(e.open)} role="alertdialog" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{phase === "done" ? "Update scheduled" : "Update your membership?"}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text fontWeight="medium" mb="2">
                {summary}
              </Text>
              <Text color="fg.muted">
                {phase === "done" ? "Your new box starts with your next billing cycle. Taking you to your membership…" : "The change takes effect next billing cycle. There is no charge today."}
              </Text>
              {error && (
                <Text role="alert" color="red.600" mt="3">
                  {error}
                </Text>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              {phase !== "done" && (
                <>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline" disabled={phase === "applying"}>
                      Cancel
                    </Button>
                  </Dialog.ActionTrigger>
                  <Button colorPalette="blue" onClick={apply} disabled={phase === "applying"}>
                    {phase === "applying" ? "Applying..." : "Confirm update"}
                  </Button>
                </>
              )}
            </Dialog.Footer>
            {phase !== "applying" && (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
