import { Box, HStack, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { MODE_NAMES } from "@shared/fulfillment.ts";
import type { TotalsPanelFragment$key } from "./__generated__/TotalsPanelFragment.graphql.ts";

const MODES = ["PICKUP", "SHIPPING", "DELIVERY"] as const;
const MODE_COLORS: Record<(typeof MODES)[number], string> = { PICKUP: "#c2410c", SHIPPING: "#1d4ed8", DELIVERY: "#15803d" };

/** Boxes by plan × mode (with row and column totals), and the same as bars: one bar per plan, a segment per mode. */
export function TotalsPanel({ cycle: key }: { cycle: TotalsPanelFragment$key }) {
  const { totals } = useFragment(
    graphql`
      fragment TotalsPanelFragment on FulfilmentCycle {
        totals {
          boxes
          byPlanMode {
            plan
            mode
            count
          }
          byPoint {
            label
            count
          }
          byAddon {
            label
            count
          }
        }
      }
    `,
    key,
  );
  const plans = [...new Set(totals.byPlanMode.map((x) => x.plan))];
  const count = (plan: string, mode: string) => totals.byPlanMode.find((x) => x.plan === plan && x.mode === mode)?.count ?? 0;
  const planTotal = (plan: string) => MODES.reduce((n, m) => n + count(plan, m), 0);
  const modeTotal = (mode: string) => plans.reduce((n, p) => n + count(p, mode), 0);
  const max = Math.max(1, ...plans.map(planTotal));
  if (totals.boxes === 0) return <Text color="fg.muted">No boxes this month.</Text>;
  return (
    <Stack gap="6">
      <Table.ScrollArea borderWidth="1px" rounded="md">
        <Table.Root size="sm" data-testid="totals-table">
          <Table.Caption captionSide="top" textAlign="start" px="3" pt="2" color="fg.muted">
            Boxes by plan and fulfillment mode (boxes on hold not counted)
          </Table.Caption>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader scope="col">Plan</Table.ColumnHeader>
              {MODES.map((m) => (
                <Table.ColumnHeader key={m} scope="col" textAlign="end">
                  {MODE_NAMES[m]}
                </Table.ColumnHeader>
              ))}
              <Table.ColumnHeader scope="col" textAlign="end">
                Total
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {plans.map((p) => (
              <Table.Row key={p}>
                <Table.Cell as="th" scope="row" fontWeight="medium">
                  {p}
                </Table.Cell>
                {MODES.map((m) => (
                  <Table.Cell key={m} textAlign="end">
                    {count(p, m)}
                  </Table.Cell>
                ))}
                <Table.Cell textAlign="end" fontWeight="semibold">
                  {planTotal(p)}
                </Table.Cell>
              </Table.Row>
            ))}
            <Table.Row bg="bg.muted">
              <Table.Cell as="th" scope="row" fontWeight="semibold">
                Total
              </Table.Cell>
              {MODES.map((m) => (
                <Table.Cell key={m} textAlign="end" fontWeight="semibold">
                  {modeTotal(m)}
                </Table.Cell>
              ))}
              <Table.Cell textAlign="end" fontWeight="bold" data-testid="totals-grand">
                {totals.boxes}
              </Table.Cell>
            </Table.Row>
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>

      <Box as="figure" aria-labelledby="plan-mode-chart-title">
        <Text as="figcaption" id="plan-mode-chart-title" fontWeight="semibold" mb="2">
          Boxes by plan and mode
        </Text>
        <HStack gap="4" mb="3" wrap="wrap" aria-hidden="true">
          {MODES.map((m) => (
            <HStack key={m} gap="1.5">
              <Box w="3" h="3" rounded="sm" style={{ background: MODE_COLORS[m] }} />
              <Text fontSize="sm">{MODE_NAMES[m]}</Text>
            </HStack>
          ))}
        </HStack>
        <Stack gap="2" as="ul" listStyleType="none">
          {plans.map((p) => (
            <Box as="li" key={p} aria-label={`${p}: ${MODES.map((m) => `${MODE_NAMES[m]} ${count(p, m)}`).join(", ")}; total ${planTotal(p)}`}>
              <Text fontSize="sm" mb="1" aria-hidden="true">
                {p} · {planTotal(p)}
              </Text>
              <HStack gap="0" h="6" w="full" bg="bg.muted" rounded="sm" overflow="hidden" aria-hidden="true">
                {MODES.filter((m) => count(p, m) > 0).map((m) => (
                  <Box key={m} h="full" style={{ width: `${(count(p, m) / max) * 100}%`, background: MODE_COLORS[m] }} color="white" fontSize="xs" px="1" display="flex" alignItems="center" overflow="hidden">
                    {count(p, m)}
                  </Box>
                ))}
              </HStack>
            </Box>
          ))}
        </Stack>
      </Box>

      <HStack gap="8" align="flex-start" wrap="wrap">
        <CountList title="By pickup point or delivery area" counts={totals.byPoint} />
        {totals.byAddon.length > 0 && <CountList title="Add-ons" counts={totals.byAddon} />}
      </HStack>
    </Stack>
  );
}

function CountList({ title, counts }: { title: string; counts: readonly { label: string; count: number }[] }) {
  return (
    <Box>
      <Text fontWeight="semibold" mb="1">
        {title}
      </Text>
      <Stack as="ul" gap="0.5" listStyleType="none" fontSize="sm">
        {counts.map((c) => (
          <li key={c.label}>
            {c.label}: {c.count}
          </li>
        ))}
      </Stack>
    </Box>
  );
}
