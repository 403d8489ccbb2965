import { Button, Stack } from "@chakra-ui/react";
import { graphql } from "react-relay";
import { Link as RouterLink, useParams } from "react-router";
import { MetricCards } from "../../features/admin/dashboard/MetricCards.tsx";
import { MonthlyCharts } from "../../features/admin/dashboard/MonthlyCharts.tsx";
import { OwnerOutlook } from "../../features/admin/dashboard/OwnerOutlook.tsx";
import { PastDuePanel } from "../../features/admin/dashboard/PastDuePanel.tsx";
import { RecentSubscriptions } from "../../features/admin/dashboard/RecentSubscriptions.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { BusinessDashboardRouteQuery } from "./__generated__/BusinessDashboardRouteQuery.graphql.ts";

/**
 * /admin/business/:id: the business dashboard (docs/admin.md, Business dashboard): what is coming (the next billing
 * run, this month's boxes, new members and cancellations, MRR), the past-due memberships, then the totals, the
 * charts and the newest memberships.
 */
export default function BusinessDashboardRoute() {
  const id = Number(useParams().id);
  const data = useRouteQuery<BusinessDashboardRouteQuery>(
    graphql`
      query BusinessDashboardRouteQuery($id: Int!) {
        adminBusiness(id: $id) {
          name
          slug
          metrics {
            ...OwnerOutlookFragment
            ...PastDuePanelFragment
            ...MetricCardsFragment
            ...MonthlyChartsFragment
            ...RecentSubscriptionsFragment
          }
        }
      }
    `,
    { id },
    { fetchPolicy: "store-and-network" },
  );
  const business = data.adminBusiness;
  if (!business) return <EmptyMessage title="No businesses found" description="This business does not exist or you do not have access to it." />;
  const memberships = `/admin/business/${id}/memberships`;
  return (
    <AdminPage
      title={business.name}
      description={`Dashboard · ${business.slug}`}
      actions={
        <Button asChild colorPalette="orange" variant="outline">
          <RouterLink to={memberships}>View memberships</RouterLink>
        </Button>
      }
    >
      <Stack gap="4">
        <OwnerOutlook metrics={business.metrics} businessId={id} />
        <PastDuePanel metrics={business.metrics} businessId={id} />
        <MetricCards metrics={business.metrics} />
        <MonthlyCharts metrics={business.metrics} />
        <RecentSubscriptions metrics={business.metrics} showBusiness={false} />
      </Stack>
    </AdminPage>
  );
}
