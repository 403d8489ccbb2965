import { SimpleGrid, Stack, Stat, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import type { StatementTotalsFragment$key } from "./__generated__/StatementTotalsFragment.graphql.ts";

/** A statement's totals: what was charged and refunded, the fees kept (less those refunded), and what is left. */
export function StatementTotals({ statement: key }: { statement: StatementTotalsFragment$key }) {
  const s = useFragment(
    graphql`
      fragment StatementTotalsFragment on PayoutStatement {
        timeZone
        grossCents
        refundsCents
        platformFeeCents
        processingFeeCents
        netCents
        paidOutCents
      }
    `,
    key,
  );
  const totals = [
    { label: "Gross", cents: s.grossCents },
    { label: "Refunds", cents: s.refundsCents },
    { label: "Platform fee", cents: s.platformFeeCents },
    { label: "Processing fee", cents: s.processingFeeCents },
    { label: "Net", cents: s.netCents },
    { label: "Paid out", cents: s.paidOutCents },
  ];
  return (
    <Stack gap="2">
      <SimpleGrid columns={{ base: 2, md: 3, xl: 6 }} gap="3" data-testid="statement-totals">
        {totals.map((t) => (
          <Stat.Root key={t.label} borderWidth="1px" borderColor="orange.100" rounded="lg" p="3">
            <Stat.Label>{t.label}</Stat.Label>
            <Stat.ValueText fontSize="xl">{formatCents(t.cents)}</Stat.ValueText>
          </Stat.Root>
        ))}
      </SimpleGrid>
      <Text fontSize="sm" color="fg.muted">
        Charges and refunds by the day they happened ({s.timeZone}). Fees are taken from each charge and given back in proportion when it is refunded. Paid out: the payouts to your bank made in the month, failed ones left out.
      </Text>
    </Stack>
  );
}
