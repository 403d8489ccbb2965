import { Badge, Box, HStack, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { monthYear } from "../../../lib/dates.ts";
import { EmptyLine } from "../../../ui/admin/AdminPage.tsx";
import { TableHead } from "../../../ui/admin/TableHead.tsx";
import { formatDate } from "../format.ts";
import { feeText } from "./rates.ts";
import type { FeeSchedulesTableFragment_query$key } from "./__generated__/FeeSchedulesTableFragment_query.graphql.ts";

/** Every fee schedule in the server's order: the default's first, then per business, by month. */
export function FeeSchedulesTable({ query: key }: { query: FeeSchedulesTableFragment_query$key }) {
  const { feeSchedules } = useFragment(
    graphql`
      fragment FeeSchedulesTableFragment_query on Query {
        feeSchedules {
          databaseId
          business {
            name
          }
          effectivePeriod
          platformBps
          platformCents
          processingBps
          processingCents
          createdAt
        }
      }
    `,
    key,
  );
  if (feeSchedules.length === 0) {
    return <EmptyLine>No fee schedules: every business pays the default 5 % platform fee and 2.9 % + $0.30 processing.</EmptyLine>;
  }
  const rows = feeSchedules.map((s) => ({
    id: s.databaseId,
    business: s.business?.name ?? null,
    from: monthYear(s.effectivePeriod),
    platform: feeText(s.platformBps, s.platformCents),
    processing: feeText(s.processingBps, s.processingCents),
    setOn: formatDate(s.createdAt),
  }));
  const businessCell = (name: string | null) => name ?? <Badge colorPalette="orange">Default</Badge>;
  return (
    <>
      <Stack hideFrom="md" gap="2">
        {rows.map((r) => (
          <Box key={r.id} borderWidth="1px" rounded="md" p="3" data-testid="fee-schedule-card">
            <HStack justify="space-between" gap="3" align="flex-start">
              <Text fontWeight="semibold">{businessCell(r.business)}</Text>
              <Text fontSize="sm">From {r.from}</Text>
            </HStack>
            <Stack gap="0" fontSize="sm" color="fg.muted" mt="2">
              <Text>Platform fee: {r.platform}</Text>
              <Text>Processing fee: {r.processing}</Text>
              <Text>Set on {r.setOn}</Text>
            </Stack>
          </Box>
        ))}
      </Stack>
      <Table.ScrollArea hideBelow="md" borderWidth="1px" rounded="md" tabIndex={0} role="region" aria-label="Fee schedules">
        <Table.Root size="sm">
          <TableHead columns={["Business", "From", "Platform fee", "Processing fee", "Set on"]} />
          <Table.Body>
            {rows.map((r) => (
              <Table.Row key={r.id} data-testid="fee-schedule-row">
                <Table.Cell fontWeight="medium">{businessCell(r.business)}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{r.from}</Table.Cell>
                <Table.Cell>{r.platform}</Table.Cell>
                <Table.Cell>{r.processing}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{r.setOn}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    </>
  );
}
