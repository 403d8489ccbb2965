import { Box, Button, Table } from "@chakra-ui/react";
import type { MembershipSort } from "./__generated__/MembershipsPanelPaginationQuery.graphql.ts";

type KnownSort = Exclude<MembershipSort, "%future added value">;

/** The orders the server sorts the list in (api/subscriptions/memberships-list.ts), as the Sort select offers them. */
export const SORT_OPTIONS: readonly { value: KnownSort; label: string }[] = [
  { value: "STARTED_DESC", label: "Newest first" },
  { value: "STARTED_ASC", label: "Oldest first" },
  { value: "NAME_ASC", label: "Name (A–Z)" },
  { value: "NAME_DESC", label: "Name (Z–A)" },
  { value: "NEXT_CHARGE_ASC", label: "Next charge (soonest)" },
  { value: "NEXT_CHARGE_DESC", label: "Next charge (latest)" },
];

/** A sortable column: its two orders, the first one a click picks. */
const SORTABLE: Record<string, { first: KnownSort; second: KnownSort }> = {
  Member: { first: "NAME_ASC", second: "NAME_DESC" },
  "Next charge": { first: "NEXT_CHARGE_ASC", second: "NEXT_CHARGE_DESC" },
  Started: { first: "STARTED_DESC", second: "STARTED_ASC" },
};

const COLUMNS = ["ID", "Member", "Business", "Plan", "Monthly", "Status", "Next charge", "Started", ""] as const;

/** The sort a click on a column's header asks for: its first order, or the other one when it is already sorted by it. */
export function nextSort(column: string, current: MembershipSort): MembershipSort | null {
  const s = SORTABLE[column];
  if (!s) return null;
  return current === s.first ? s.second : s.first;
}

/** The memberships table's header: Member, Next charge and Started sort the list (aria-sort says how it is sorted). */
export function MembershipsTableHead({ sort, onSort }: { sort: MembershipSort; onSort: (sort: MembershipSort) => void }) {
  return (
    <Table.Header>
      <Table.Row>
        {COLUMNS.map((name, i) => {
          const s = SORTABLE[name];
          const direction = s && (sort === s.first || sort === s.second) ? (sort.endsWith("_ASC") ? "ascending" : "descending") : undefined;
          return (
            <Table.ColumnHeader key={i} aria-sort={s ? (direction ?? "none") : undefined} textAlign={name === "Monthly" ? "end" : undefined}>
              {s ? (
                <Button variant="ghost" size="sm" h="auto" minW="0" px="1" py="0.5" mx="-1" gap="1" fontSize="inherit" fontWeight="inherit" onClick={() => onSort(nextSort(name, sort)!)} aria-label={`Sort by ${name.toLowerCase()}`}>
                  {name}
                  <Box as="span" aria-hidden="true" color={direction ? "fg" : "fg.subtle"}>
                    {direction === "ascending" ? "▲" : direction === "descending" ? "▼" : "↕"}
                  </Box>
                </Button>
              ) : (
                name
              )}
            </Table.ColumnHeader>
          );
        })}
      </Table.Row>
    </Table.Header>
  );
}
