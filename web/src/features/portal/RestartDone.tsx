import { Button, Dialog, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import type { RestartDoneFragment_membership$key } from "./__generated__/RestartDoneFragment_membership.graphql.ts";
import { longDate } from "../../lib/dates.ts";
import { formatCents } from "@shared/money.ts";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";

const RestartDoneFragment = graphql`
  fragment RestartDoneFragment_membership on Membership {
    business {
      name
    }
  }
`;

/** The restart dialog's last step: what was charged (or that nothing was) and the next billing date. */
export function RestartDone({ membership, chargedCents, nextBillingDate, onDone }: {
  membership: RestartDoneFragment_membership$key;
  chargedCents: number;
  nextBillingDate: string | null;
  onDone: () => void;
}) {
  const m = useFragment(RestartDoneFragment, membership);
  const primary = usePrimaryButton();
  return (
    <>
      <Dialog.Header>
        <Dialog.Title>Subscription restarted</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Stack gap="2" data-testid="restart-confirmation">
          <Text>
            {chargedCents > 0
              ? `You were charged ${formatCents(chargedCents)} for the current period. Your ${m.business.name} membership is active again.`
              : `Your ${m.business.name} membership is active again. The current period was already paid, so nothing was charged today.`}
          </Text>
          {nextBillingDate && <Text fontWeight="medium">Next billing: {longDate(nextBillingDate)}</Text>}
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button {...primary} onClick={onDone}>
          Done
        </Button>
      </Dialog.Footer>
    </>
  );
}
