import { Button } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { KeepMembershipButtonFragment_membership$key } from "./__generated__/KeepMembershipButtonFragment_membership.graphql.ts";
import type { KeepMembershipButtonMutation } from "./__generated__/KeepMembershipButtonMutation.graphql.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";

const KeepMembershipButtonFragment = graphql`
  fragment KeepMembershipButtonFragment_membership on Membership {
    id
  }
`;

const WithdrawMutation = graphql`
  mutation KeepMembershipButtonMutation($input: WithdrawCancellationInput!) {
    withdrawCancellation(input: $input) {
      __typename
      ... on WithdrawCancellationSuccess {
        data {
          membership {
            # The card is back to a renewing membership as soon as the server has taken the cancel back.
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
 * "Keep my membership" on the card of a membership ending at its member's request: takes the cancel back (allowed
 * whatever the business's policy). `onOutcome` hands the card what came of it: the membership goes on, or the refusal.
 */
export function KeepMembershipButton({ membership, onOutcome }: { membership: KeepMembershipButtonFragment_membership$key; onOutcome: (outcome: { ok: boolean; text: string } | null) => void }) {
  const m = useFragment(KeepMembershipButtonFragment, membership);
  const environment = useRelayEnvironment();
  const primary = usePrimaryButton();
  const [busy, setBusy] = useState(false);

  async function keep() {
    setBusy(true);
    onOutcome(null);
    try {
      const res = await commitAsync<KeepMembershipButtonMutation>(environment, WithdrawMutation, { input: { subscriptionId: m.id } });
      const r = res.withdrawCancellation;
      if (!r.data) onOutcome({ ok: false, text: ("message" in r && r.message) || "Failed to keep your membership" });
      else onOutcome({ ok: true, text: "Your membership goes on as before." });
    } catch (e) {
      onOutcome({ ok: false, text: (e as Error).message || "Failed to keep your membership" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button size="sm" {...primary} loading={busy} onClick={() => void keep()}>
      Keep my membership
    </Button>
  );
}
