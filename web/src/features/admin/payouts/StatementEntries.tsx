import { Badge, Table, Text } from "@chakra-ui/react";
import { graphql, usePaginationFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { monthYear } from "../../../lib/dates.ts";
import { formatYearMonth } from "../format.ts";
import { ADMIN_PAGE_SIZE, LoadMore } from "../LoadMore.tsx";
import { formatDay } from "../packing/format.ts";
import type { StatementEntriesFragment_query$key } from "./__generated__/StatementEntriesFragment_query.graphql.ts";
import type { StatementEntriesPaginationQuery } from "./__generated__/StatementEntriesPaginationQuery.graphql.ts";

const KINDS: Record<string, { label: string; palette: string }> = { CHARGE: { label: "Charge", palette: "green" }, REFUND: { label: "Refund", palette: "orange" } };

const AMOUNT = { textAlign: "end", whiteSpace: "nowrap" } as const;

/** The month's charges and refunds, oldest first, a page at a time. */
export function StatementEntries({ query }: { query: StatementEntriesFragment_query$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment<StatementEntriesPaginationQuery, StatementEntriesFragment_query$key>(
    graphql`
      fragment StatementEntriesFragment_query on Query
      @refetchable(queryName: "StatementEntriesPaginationQuery")
      @argumentDefinitions(id: { type: "Int!" }, month: { type: "String!" }, count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }) {
        adminBusiness(id: $id) {
          statement(month: $month) {
            month
            entries(first: $count, after: $cursor) @connection(key: "StatementEntries_entries") {
              edges {
                node {
                  databaseId
                  date
                  memberName
                  period
                  kind
                  grossCents
                  platformFeeCents
                  processingFeeCents
                  netCents
                }
              }
            }
          }
        }
      }
    `,
    query,
  );
  const statement = data.adminBusiness?.statement;
  if (!statement) return null;
  const entries = statement.entries.edges.map((e) => e.node);
  if (entries.length === 0) {
    return (
      <Text color="fg.muted" py="6" textAlign="center">
        No charges or refunds in {monthYear(statement.month)}.
      </Text>
    );
  }
  return (
    <>
      <Table.ScrollArea borderWidth="1px" rounded="md" tabIndex={0} role="region" aria-label={`Charges and refunds in ${monthYear(statement.month)}`}>
        <Table.Root size="sm" striped data-testid="statement-entries">
          <Table.Header>
            <Table.Row>
              {["Date", "Member", "Period", "Kind"].map((name) => (
                <Table.ColumnHeader key={name}>{name}</Table.ColumnHeader>
              ))}
              {["Gross", "Fees", "Net"].map((name) => (
                <Table.ColumnHeader key={name} textAlign="end">
                  {name}
                </Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {entries.map((e) => {
              const kind = KINDS[e.kind] ?? { label: e.kind, palette: "gray" };
              return (
                <Table.Row key={e.databaseId}>
                  <Table.Cell whiteSpace="nowrap">{formatDay(e.date)}</Table.Cell>
                  <Table.Cell>{e.memberName ?? <Text as="span" color="fg.muted">Payment removed</Text>}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{formatYearMonth(e.period)}</Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={kind.palette}>{kind.label}</Badge>
                  </Table.Cell>
                  <Table.Cell {...AMOUNT}>{formatCents(e.grossCents)}</Table.Cell>
                  <Table.Cell {...AMOUNT}>{formatCents(e.platformFeeCents + e.processingFeeCents)}</Table.Cell>
                  <Table.Cell {...AMOUNT}>{formatCents(e.netCents)}</Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <LoadMore shown={entries.length} noun={["entry", "entries"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
    </>
  );
}
