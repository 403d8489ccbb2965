import { Suspense, useEffect, useRef, useState } from "react";
import { Button, HStack, Input, NativeSelect, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useMutation, usePaginationFragment } from "react-relay";
import { EmptyLine, Panel } from "../../../ui/admin/AdminPage.tsx";
import { ConfirmDialog } from "../../../ui/admin/ConfirmDialog.tsx";
import { LoadingState } from "../../../ui/StatusStates.tsx";
import { resultError } from "../mutationResult.ts";
import { downloadCsv } from "../../../lib/csvDownload.ts";
import { useDebouncedValue } from "../../../lib/useDebouncedValue.ts";
import { BusinessFilter } from "../BusinessFilter.tsx";
import { ADMIN_PAGE_SIZE, LoadMore } from "../LoadMore.tsx";
import { MembershipRow, type MembershipToCancel } from "./MembershipRow.tsx";
import { exportsActive, membershipsCsvUrl, type MembershipFilterVariables } from "./exportMemberships.ts";
import type { BusinessFilterQuery$data } from "../__generated__/BusinessFilterQuery.graphql.ts";
import type { MembershipsPanelFragment_query$key } from "./__generated__/MembershipsPanelFragment_query.graphql.ts";
import type { MembershipsPanelPaginationQuery, MembershipSort, MembershipStatusFilter } from "./__generated__/MembershipsPanelPaginationQuery.graphql.ts";
import type { MembershipsPanelCancelMutation } from "./__generated__/MembershipsPanelCancelMutation.graphql.ts";
import { MembershipsTableHead, SORT_OPTIONS } from "./MembershipsTableHead.tsx";

/** The status filter's choices: the statuses, and the current members paused ("Paused until …") or ending ("Ends after …"). */
const STATUS_OPTIONS: { value: MembershipStatusFilter; label: string }[] = [
  { value: "ANY", label: "Any status" },
  { value: "ACTIVE", label: "Active" },
  { value: "PAST_DUE", label: "Past due" },
  { value: "PAUSED", label: "Paused" },
  { value: "ENDING", label: "Ending" },
  { value: "CANCELED", label: "Canceled" },
];

/**
 * Memberships with search and status filter; admins also filter by business. The server sorts them (newest first,
 * by start, member name or next charge: a select, and the table's sortable headers). Each row opens the member page;
 * Cancel ends access at once (spec §2 'Cancel immediately'); the filtered list exports as CSV.
 */
export function MembershipsPanel({ query, businessId, businesses }: { query: MembershipsPanelFragment_query$key; businessId?: number; businesses?: BusinessFilterQuery$data }) {
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<MembershipStatusFilter>("ANY");
  const [business, setBusiness] = useState<string>("");
  const [sort, setSort] = useState<MembershipSort>("STARTED_DESC");
  const term = useDebouncedValue(search.trim());
  const effectiveBusiness = businessId ?? (business ? Number(business) : null);
  return (
    <Panel>
      <Stack direction={{ base: "column", md: "row" }} gap="3" mb="4">
        {/* Grows along the row only: in the phone's column a flex basis of 0 took the box's height (18 px). */}
        <Input flex={{ md: "1" }} placeholder="Search username, email or business" aria-label="Search memberships" value={search} onChange={(e) => setSearch(e.target.value)} />
        <NativeSelect.Root width={{ md: "44" }}>
          <NativeSelect.Field aria-label="Status" value={status} onChange={(e) => setStatus(e.currentTarget.value as MembershipStatusFilter)}>
            {STATUS_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {businesses && <BusinessFilter businesses={businesses} value={business} onChange={setBusiness} width="56" />}
        <NativeSelect.Root width={{ md: "52" }}>
          <NativeSelect.Field aria-label="Sort by" value={sort} onChange={(e) => setSort(e.currentTarget.value as MembershipSort)}>
            {SORT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Stack>
      <Suspense fallback={<LoadingState label="Loading memberships…" />}>
        <MembershipsTable query={query} variables={{ search: term || null, status, businessId: effectiveBusiness, sort }} onSort={setSort} />
      </Suspense>
    </Panel>
  );
}

/** The list's variables: the CSV's filters and the order. */
type MembershipListVariables = MembershipFilterVariables & { sort: MembershipSort };

/**
 * The route's query spreads the list with the first filters (any status, the route's business); a filter
 * change refetches the fragment with the new ones (the table shows its loading state meanwhile).
 */
function MembershipsTable({ query, variables, onSort }: { query: MembershipsPanelFragment_query$key; variables: MembershipListVariables; onSort: (sort: MembershipSort) => void }) {
  const { data, loadNext, hasNext, isLoadingNext, refetch } = usePaginationFragment<MembershipsPanelPaginationQuery, MembershipsPanelFragment_query$key>(
    graphql`
      fragment MembershipsPanelFragment_query on Query
      @refetchable(queryName: "MembershipsPanelPaginationQuery")
      @argumentDefinitions(
        count: { type: "Int", defaultValue: 50 }
        cursor: { type: "String" }
        search: { type: "String" }
        status: { type: "MembershipStatusFilter" }
        businessId: { type: "Int" }
        sort: { type: "MembershipSort", defaultValue: STARTED_DESC }
      ) {
        memberships(first: $count, after: $cursor, search: $search, status: $status, businessId: $businessId, sort: $sort)
          @connection(key: "MembershipsPanel_memberships") {
          __id
          edges {
            node {
              id
              ...MembershipRowFragment_membership
            }
          }
        }
      }
    `,
    query,
  );
  const filters = JSON.stringify(variables);
  const shown = useRef(filters);
  useEffect(() => {
    if (shown.current === filters) return;
    shown.current = filters;
    refetch(JSON.parse(filters) as MembershipListVariables, { fetchPolicy: "store-and-network" });
  }, [filters, refetch]);
  const [cancelling, setCancelling] = useState<MembershipToCancel | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const rows = data.memberships.edges.map((e) => e.node);
  const exportCsv = async () => {
    setExportError(null);
    setExporting(true);
    try {
      // The whole filtered list as the server writes it (every row, not only those on screen).
      await downloadCsv(membershipsCsvUrl(variables), "memberships.csv");
    } catch (e) {
      setExportError(`Export failed: ${(e as Error).message || "please try again"}`);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Stack gap="3">
      <HStack justify="flex-end" gap="3" wrap="wrap">
        {exportsActive(variables.status) && (
          <Text color="fg.muted" fontSize="sm">
            The CSV holds every active membership: its paused_through and cancel_after columns mark these.
          </Text>
        )}
        {exportError && (
          <Text color="red.600" fontSize="sm" role="alert">
            {exportError}
          </Text>
        )}
        <Button size="sm" variant="outline" onClick={exportCsv} disabled={rows.length === 0} loading={exporting} loadingText="Exporting…">
          Export CSV
        </Button>
      </HStack>
      {rows.length === 0 ? (
        <EmptyLine>No memberships found</EmptyLine>
      ) : (
        <>
        <Stack hideFrom="md" gap="2">
          {rows.map((m) => (
            <MembershipRow key={m.id} membership={m} layout="card" onCancel={setCancelling} />
          ))}
        </Stack>
        <Table.ScrollArea borderWidth="1px" rounded="md" hideBelow="md" tabIndex={0} role="region" aria-label="Memberships">
          <Table.Root size="sm" striped>
            <MembershipsTableHead sort={variables.sort} onSort={onSort} />
            <Table.Body>
              {rows.map((m) => (
                <MembershipRow key={m.id} membership={m} layout="table" onCancel={setCancelling} />
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
        </>
      )}
      <LoadMore shown={rows.length} noun={["membership", "memberships"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
      {cancelling && (
        <CancelDialog
          membership={cancelling}
          // A canceled membership leaves a list filtered to current ones; with any status or canceled its row shows the new status.
          connections={variables.status === "ANY" || variables.status === "CANCELED" ? [] : [data.memberships.__id]}
          onClose={() => setCancelling(null)}
        />
      )}
    </Stack>
  );
}

function CancelDialog({ membership, connections, onClose }: { membership: MembershipToCancel; connections: string[]; onClose: () => void }) {
  const [commit, busy] = useMutation<MembershipsPanelCancelMutation>(graphql`
    mutation MembershipsPanelCancelMutation($input: CancelSubscriptionInput!, $connections: [ID!]!) {
      cancelSubscription(input: $input) {
        __typename
        ... on CancelSubscriptionSuccess {
          data {
            id @deleteEdge(connections: $connections)
            ...MembershipRowFragment_membership
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const cancelNow = () => {
    commit({
      variables: { input: { subscriptionId: membership.id, mode: "NOW" }, connections },
      onCompleted: ({ cancelSubscription }) => {
        const failure = resultError(cancelSubscription, "Cancel failed");
        if (failure) window.alert(failure);
        onClose();
      },
      onError: (e) => {
        window.alert(e.message || "Cancel failed");
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog title={`Cancel membership #${membership.databaseId}`} cancelLabel="Keep membership" confirmLabel="Cancel immediately" busy={busy} onConfirm={cancelNow} onClose={onClose}>
      <Text>
        {membership.username} · {membership.businessName}
      </Text>
      <Text mt="3" color="fg.muted">
        Cancel immediately ends access at once. There is no automatic refund.
      </Text>
    </ConfirmDialog>
  );
}
