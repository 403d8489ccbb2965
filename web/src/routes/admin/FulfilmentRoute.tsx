import { Box, Stack } from "@chakra-ui/react";
import { graphql } from "react-relay";
import { useNavigate, useParams } from "react-router";
import { CycleHeader } from "../../features/admin/packing/CycleHeader.tsx";
import { DifferenceList } from "../../features/admin/packing/DifferenceList.tsx";
import { MembersPreview } from "../../features/admin/packing/MembersPreview.tsx";
import { PackingLists } from "../../features/admin/packing/PackingLists.tsx";
import { TotalsPanel } from "../../features/admin/packing/TotalsPanel.tsx";
import { formatMonth } from "../../features/admin/packing/format.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import { MonthStepper } from "../../ui/admin/MonthStepper.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { FulfilmentRouteQuery } from "./__generated__/FulfilmentRouteQuery.graphql.ts";

/**
 * /admin/business/:id/fulfilment[/:month]: what the business packs in a month (docs/fulfilment.md): the cycle,
 * its totals, the packing lists with their downloads and print view, and the members before the freeze or what
 * changed after it. Without a month, the month whose box is next.
 */
export default function FulfilmentRoute() {
  const params = useParams();
  const id = Number(params.id);
  const navigate = useNavigate();
  const data = useRouteQuery<FulfilmentRouteQuery>(
    graphql`
      query FulfilmentRouteQuery($id: Int!, $month: String) {
        adminBusiness(id: $id) {
          name
          timeZone
          fulfilment(month: $month) {
            month
            state
            ...CycleHeaderFragment
            ...TotalsPanelFragment
            ...MembersPreviewFragment
            ...DifferenceListFragment
          }
        }
        ...PackingListsFragment_query @arguments(id: $id, month: $month)
      }
    `,
    { id, month: params.month ?? null },
    { fetchPolicy: "store-and-network" },
  );
  const business = data.adminBusiness;
  if (!business) return <EmptyMessage title="No businesses found" description="This business does not exist or you do not have access to it." />;
  const cycle = business.fulfilment;
  const go = (month: string) => void navigate(`/admin/business/${id}/fulfilment/${month}`);
  const picker = <MonthStepper className="no-print" month={cycle.month} onChange={go} label="Month" />;
  return (
    <AdminPage title="Fulfilment" description={`${business.name} · ${formatMonth(cycle.month)}`} actions={picker}>
      <Stack gap="6" className="packing-root">
        <Box className="no-print">
          <Panel title="Cycle">
            <CycleHeader cycle={cycle} timeZone={business.timeZone} />
          </Panel>
        </Box>
        <Box className="no-print">
          <Panel title="Totals">
            <TotalsPanel cycle={cycle} />
          </Panel>
        </Box>
        <Box className="packing-panel">
          <Panel title="Packing lists">
            <PackingLists query={data} businessId={id} businessName={business.name} />
          </Panel>
        </Box>
        <Box className="no-print">
          {cycle.state === "FROZEN" ? (
            <Panel title="Changes since the freeze">
              <DifferenceList cycle={cycle} />
            </Panel>
          ) : (
            <Panel title="Members this month">
              <MembersPreview cycle={cycle} timeZone={business.timeZone} businessId={id} />
            </Panel>
          )}
        </Box>
      </Stack>
    </AdminPage>
  );
}
