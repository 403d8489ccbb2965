import { Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import type { ChangeScheduledLineFragment_membership$key } from "./__generated__/ChangeScheduledLineFragment_membership.graphql.ts";
import { fromModeCode, MODE_LABELS } from "@shared/fulfillment.ts";
import { formatCents } from "@shared/money.ts";
import { monthYear } from "../../lib/dates.ts";

const ChangeScheduledLineFragment = graphql`
  fragment ChangeScheduledLineFragment_membership on Membership {
    pendingChange {
      # The first month charged with the change (skipped months passed over): the server's, named as is.
      effectivePeriod
      mode
      fulfillmentPoint
      plan {
        name
      }
      # Priced by the server as the renewal that applies it will charge it.
      breakdown {
        totalCents
      }
    }
  }
`;

/**
 * The membership card's scheduled change: "Scheduled change: Espresso Box, Pickup (1 Orchard Road) from May 2026",
 * then its new monthly price (none when the plan lost its price for the mode: the renewal keeps the current box).
 */
export function ChangeScheduledLine({ membership }: { membership: ChangeScheduledLineFragment_membership$key }) {
  const m = useFragment(ChangeScheduledLineFragment, membership);
  const change = m.pendingChange;
  if (!change) return null;
  return (
    <Stack gap="0.5" color="blue.700" data-testid="pending-change">
      <Text>
        Scheduled change: {change.plan.name}, {MODE_LABELS[fromModeCode(change.mode)]}
        {change.fulfillmentPoint ? ` (${change.fulfillmentPoint})` : ""} from {monthYear(change.effectivePeriod)}
      </Text>
      {change.breakdown ? (
        <Text fontWeight="medium" data-testid="pending-change-price">
          New monthly price: {formatCents(change.breakdown.totalCents)} / month
        </Text>
      ) : null}
    </Stack>
  );
}
