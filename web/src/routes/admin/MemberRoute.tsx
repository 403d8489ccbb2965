import { Suspense, useState } from "react";
import { Box, Button, Grid, HStack, Stack, Text } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { Link as RouterLink, useParams } from "react-router";
import { MemberDetails } from "../../features/admin/members/MemberDetails.tsx";
import { MemberMail } from "../../features/admin/members/MemberMail.tsx";
import { MemberNotes } from "../../features/admin/members/MemberNotes.tsx";
import { MemberOrders } from "../../features/admin/members/MemberOrders.tsx";
import { MembershipDetails } from "../../features/admin/members/MembershipDetails.tsx";
import { memberDisplayName } from "../../features/admin/members/memberPath.ts";
import { resultError } from "../../features/admin/mutationResult.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import { ConfirmDialog } from "../../ui/admin/ConfirmDialog.tsx";
import { EmptyMessage, LoadingState } from "../../ui/StatusStates.tsx";
import type { MemberRouteQuery } from "./__generated__/MemberRouteQuery.graphql.ts";
import type { MemberRouteCancelMutation } from "./__generated__/MemberRouteCancelMutation.graphql.ts";

/**
 * /admin/business/:id/members/:membershipId: one member of a business as its staff see them (docs/admin.md, "Member
 * page"): who they are, their membership and next charge, orders and payments, the business's mail to them, and the
 * staff's notes; Cancel for those who may cancel. Reached from every memberships list and the Fulfilment screen.
 */
export default function MemberRoute() {
  return (
    <Suspense fallback={<LoadingState label="Loading member…" />}>
      <MemberPage />
    </Suspense>
  );
}

function MemberPage() {
  const params = useParams();
  const id = Number(params.id);
  const membershipId = Number(params.membershipId);
  const data = useRouteQuery<MemberRouteQuery>(
    graphql`
      query MemberRouteQuery($id: Int!, $membershipId: Int!) {
        adminMembership(businessId: $id, membershipId: $membershipId) {
          id
          databaseId
          username
          memberName
          status
          business {
            name
          }
          viewerCan {
            cancel
          }
          ...MemberDetailsFragment_membership
          ...MembershipDetailsFragment_membership
          ...MemberOrdersFragment_membership
          ...MemberMailFragment_membership
          ...MemberNotesFragment_membership
        }
      }
    `,
    { id, membershipId },
    { fetchPolicy: "store-and-network" },
  );
  const [cancelling, setCancelling] = useState(false);
  const m = data.adminMembership;
  if (!m) return <EmptyMessage title="No memberships found" description="This membership does not exist or you do not have access to it." />;
  const name = memberDisplayName(m.memberName, m.username);
  const actions = (
    <HStack gap="2" wrap="wrap">
      <Button asChild size="sm" variant="outline">
        <RouterLink to={`/admin/business/${id}/memberships`}>All memberships</RouterLink>
      </Button>
      {m.viewerCan.cancel && m.status !== "CANCELED" && (
        <Button size="sm" variant="outline" colorPalette="red" onClick={() => setCancelling(true)}>
          Cancel membership
        </Button>
      )}
    </HStack>
  );
  return (
    <AdminPage title={name} description={`${m.business.name} · Membership #${m.databaseId}`} actions={actions}>
      {/* Notes and mail beside the details from a laptop's width; on a phone they come before the long order history. */}
      <Grid
        templateColumns={{ base: "minmax(0, 1fr)", lg: "minmax(0, 3fr) minmax(0, 2fr)" }}
        templateAreas={{ base: `"member" "membership" "side" "orders"`, lg: `"member side" "membership side" "orders side"` }}
        templateRows={{ lg: "auto auto 1fr" }}
        gap="6"
        alignItems="start"
      >
        <Box gridArea="member" minW="0">
          <Panel title="Member">
            <MemberDetails membership={m} />
          </Panel>
        </Box>
        <Box gridArea="membership" minW="0">
          <Panel title="Membership">
            <MembershipDetails membership={m} />
          </Panel>
        </Box>
        <Stack gridArea="side" gap="6" minW="0">
          <Panel title="Notes">
            <MemberNotes membership={m} />
          </Panel>
          <Panel title="Mail sent">
            <MemberMail membership={m} />
          </Panel>
        </Stack>
        <Box gridArea="orders" minW="0">
          <Panel title="Orders and payments">
            <MemberOrders membership={m} />
          </Panel>
        </Box>
      </Grid>
      {cancelling && <CancelDialog membership={{ id: m.id, databaseId: m.databaseId, username: m.username, businessName: m.business.name }} onClose={() => setCancelling(false)} />}
    </AdminPage>
  );
}

/** Cancel immediately (spec §2), as the memberships list offers it; the page's fragments read the answer. */
function CancelDialog({ membership, onClose }: { membership: { id: string; databaseId: number; username: string; businessName: string }; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<MemberRouteCancelMutation>(graphql`
    mutation MemberRouteCancelMutation($input: CancelSubscriptionInput!) {
      cancelSubscription(input: $input) {
        __typename
        ... on CancelSubscriptionSuccess {
          data {
            status
            ...MembershipDetailsFragment_membership
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const cancelNow = () => {
    setError(null);
    commit({
      variables: { input: { subscriptionId: membership.id, mode: "NOW" } },
      onCompleted: ({ cancelSubscription }) => {
        const failure = resultError(cancelSubscription, "Cancel failed");
        if (failure) setError(failure);
        else onClose();
      },
      onError: (e) => setError(e.message || "Cancel failed"),
    });
  };
  return (
    <ConfirmDialog
      title={`Cancel membership #${membership.databaseId}`}
      cancelLabel="Keep membership"
      confirmLabel="Cancel immediately"
      busy={busy}
      error={error}
      onConfirm={cancelNow}
      onClose={onClose}
    >
      <Text>
        {membership.username} · {membership.businessName}
      </Text>
      <Text mt="3" color="fg.muted">
        Cancel immediately ends access at once. There is no automatic refund.
      </Text>
    </ConfirmDialog>
  );
}
