import { SimpleGrid, Stat, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { formatDay } from "../packing/format.ts";
import type { BalancePanelFragment_business$key } from "./__generated__/BalancePanelFragment_business.graphql.ts";

/**
 * The business's money at the payment provider (docs/payments.md, "Balances and payouts"): what the next payout
 * takes, what is still held, and the day of that payout. Nothing before the business has a payout account.
 */
export function BalancePanel({ business: key }: { business: BalancePanelFragment_business$key }) {
  const { balance } = useFragment(
    graphql`
      fragment BalancePanelFragment_business on Business {
        balance {
          availableCents
          pendingCents
          nextPayoutDate
        }
      }
    `,
    key,
  );
  if (!balance) return null;
  const figures = [
    { label: "Available", value: formatCents(balance.availableCents) },
    { label: "Pending", value: formatCents(balance.pendingCents) },
    { label: "Next payout", value: balance.nextPayoutDate ? formatDay(balance.nextPayoutDate) : "Paused" },
  ];
  return (
    <Panel title="Balance">
      <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3" data-testid="payout-balance">
        {figures.map((f) => (
          <Stat.Root key={f.label} borderWidth="1px" borderColor="orange.100" rounded="lg" p="3">
            <Stat.Label>{f.label}</Stat.Label>
            <Stat.ValueText fontSize="xl">{f.value}</Stat.ValueText>
          </Stat.Root>
        ))}
      </SimpleGrid>
      <Text fontSize="sm" color="fg.muted" mt="2">
        {balance.nextPayoutDate
          ? "Members' payments become available a couple of days after they are charged; every Monday what is available is paid out to your bank account."
          : "Payouts are paused until the payout account is enabled: the money stays in your balance."}
      </Text>
    </Panel>
  );
}
