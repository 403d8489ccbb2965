import { Suspense, useState, useTransition } from "react";
import { Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { EmptyLine, Panel } from "../../../ui/admin/AdminPage.tsx";
import { CsvDownloadButton } from "../../../ui/admin/CsvDownloadButton.tsx";
import { MonthStepper } from "../../../ui/admin/MonthStepper.tsx";
import { LoadingState } from "../../../ui/StatusStates.tsx";
import type { FeesCollectedPanelQuery } from "./__generated__/FeesCollectedPanelQuery.graphql.ts";

/** This month, UTC (each business's own month is counted in its time zone by the server). */
const thisMonth = () => new Date().toISOString().slice(0, 7);

/**
 * Fees collected (docs/payments.md, "Fees collected"): per business for a month of its time zone, the platform
 * and processing fees collected, the fees refunded, what the provider kept, and the platform's net; the totals;
 * the CSV. Another month is read while the one shown stays on screen.
 */
export function FeesCollectedPanel() {
  const [month, setMonth] = useState(thisMonth);
  const [switching, startTransition] = useTransition();
  const go = (next: string) => startTransition(() => setMonth(next));
  const actions = (
    <MonthStepper month={month} onChange={go} label="Fees month">
      <CsvDownloadButton path={`/api/admin/fees/${month}.csv`} filename={`fees-collected-${month}.csv`} />
    </MonthStepper>
  );
  return (
    <Panel title="Fees collected" actions={actions}>
      <Stack gap="3" opacity={switching ? 0.6 : 1} aria-busy={switching || undefined}>
        <Suspense fallback={<LoadingState label="Loading the fees…" />}>
          <FeesCollectedMonth month={month} />
        </Suspense>
      </Stack>
    </Panel>
  );
}

const COLUMNS = ["Charges", "Platform fees", "Processing fees", "Fees refunded", "Stripe's fees", "Platform net"] as const;

interface Amounts {
  chargeCount: number;
  platformFeeCents: number;
  processingFeeCents: number;
  feesRefundedCents: number;
  providerFeeCents: number;
  netCents: number;
}

/** A row's cells in COLUMNS' order. */
const amountCells = (a: Amounts) =>
  [String(a.chargeCount), formatCents(a.platformFeeCents), formatCents(a.processingFeeCents), formatCents(a.feesRefundedCents), formatCents(a.providerFeeCents), formatCents(a.netCents)].map(
    (text, i) => (
      <Table.Cell key={COLUMNS[i]} textAlign="end">
        {text}
      </Table.Cell>
    ),
  );

function FeesCollectedMonth({ month }: { month: string }) {
  const data = useLazyLoadQuery<FeesCollectedPanelQuery>(
    graphql`
      query FeesCollectedPanelQuery($month: String!) {
        feesCollected(month: $month) {
          businesses {
            businessId
            businessName
            timeZone
            chargeCount
            platformFeeCents
            processingFeeCents
            feesRefundedCents
            providerFeeCents
            netCents
          }
          totals {
            chargeCount
            platformFeeCents
            processingFeeCents
            feesRefundedCents
            providerFeeCents
            netCents
          }
        }
      }
    `,
    { month },
    { fetchPolicy: "store-and-network" },
  );
  const { businesses, totals } = data.feesCollected;
  if (businesses.length === 0) return <EmptyLine>No charges or refunds in this month.</EmptyLine>;
  return (
    <Table.ScrollArea borderWidth="1px" rounded="md" tabIndex={0} role="region" aria-label="Fees collected">
      <Table.Root size="sm">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Business</Table.ColumnHeader>
            {COLUMNS.map((label) => (
              <Table.ColumnHeader key={label} textAlign="end">
                {label}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {businesses.map((b) => (
            <Table.Row key={b.businessId}>
              <Table.Cell>
                {b.businessName}
                <Text as="span" color="fg.muted" fontSize="xs" ms="2">
                  {b.timeZone}
                </Text>
              </Table.Cell>
              {amountCells(b)}
            </Table.Row>
          ))}
          <Table.Row fontWeight="semibold">
            <Table.Cell>Total</Table.Cell>
            {amountCells(totals)}
          </Table.Row>
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
