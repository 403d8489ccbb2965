import { startTransition, Suspense, useState } from "react";
import { Text } from "@chakra-ui/react";
import { graphql } from "react-relay";
import { CreateCouponForm } from "../../features/admin/coupons/CreateCouponForm.tsx";
import { CouponRow } from "../../features/admin/coupons/CouponRow.tsx";
import { CouponTable } from "../../features/admin/coupons/CouponTable.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import type { CouponsRouteQuery } from "./__generated__/CouponsRouteQuery.graphql.ts";

/** /admin/coupons (admins): platform coupons, valid at every business. A business's own are on its Coupons page. */
export default function CouponsRoute() {
  const [fetchKey, setFetchKey] = useState(0);
  const refetch = () => startTransition(() => setFetchKey((n) => n + 1));
  return (
    <AdminPage
      title="Coupons"
      description="Platform discount codes members can enter at checkout, at every business. A coupon lowers the amount charged; platform and processing fees are taken on that amount, so a platform coupon also lowers what the business receives."
    >
      <Panel title="Create Coupon">
        <CreateCouponForm businessId={null} plans={null} onCreated={refetch} />
      </Panel>
      <Suspense fallback={<Text color="fg.muted">Loading coupons...</Text>}>
        <PlatformCoupons fetchKey={fetchKey} onChanged={refetch} />
      </Suspense>
    </AdminPage>
  );
}

function PlatformCoupons({ fetchKey, onChanged }: { fetchKey: number; onChanged: () => void }) {
  const data = useRouteQuery<CouponsRouteQuery>(
    graphql`
      query CouponsRouteQuery {
        coupons(first: 200) {
          edges {
            node {
              id
              ...CouponRowFragment_coupon
            }
          }
        }
      }
    `,
    {},
    { fetchKey: fetchKey || undefined, fetchPolicy: "store-and-network" },
  );
  const coupons = data.coupons.edges.map((e) => e.node);
  return (
    <Panel title="All coupons">
      <CouponTable
        count={coupons.length}
        withPlans={false}
        cards={coupons.map((c) => <CouponRow key={c.id} coupon={c} layout="card" planNames={null} onDeleted={onChanged} />)}
        rows={coupons.map((c) => <CouponRow key={c.id} coupon={c} layout="table" planNames={null} onDeleted={onChanged} />)}
      />
    </Panel>
  );
}
