import { Suspense, useState, useTransition } from "react";
import { Button, HStack, IconButton, Input, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment, useLazyLoadQuery } from "react-relay";
import { useSearchParams } from "react-router";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { LoadingState } from "../../../ui/StatusStates.tsx";
import { downloadCsv } from "../memberships/csv.ts";
import { shiftMonth } from "../packing/format.ts";
import { StatementEntries } from "./StatementEntries.tsx";
import { StatementTotals } from "./StatementTotals.tsx";
import { fetchStatementCsv } from "./statementCsv.ts";
import type { StatementPanelFragment_business$key } from "./__generated__/StatementPanelFragment_business.graphql.ts";
import type { StatementPanelQuery } from "./__generated__/StatementPanelQuery.graphql.ts";

/**
 * A month of the business's books (docs/payments.md, "Statements"): its totals, its charges and refunds, and the
 * CSV. It opens on this month in the business's time zone, as the server names it, or on the earlier month the
 * address names (`?month=YYYY-MM`); another month is read while the one shown stays on screen.
 */
export function StatementPanel({ business: key }: { business: StatementPanelFragment_business$key }) {
  const business = useFragment(
    graphql`
      fragment StatementPanelFragment_business on Business {
        databaseId
        currentPeriod
      }
    `,
    key,
  );
  // A payout's email links the statement of its month (?month=YYYY-MM); a month to come opens on this one.
  const asked = useSearchParams()[0].get("month");
  const [month, setMonth] = useState(asked && /^\d{4}-\d{2}$/.test(asked) && asked <= business.currentPeriod ? asked : business.currentPeriod);
  const [switching, startTransition] = useTransition();
  const go = (next: string) => startTransition(() => setMonth(next));
  const latest = month >= business.currentPeriod;
  const actions = (
    <HStack gap="2" wrap="wrap">
      <IconButton size="sm" variant="outline" aria-label="Previous month" onClick={() => go(shiftMonth(month, -1))}>
        ‹
      </IconButton>
      <Input
        type="month"
        size="sm"
        w="44"
        aria-label="Statement month"
        value={month}
        max={business.currentPeriod}
        onChange={(e) => {
          if (/^\d{4}-\d{2}$/.test(e.target.value)) go(e.target.value);
        }}
      />
      <IconButton size="sm" variant="outline" aria-label="Next month" disabled={latest} onClick={() => go(shiftMonth(month, 1))}>
        ›
      </IconButton>
      <Download businessId={business.databaseId} month={month} />
    </HStack>
  );
  return (
    <Panel title="Statement" actions={actions}>
      <Stack gap="5" opacity={switching ? 0.6 : 1} aria-busy={switching || undefined}>
        <Suspense fallback={<LoadingState label="Loading the statement…" />}>
          <StatementMonth businessId={business.databaseId} month={month} />
        </Suspense>
      </Stack>
    </Panel>
  );
}

/** The month's totals and entries, in one request. */
function StatementMonth({ businessId, month }: { businessId: number; month: string }) {
  const data = useLazyLoadQuery<StatementPanelQuery>(
    graphql`
      query StatementPanelQuery($id: Int!, $month: String!) {
        adminBusiness(id: $id) {
          statement(month: $month) {
            ...StatementTotalsFragment
          }
        }
        ...StatementEntriesFragment_query @arguments(id: $id, month: $month)
      }
    `,
    { id: businessId, month },
    { fetchPolicy: "store-and-network" },
  );
  const statement = data.adminBusiness?.statement;
  if (!statement) return <Text color="fg.muted">This statement is not available.</Text>;
  return (
    <>
      <StatementTotals statement={statement} />
      <StatementEntries query={data} />
    </>
  );
}

/** The server's CSV of the month, fetched with the bearer token and saved. */
function Download({ businessId, month }: { businessId: number; month: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setError(null);
    setBusy(true);
    try {
      const { csv, filename } = await fetchStatementCsv(businessId, month);
      downloadCsv(filename, csv);
    } catch (e) {
      setError(`Download failed: ${(e as Error).message || "please try again"}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button size="sm" variant="outline" onClick={run} loading={busy} loadingText="Downloading…">
        Download CSV
      </Button>
      {error && (
        <Text color="red.600" fontSize="sm" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}
