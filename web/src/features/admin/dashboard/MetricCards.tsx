import { SimpleGrid, Stat } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import type { MetricCardsFragment$key } from "./__generated__/MetricCardsFragment.graphql.ts";

export function MetricCards({ metrics }: { metrics: MetricCardsFragment$key }) {
  const data = useFragment(
    graphql`
      fragment MetricCardsFragment on DashboardMetrics {
        totals {
          subscriptionsAll
          subscriptionsActive
          subscriptionsCanceled
          totalRevenueCents
        }
        averages {
          subscriptionPriceCents
        }
      }
    `,
    metrics,
  );
  const cards = [
    { label: "Active members", value: String(data.totals.subscriptionsActive) },
    { label: "All subscriptions", value: String(data.totals.subscriptionsAll) },
    { label: "Canceled", value: String(data.totals.subscriptionsCanceled) },
    { label: "Total revenue", value: formatCents(data.totals.totalRevenueCents) },
    { label: "Average price", value: formatCents(data.averages.subscriptionPriceCents) },
  ];
  return (
    <SimpleGrid columns={{ base: 2, md: 3, xl: 5 }} gap="3">
      {cards.map((card) => (
        <Stat.Root key={card.label} bg="bg" borderWidth="1px" borderColor="orange.100" rounded="xl" p="4">
          <Stat.Label>{card.label}</Stat.Label>
          <Stat.ValueText>{card.value}</Stat.ValueText>
        </Stat.Root>
      ))}
    </SimpleGrid>
  );
}
