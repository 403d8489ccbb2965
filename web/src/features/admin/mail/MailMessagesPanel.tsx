import { Suspense, useEffect, useRef, useState } from "react";
import { Badge, Button, HStack, NativeSelect, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, readInlineData, usePaginationFragment } from "react-relay";
import { EmptyLine, Panel } from "../../../ui/admin/AdminPage.tsx";
import { TableHead } from "../../../ui/admin/TableHead.tsx";
import { LoadingState } from "../../../ui/StatusStates.tsx";
import { BusinessFilter } from "../BusinessFilter.tsx";
import { ADMIN_PAGE_SIZE, LoadMore } from "../LoadMore.tsx";
import { MailMessageDialog } from "./MailMessageDialog.tsx";
import { MAIL_STATUS, mailTime } from "./mailStatus.ts";
import type { BusinessFilterQuery$data } from "../__generated__/BusinessFilterQuery.graphql.ts";
import type { MailMessagesPanelFragment_message$key } from "./__generated__/MailMessagesPanelFragment_message.graphql.ts";
import type { MailMessagesPanelFragment_query$key } from "./__generated__/MailMessagesPanelFragment_query.graphql.ts";
import type { MailMessagesPanelPaginationQuery, MailStatus } from "./__generated__/MailMessagesPanelPaginationQuery.graphql.ts";

interface MailFilters {
  status: MailStatus | null;
  businessId: number | null;
}

/**
 * The Sent mail list: every message the product sent, queued or kept, newest first, with a status filter and
 * (administrators) a business filter; a row opens the message as it was rendered, with Resend.
 */
export function MailMessagesPanel({ query, businesses }: { query: MailMessagesPanelFragment_query$key; businesses?: BusinessFilterQuery$data }) {
  const [status, setStatus] = useState<MailStatus | "">("");
  const [business, setBusiness] = useState("");
  return (
    <Panel title="Messages">
      <Stack direction={{ base: "column", md: "row" }} gap="3" mb="4">
        <NativeSelect.Root width={{ md: "52" }}>
          <NativeSelect.Field aria-label="Status" value={status} onChange={(e) => setStatus(e.currentTarget.value as MailStatus | "")}>
            <option value="">Any status</option>
            {(["QUEUED", "SENT", "FAILED", "HELD"] as const).map((s) => (
              <option key={s} value={s}>
                {MAIL_STATUS[s].label}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {businesses && <BusinessFilter businesses={businesses} value={business} onChange={setBusiness} width="64" />}
      </Stack>
      <Suspense fallback={<LoadingState label="Loading messages…" />}>
        <MailTable query={query} filters={{ status: status || null, businessId: business ? Number(business) : null }} />
      </Suspense>
    </Panel>
  );
}

/** A message in the list; Resend (MailMessageDialog) returns the copy in this shape, prepended to the list. */
const messageFragment = graphql`
  fragment MailMessagesPanelFragment_message on MailMessage @inline {
    id
    status
    toAddress
    templateName
    subject
    resent
    createdAt
    business {
      name
    }
  }
`;

/** The route's query spreads the unfiltered list; a filter change refetches the fragment with the new filters. */
function MailTable({ query, filters }: { query: MailMessagesPanelFragment_query$key; filters: MailFilters }) {
  const { data, loadNext, hasNext, isLoadingNext, refetch } = usePaginationFragment<MailMessagesPanelPaginationQuery, MailMessagesPanelFragment_query$key>(
    graphql`
      fragment MailMessagesPanelFragment_query on Query
      @refetchable(queryName: "MailMessagesPanelPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }, status: { type: "MailStatus" }, businessId: { type: "Int" }) {
        mailMessages(first: $count, after: $cursor, status: $status, businessId: $businessId) @connection(key: "MailMessagesPanel_mailMessages") {
          __id
          edges {
            node {
              ...MailMessagesPanelFragment_message
            }
          }
        }
      }
    `,
    query,
  );
  const key = JSON.stringify(filters);
  const shown = useRef(key);
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    refetch(JSON.parse(key) as MailFilters, { fetchPolicy: "store-and-network" });
  }, [key, refetch]);
  const [open, setOpen] = useState<string | null>(null);
  const rows = data.mailMessages.edges.map((e) => readInlineData<MailMessagesPanelFragment_message$key>(messageFragment, e.node));
  // A resend lands at the top of an unfiltered list (a filtered one may not hold its status).
  const connections = filters.status === null ? [data.mailMessages.__id] : [];
  return (
    <Stack gap="3">
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Text color="fg.muted" fontSize="sm">
          Newest first. Open a message to see it as the recipient does.
        </Text>
        <Button size="sm" variant="outline" onClick={() => refetch(filters, { fetchPolicy: "network-only" })}>
          Refresh
        </Button>
      </HStack>
      {rows.length === 0 ? (
        <EmptyLine>No messages yet.</EmptyLine>
      ) : (
        <>
          <Stack hideFrom="md" gap="2">
            {rows.map((m) => (
              <Stack key={m.id} data-testid="mail-card" gap="1" p="3" borderWidth="1px" rounded="md">
                <HStack justify="space-between" gap="2">
                  <StatusBadge status={m.status} />
                  <Text fontSize="xs" color="fg.muted">
                    {mailTime(m.createdAt)}
                  </Text>
                </HStack>
                <Text fontWeight="medium">
                  {m.templateName}
                  {m.resent && " (resent)"}
                </Text>
                <Text fontSize="sm">{m.subject}</Text>
                <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
                  To {m.toAddress || "no address"} · {m.business?.name ?? "Platform"}
                </Text>
                <ViewButton message={m} onOpen={setOpen} />
              </Stack>
            ))}
          </Stack>
          <Table.ScrollArea borderWidth="1px" rounded="md" hideBelow="md" tabIndex={0} role="region" aria-label="Sent mail">
            <Table.Root size="sm" striped>
              <TableHead columns={["Status", "Recipient", "Message", "Business", "Created", ""]} />
              <Table.Body>
                {rows.map((m) => (
                  <Table.Row key={m.id} data-testid="mail-row">
                    <Table.Cell>
                      <StatusBadge status={m.status} />
                    </Table.Cell>
                    <Table.Cell wordBreak="break-all">{m.toAddress || <Text as="span" color="fg.muted">no address</Text>}</Table.Cell>
                    <Table.Cell maxW="sm">
                      <Text fontWeight="medium">
                        {m.templateName}
                        {m.resent && (
                          <Badge ms="2" size="sm" variant="outline">
                            Resent
                          </Badge>
                        )}
                      </Text>
                      <Text color="fg.muted" truncate title={m.subject}>
                        {m.subject}
                      </Text>
                    </Table.Cell>
                    <Table.Cell>{m.business?.name ?? "Platform"}</Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{mailTime(m.createdAt)}</Table.Cell>
                    <Table.Cell>
                      <ViewButton message={m} onOpen={setOpen} />
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        </>
      )}
      <LoadMore shown={rows.length} noun={["message", "messages"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
      {open && <MailMessageDialog id={open} connections={connections} onClose={() => setOpen(null)} />}
    </Stack>
  );
}

function StatusBadge({ status }: { status: MailStatus }) {
  const { label, palette } = MAIL_STATUS[status];
  return (
    <Badge colorPalette={palette} whiteSpace="nowrap">
      {label}
    </Badge>
  );
}

function ViewButton({ message, onOpen }: { message: { id: string; templateName: string; toAddress: string }; onOpen: (id: string) => void }) {
  return (
    <Button size="xs" variant="outline" alignSelf="flex-start" onClick={() => onOpen(message.id)} aria-label={`View ${message.templateName} to ${message.toAddress || "no address"}`}>
      View
    </Button>
  );
}
