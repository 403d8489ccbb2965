import { SimpleGrid, Stack } from "@chakra-ui/react";
import { graphql } from "react-relay";
import { MetricCards } from "../../features/admin/dashboard/MetricCards.tsx";
import { MonthlyCharts } from "../../features/admin/dashboard/MonthlyCharts.tsx";
import { RecentSubscriptions } from "../../features/admin/dashboard/RecentSubscriptions.tsx";
import { SubscriptionsByBusiness } from "../../features/admin/dashboard/SubscriptionsByBusiness.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import type { AdminHomeRouteQuery } from "./__generated__/AdminHomeRouteQuery.graphql.ts";

/** /admin: the platform dashboard (admins). */
export default function AdminHomeRoute() {
  const data = useRouteQuery<AdminHomeRouteQuery>(
    graphql`
      query AdminHomeRouteQuery {
        adminMetrics {
          ...MetricCardsFragment
          ...MonthlyChartsFragment
          ...RecentSubscriptionsFragment
          ...SubscriptionsByBusinessFragment
        }
      }
    `,
    {},
    { fetchPolicy: "store-and-network" },
  );
  return (
    <AdminPage title="Dashboard" description="Every business on the platform at a glance.">
      <Stack gap="4">
        <MetricCards metrics={data.adminMetrics} />
        <MonthlyCharts metrics={data.adminMetrics} />
        {/* Side by side only where the recent subscriptions table fits whole beside the sidebar (at 1280 px
            it would be clipped). */}
        <SimpleGrid columns={{ base: 1, "2xl": 2 }} gap="4">
          <RecentSubscriptions metrics={data.adminMetrics} />
          <SubscriptionsByBusiness metrics={data.adminMetrics} />
        </SimpleGrid>
      </Stack>
    </AdminPage>
  );
}
