import { Badge, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, usePaginationFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { LoadMore } from "../LoadMore.tsx";
import { formatDay } from "../packing/format.ts";
import type { PayoutListFragment_business$key } from "./__generated__/PayoutListFragment_business.graphql.ts";
import type { PayoutListPaginationQuery } from "./__generated__/PayoutListPaginationQuery.graphql.ts";

const STATUSES: Record<string, { label: string; palette: string }> = {
  PENDING: { label: "Pending", palette: "gray" },
  IN_TRANSIT: { label: "In transit", palette: "blue" },
  PAID: { label: "Paid", palette: "green" },
  FAILED: { label: "Failed", palette: "red" },
  CANCELED: { label: "Canceled", palette: "gray" },
};

/** Payouts shown at first and added by each Load more. */
const PAYOUTS_PAGE = 10;

const AMOUNT = { textAlign: "end", whiteSpace: "nowrap" } as const;

/** The day an instant falls on in the business's time zone ("Mar 9, 2026"). */
const dayIn = (iso: string, timeZone: string) => new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone }).format(new Date(iso));

/** Payouts to the business's bank, newest first, a page at a time; a failed one says why. */
export function PayoutList({ business: key }: { business: PayoutListFragment_business$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment<PayoutListPaginationQuery, PayoutListFragment_business$key>(
    graphql`
      fragment PayoutListFragment_business on Business
      @refetchable(queryName: "PayoutListPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 10 }, cursor: { type: "String" }) {
        timeZone
        payouts(first: $count, after: $cursor) @connection(key: "PayoutList_payouts") {
          edges {
            node {
              databaseId
              createdAt
              arrivalDate
              amountCents
              status
              failureReason
            }
          }
        }
      }
    `,
    key,
  );
  const payouts = data.payouts?.edges.map((e) => e.node) ?? [];
  return (
    <Panel title="Payouts">
      {payouts.length === 0 ? (
        <Text color="fg.muted" py="4" textAlign="center">
          No payouts yet.
        </Text>
      ) : (
        <>
          <Table.ScrollArea borderWidth="1px" rounded="md" tabIndex={0} role="region" aria-label="Payouts">
            <Table.Root size="sm" striped data-testid="payout-list">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Created</Table.ColumnHeader>
                  <Table.ColumnHeader>Arrival</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
                  <Table.ColumnHeader>Status</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {payouts.map((p) => {
                  const status = STATUSES[p.status] ?? { label: p.status, palette: "gray" };
                  return (
                    <Table.Row key={p.databaseId}>
                      <Table.Cell whiteSpace="nowrap">{dayIn(p.createdAt, data.timeZone)}</Table.Cell>
                      <Table.Cell whiteSpace="nowrap">{formatDay(p.arrivalDate)}</Table.Cell>
                      <Table.Cell {...AMOUNT}>{formatCents(p.amountCents)}</Table.Cell>
                      <Table.Cell>
                        <Stack gap="1" align="start">
                          <Badge colorPalette={status.palette}>{status.label}</Badge>
                          {p.failureReason && (
                            <Text fontSize="sm" color="fg.muted">
                              {p.failureReason}
                            </Text>
                          )}
                        </Stack>
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
          <LoadMore shown={payouts.length} noun={["payout", "payouts"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(PAYOUTS_PAGE)} />
        </>
      )}
    </Panel>
  );
}
