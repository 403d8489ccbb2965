import { Suspense, useState, useTransition } from "react";
import { Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment, useLazyLoadQuery } from "react-relay";
import { useSearchParams } from "react-router";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { CsvDownloadButton } from "../../../ui/admin/CsvDownloadButton.tsx";
import { MonthStepper } from "../../../ui/admin/MonthStepper.tsx";
import { LoadingState } from "../../../ui/StatusStates.tsx";
import { StatementEntries } from "./StatementEntries.tsx";
import { StatementTotals } from "./StatementTotals.tsx";
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
  const actions = (
    <MonthStepper month={month} onChange={go} label="Statement month" max={business.currentPeriod}>
      <CsvDownloadButton path={`/api/admin/businesses/${business.databaseId}/statements/${month}.csv`} filename={`statement-${month}.csv`} />
    </MonthStepper>
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
