import { startTransition, useMemo, useState } from "react";
import { graphql } from "react-relay";
import { useParams } from "react-router";
import { CreateCouponForm } from "../../features/admin/coupons/CreateCouponForm.tsx";
import { CouponRow } from "../../features/admin/coupons/CouponRow.tsx";
import { CouponTable } from "../../features/admin/coupons/CouponTable.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { BusinessCouponsRouteQuery } from "./__generated__/BusinessCouponsRouteQuery.graphql.ts";

/**
 * /admin/business/:id/coupons: the business's own discount codes (its owners and editors, administrators), beside
 * the platform's, which work here too. Create with duration, expiry, limit and plans; toggle, delete, redemptions.
 */
export default function BusinessCouponsRoute() {
  const id = Number(useParams().id);
  const [fetchKey, setFetchKey] = useState(0);
  const refetch = () => startTransition(() => setFetchKey((n) => n + 1));
  const data = useRouteQuery<BusinessCouponsRouteQuery>(
    graphql`
      query BusinessCouponsRouteQuery($id: Int!) {
        adminBusiness(id: $id) {
          databaseId
          name
          viewerCanEdit
          plans(first: 100, includeUnlisted: true) {
            edges {
              node {
                databaseId
                name
              }
            }
          }
          coupons(first: 200) {
            edges {
              node {
                id
                ...CouponRowFragment_coupon
              }
            }
          }
        }
      }
    `,
    { id },
    { fetchKey: fetchKey || undefined, fetchPolicy: "store-and-network" },
  );
  const business = data.adminBusiness;
  const plans = useMemo(() => business?.plans.edges.map((e) => e.node) ?? [], [business]);
  const planNames = useMemo(() => new Map(plans.map((p) => [p.databaseId, p.name])), [plans]);
  if (!business) return <EmptyMessage title="No businesses found" description="This business does not exist or you do not have access to it." />;
  if (!business.viewerCanEdit || !business.coupons) {
    return <EmptyMessage title="Owners and editors only" description="Only the business's owners, editors and administrators can manage its coupons." />;
  }
  const coupons = business.coupons.edges.map((e) => e.node);
  return (
    <AdminPage
      title="Coupons"
      description={`${business.name} · discount codes members enter at checkout here (platform codes work here too). A coupon lowers the amount charged, and so what ${business.name} receives: fees are taken on the amount charged. Deleting a coupon ends its discount for the members holding it; deactivating only stops new use.`}
    >
      <Panel title="Create Coupon">
        <CreateCouponForm businessId={business.databaseId} plans={plans} onCreated={refetch} />
      </Panel>
      <Panel title="This business's coupons">
        <CouponTable
          count={coupons.length}
          withPlans
          cards={coupons.map((c) => <CouponRow key={c.id} coupon={c} layout="card" planNames={planNames} onDeleted={refetch} />)}
          rows={coupons.map((c) => <CouponRow key={c.id} coupon={c} layout="table" planNames={planNames} onDeleted={refetch} />)}
        />
      </Panel>
    </AdminPage>
  );
}
