import { Badge, Box, SimpleGrid, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { formatDay, formatInstant } from "./format.ts";
import type { CycleHeaderFragment$key } from "./__generated__/CycleHeaderFragment.graphql.ts";

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Box>
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontWeight="semibold" data-testid={testId}>
        {value}
      </Text>
    </Box>
  );
}

/** The cycle of the month: its state, its dates and the revenue expected of it. */
export function CycleHeader({ cycle: key, timeZone }: { cycle: CycleHeaderFragment$key; timeZone: string }) {
  const c = useFragment(
    graphql`
      fragment CycleHeaderFragment on FulfilmentCycle {
        state
        freezeAt
        frozenAt
        billingDate
        cutoffDate
        boxReadyDate
        totals {
          expectedRevenueCents
          paidCents
          toChargeCents
          retryCents
          boxes
          held
        }
      }
    `,
    key,
  );
  const frozen = c.state === "FROZEN";
  return (
    <Box>
      <Badge colorPalette={frozen ? "blue" : "green"} size="lg" mb="4" data-testid="cycle-state">
        {frozen ? `Frozen at ${formatInstant(c.frozenAt, timeZone)}` : "Open: preview"}
      </Badge>
      <SimpleGrid columns={{ base: 2, md: 3, lg: 6 }} gap="4">
        <Fact label="Billing date" value={formatDay(c.billingDate)} />
        <Fact label={frozen ? "Frozen" : "Freezes"} value={formatInstant(frozen ? c.frozenAt : c.freezeAt, timeZone)} />
        <Fact label="Box ready" value={formatDay(c.boxReadyDate)} />
        <Fact label="Expected revenue" value={formatCents(c.totals.expectedRevenueCents)} testId="expected-revenue" />
        <Fact label="Boxes to pack" value={String(c.totals.boxes)} testId="boxes-to-pack" />
        <Fact label="On hold" value={String(c.totals.held)} />
      </SimpleGrid>
      <Text fontSize="sm" color="fg.muted" mt="3">
        Paid {formatCents(c.totals.paidCents)} · to be charged {formatCents(c.totals.toChargeCents)} · retries due {formatCents(c.totals.retryCents)}
        {c.cutoffDate ? ` · cutoff day ${formatDay(c.cutoffDate)}` : ""}
      </Text>
    </Box>
  );
}
