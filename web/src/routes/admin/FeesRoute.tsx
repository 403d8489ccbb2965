import { useState, useTransition } from "react";
import { graphql } from "react-relay";
import { businessFilterQuery } from "../../features/admin/BusinessFilter.tsx";
import { FeeSchedulesTable } from "../../features/admin/fees/FeeSchedulesTable.tsx";
import { FeesCollectedPanel } from "../../features/admin/fees/FeesCollectedPanel.tsx";
import { ScheduleFeeForm } from "../../features/admin/fees/ScheduleFeeForm.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import type { BusinessFilterQuery } from "../../features/admin/__generated__/BusinessFilterQuery.graphql.ts";
import type { FeesRouteQuery } from "./__generated__/FeesRouteQuery.graphql.ts";

/** /admin/fees (administrators): the platform's fee schedules, a form to schedule new fees from a month on, and the fees collected per month. */
export default function FeesRoute() {
  // A schedule saved: the table is read again (kept on screen until the new one arrives).
  const [fetchKey, setFetchKey] = useState(0);
  const [reloading, startTransition] = useTransition();
  const data = useRouteQuery<FeesRouteQuery>(
    graphql`
      query FeesRouteQuery {
        firstSchedulableMonth
        ...FeeSchedulesTableFragment_query
      }
    `,
    {},
    { fetchKey: fetchKey || undefined, fetchPolicy: fetchKey ? "network-only" : "store-and-network" },
  );
  const businesses = useRouteQuery<BusinessFilterQuery>(businessFilterQuery, {}, { fetchPolicy: "store-or-network" });
  return (
    <AdminPage title="Fees" description="What the platform keeps of each charge: the default every business pays, and a business's own, from a month on.">
      <Panel title="Schedule fees">
        <ScheduleFeeForm businesses={businesses} firstMonth={data.firstSchedulableMonth} onScheduled={() => startTransition(() => setFetchKey((n) => n + 1))} />
      </Panel>
      <Panel title="Fee schedules">
        <div aria-busy={reloading}>
          <FeeSchedulesTable query={data} />
        </div>
      </Panel>
      <FeesCollectedPanel />
    </AdminPage>
  );
}
