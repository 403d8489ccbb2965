import { useState } from "react";
import { Badge, Box, Button, HStack, Heading, Link, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, usePaginationFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import { MODE_NAMES } from "@shared/fulfillment.ts";
import { CsvDownloadButton } from "../../../ui/admin/CsvDownloadButton.tsx";
import { LoadMore } from "../LoadMore.tsx";
import { memberPath } from "../members/memberPath.ts";
import { formatMonth, HOLD_LABEL } from "./format.ts";
import { packingCsvPath, type PackingMode } from "./packingCsv.ts";
import { PRINT_CSS } from "./printStyles.ts";
import type { PackingListsFragment_query$key } from "./__generated__/PackingListsFragment_query.graphql.ts";
import type { PackingListsPaginationQuery } from "./__generated__/PackingListsPaginationQuery.graphql.ts";

/** Boxes per request: the GraphQL cost limit counts each box's fields once per box asked for. */
const PACKING_PAGE_SIZE = 40;

interface Address {
  fullName?: string;
  phone?: string;
  street?: string;
  apt?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
  instructions?: string;
}

interface PackingBox {
  membershipId: string;
  membershipDatabaseId: number;
  memberName: string;
  email: string;
  phone: string;
  planName: string;
  mode: string;
  fulfillmentPoint: string;
  addons: readonly { name: string }[];
  address: unknown;
  isGift: boolean;
  giftRecipient: string;
  giftMessage: string;
  hold: string | null | undefined;
}

const addressOf = (box: PackingBox): Address => (box.address && typeof box.address === "object" ? box.address : {});
const addressLines = (a: Address): string[] =>
  [[a.street, a.apt].filter(Boolean).join(", "), [a.city, [a.state, a.zip].filter(Boolean).join(" ")].filter(Boolean).join(", "), a.country ?? ""].filter(
    Boolean,
  );

/** The lists in print order; each list's boxes come in the server's packing order (point alphabetical, member name). */
const LISTS: {
  mode: "PICKUP" | "DELIVERY" | "SHIPPING";
  csv: PackingMode;
  title: string;
  group: string;
}[] = [
  { mode: "PICKUP", csv: "pickup", title: "Pickup", group: "Pickup point" },
  {
    mode: "DELIVERY",
    csv: "delivery",
    title: "Delivery",
    group: "Delivery area",
  },
  { mode: "SHIPPING", csv: "shipping", title: "Shipping", group: "" },
];

function groupsOf(boxes: PackingBox[]): [string, PackingBox[]][] {
  const groups = new Map<string, PackingBox[]>();
  for (const b of boxes) groups.set(b.fulfillmentPoint, [...(groups.get(b.fulfillmentPoint) ?? []), b]);
  return [...groups];
}

/** A box's member, opening their member page (on paper, just the name). */
function MemberName({ box, businessId }: { box: PackingBox; businessId: number }) {
  return (
    <Link asChild color="orange.700" className="member-link">
      <RouterLink to={memberPath(businessId, box.membershipDatabaseId)}>{box.memberName}</RouterLink>
    </Link>
  );
}

/** Plan, add-ons, gift and hold of a box, as every list and slip shows them. */
function BoxContents({ box }: { box: PackingBox }) {
  return (
    <Stack gap="0.5">
      <Text fontWeight="medium">
        {box.planName} · {MODE_NAMES[box.mode as keyof typeof MODE_NAMES] ?? box.mode}
      </Text>
      {box.addons.length > 0 && <Text fontSize="sm">Add-ons: {box.addons.map((a) => a.name).join(", ")}</Text>}
      {box.isGift && (
        <Text fontSize="sm" fontWeight="medium" color="purple.700">
          Gift for {box.giftRecipient}
          {box.giftMessage ? `: “${box.giftMessage}”` : ""}
        </Text>
      )}
      {box.hold === "payment_failed" && (
        <Badge colorPalette="red" alignSelf="flex-start">
          {HOLD_LABEL}
        </Badge>
      )}
    </Stack>
  );
}

/** Where a box goes, as a delivery or shipping list shows it. */
function Destination({ mode, box }: { mode: (typeof LISTS)[number]["mode"]; box: PackingBox }) {
  const a = addressOf(box);
  return (
    <>
      {mode === "SHIPPING" && a.fullName && <Text fontWeight="medium">{a.fullName}</Text>}
      {addressLines(a).map((line) => (
        <Text key={line}>{line}</Text>
      ))}
      {a.instructions && (
        <Text fontSize="sm" fontStyle="italic">
          Instructions: {a.instructions}
        </Text>
      )}
    </>
  );
}

/** A list on a phone: a card per box (the table on wider screens and on paper). */
function PackingCards({ mode, boxes, businessId }: { mode: (typeof LISTS)[number]["mode"]; boxes: PackingBox[]; businessId: number }) {
  return (
    <Stack as="ul" className="packing-cards" gap="2" listStyleType="none">
      {boxes.map((b) => (
        <Box as="li" key={b.membershipId} borderWidth="1px" rounded="md" p="3">
          <HStack align="flex-start" gap="2">
            {mode === "PICKUP" && (
              <Text fontSize="lg" lineHeight="1.2" aria-hidden="true">
                ☐
              </Text>
            )}
            <Stack gap="1" minW="0">
              <Text fontWeight="semibold">
                <MemberName box={b} businessId={businessId} />
              </Text>
              <BoxContents box={b} />
              {mode !== "PICKUP" && <Destination mode={mode} box={b} />}
              <Text fontSize="sm" color="fg.muted">
                {[b.phone, b.email].filter(Boolean).join(" · ")}
              </Text>
            </Stack>
          </HStack>
        </Box>
      ))}
    </Stack>
  );
}

function PackingTable({ mode, boxes, businessId }: { mode: (typeof LISTS)[number]["mode"]; boxes: PackingBox[]; businessId: number }) {
  return (
    <>
      <PackingCards mode={mode} boxes={boxes} businessId={businessId} />
      <PackingRows mode={mode} boxes={boxes} businessId={businessId} />
    </>
  );
}

function PackingRows({ mode, boxes, businessId }: { mode: (typeof LISTS)[number]["mode"]; boxes: PackingBox[]; businessId: number }) {
  return (
    <Table.ScrollArea className="packing-table" borderWidth="1px" rounded="md">
      <Table.Root size="sm">
        <Table.Header>
          <Table.Row>
            {mode === "PICKUP" && (
              <Table.ColumnHeader scope="col" w="10">
                <span aria-hidden="true">☐</span>
                <Box as="span" srOnly>
                  Packed
                </Box>
              </Table.ColumnHeader>
            )}
            <Table.ColumnHeader scope="col">Member</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">Box</Table.ColumnHeader>
            {mode !== "PICKUP" && <Table.ColumnHeader scope="col">{mode === "SHIPPING" ? "Ship to" : "Deliver to"}</Table.ColumnHeader>}
            <Table.ColumnHeader scope="col">Phone</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {boxes.map((b) => (
            <Table.Row key={b.membershipId} className="packing-row" data-testid="packing-row">
              {mode === "PICKUP" && (
                <Table.Cell fontSize="lg" aria-label="Not packed yet">
                  ☐
                </Table.Cell>
              )}
              <Table.Cell>
                <Text fontWeight="medium">
                  <MemberName box={b} businessId={businessId} />
                </Text>
                <Text fontSize="xs" color="fg.muted">
                  {b.email}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <BoxContents box={b} />
              </Table.Cell>
              {mode !== "PICKUP" && (
                <Table.Cell>
                  <Destination mode={mode} box={b} />
                </Table.Cell>
              )}
              <Table.Cell whiteSpace="nowrap">{b.phone}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/**
 * The month's three packing lists (pickup by point, delivery by area, shipping), each with its CSV download, and
 * the printable view: the lists, or one packing slip per box ("Packing slips").
 */
export function PackingLists({ query, businessId, businessName }: { query: PackingListsFragment_query$key; businessId: number; businessName: string }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment<PackingListsPaginationQuery, PackingListsFragment_query$key>(
    graphql`
      fragment PackingListsFragment_query on Query
      @refetchable(queryName: "PackingListsPaginationQuery")
      @argumentDefinitions(id: { type: "Int!" }, month: { type: "String" }, count: { type: "Int", defaultValue: 40 }, cursor: { type: "String" }) {
        adminBusiness(id: $id) {
          fulfilment(month: $month) {
            month
            boxes(first: $count, after: $cursor) @connection(key: "PackingLists_boxes") {
              edges {
                node {
                  membershipId
                  membershipDatabaseId
                  memberName
                  email
                  phone
                  planName
                  mode
                  fulfillmentPoint
                  addons {
                    name
                  }
                  address
                  isGift
                  giftRecipient
                  giftMessage
                  hold
                }
              }
            }
          }
        }
      }
    `,
    query,
  );
  const [printMode, setPrintMode] = useState<"lists" | "slips">("lists");
  const cycle = data.adminBusiness?.fulfilment;
  if (!cycle) return null;
  const boxes: PackingBox[] = cycle.boxes.edges.map((e) => e.node);
  const month = cycle.month;
  return (
    <Box className="packing-root" data-print-mode={printMode}>
      <style>{PRINT_CSS}</style>
      <HStack className="no-print" gap="3" wrap="wrap" mb="4" justify="space-between">
        <HStack gap="2" role="group" aria-label="Print view">
          <Button size="sm" variant={printMode === "lists" ? "solid" : "outline"} aria-pressed={printMode === "lists"} onClick={() => setPrintMode("lists")}>
            Lists
          </Button>
          <Button size="sm" variant={printMode === "slips" ? "solid" : "outline"} aria-pressed={printMode === "slips"} onClick={() => setPrintMode("slips")}>
            Packing slips
          </Button>
          <Button size="sm" colorPalette="orange" onClick={() => window.print()}>
            Print
          </Button>
        </HStack>
        <HStack gap="2">
          <CsvDownloadButton path={packingCsvPath(businessId, month, null)} filename="packing.csv" label="Download CSV: all lists" />
        </HStack>
      </HStack>

      {boxes.length === 0 ? (
        <Text color="fg.muted" py="6" textAlign="center">
          No boxes this month.
        </Text>
      ) : (
        <Stack className="packing-lists" gap="8">
          {LISTS.map((list) => {
            const ofMode = boxes.filter((b) => b.mode === list.mode);
            return (
              <Box as="section" key={list.mode} className="packing-section" data-empty={ofMode.length === 0 || undefined} aria-labelledby={`packing-${list.csv}`}>
                <HStack justify="space-between" mb="3" gap="3" wrap="wrap">
                  <Heading as="h3" size="md" id={`packing-${list.csv}`}>
                    {list.title} ({ofMode.length})
                  </Heading>
                  <HStack className="no-print" gap="2">
                    <CsvDownloadButton path={packingCsvPath(businessId, month, list.csv)} filename="packing.csv" label={`Download CSV: ${list.title}`} />
                  </HStack>
                </HStack>
                {ofMode.length === 0 ? (
                  <Text color="fg.muted">No {list.title.toLowerCase()} boxes this month.</Text>
                ) : list.mode === "SHIPPING" ? (
                  <PackingTable mode={list.mode} boxes={ofMode} businessId={businessId} />
                ) : (
                  <Stack gap="5">
                    {groupsOf(ofMode).map(([point, group]) => (
                      <Box key={point} className="packing-group">
                        <Heading as="h4" size="sm" mb="2">
                          {list.group}: {point || "—"} ({group.length})
                        </Heading>
                        <PackingTable mode={list.mode} boxes={group} businessId={businessId} />
                      </Box>
                    ))}
                  </Stack>
                )}
              </Box>
            );
          })}
        </Stack>
      )}

      <Box className="packing-slips">
        {boxes.map((b) => {
          const a = addressOf(b);
          return (
            <Box key={b.membershipId} className="packing-slip" data-testid="packing-slip">
              <Text fontSize="sm">
                {businessName} · Box for {formatMonth(month)}
              </Text>
              <Text fontSize="2xl" fontWeight="bold">
                <MemberName box={b} businessId={businessId} />
              </Text>
              <Text>
                {MODE_NAMES[b.mode as keyof typeof MODE_NAMES] ?? b.mode}
                {b.fulfillmentPoint ? `: ${b.fulfillmentPoint}` : ""}
              </Text>
              <Box my="3">
                <BoxContents box={b} />
              </Box>
              {b.mode !== "PICKUP" && addressLines(a).map((line) => <Text key={line}>{line}</Text>)}
              {b.mode !== "PICKUP" && a.instructions && <Text fontStyle="italic">Instructions: {a.instructions}</Text>}
              <Text>{b.phone}</Text>
            </Box>
          );
        })}
      </Box>

      <Box className="no-print" mt="4">
        <LoadMore shown={boxes.length} noun={["box", "boxes"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(PACKING_PAGE_SIZE)} />
      </Box>
    </Box>
  );
}
