import { Badge, Box, Button, Flex, HStack, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment } from "react-relay";
import type { OrderHistoryFragment_user$data, OrderHistoryFragment_user$key } from "./__generated__/OrderHistoryFragment_user.graphql.ts";
import { dateTime, monthYear } from "../../lib/dates.ts";
import { formatCents } from "@shared/money.ts";
import { fromModeCode, MODE_LABELS } from "@shared/fulfillment.ts";
import { lazyDialog } from "../../ui/lazyDialog.tsx";
import { OrderBreakdown } from "./OrderBreakdown.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";

// Neither an order's lines nor its receipt email are part of the history's query (fifty orders): the expanded
// order and the receipt dialog ask for them when they open.
const ReceiptDialog = lazyDialog(() => import("./ReceiptDialog.tsx").then((m) => m.ReceiptDialog));

const OrderHistoryFragment = graphql`
  fragment OrderHistoryFragment_user on User {
    orders(first: 50) {
      edges {
        node {
          id
          databaseId
          createdAt
          kind
          period
          planName
          mode
          status
          totalCents
          refundedCents
          business {
            name
          }
          addons {
            name
          }
        }
      }
    }
  }
`;

const KIND: Record<string, string> = { INITIAL: "New membership", RENEWAL: "Renewal", RESTART: "Restart" };

const STATUS: Record<string, { label: string; palette: string } | undefined> = {
  PAID: { label: "Paid", palette: "green" },
  PARTLY_REFUNDED: { label: "Partly refunded", palette: "orange" },
  REFUNDED: { label: "Refunded", palette: "purple" },
};

type Order = OrderHistoryFragment_user$data["orders"]["edges"][number]["node"];

/** Order History tab: newest first; each order opens to its price line by line and its receipt email. */
export function OrderHistory({ user, highlightOrderId }: { user: OrderHistoryFragment_user$key; highlightOrderId: number | null }) {
  const { orders } = useFragment(OrderHistoryFragment, user);
  if (orders.edges.length === 0) return <EmptyMessage title="No orders yet." />;
  return (
    <Stack gap="3" as="ul" listStyleType="none">
      {orders.edges.map(({ node: o }) => (
        <OrderRow key={o.id} order={o} highlighted={o.databaseId === highlightOrderId} />
      ))}
    </Stack>
  );
}

function OrderRow({ order: o, highlighted }: { order: Order; highlighted: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const [receiptOpen, setReceiptOpen] = useState(false);
  const status = STATUS[o.status] ?? { label: o.status, palette: "gray" };
  const detailsId = `order-${o.databaseId}-details`;
  return (
    <Box as="li" p="4" rounded="lg" bg="bg" borderWidth={highlighted ? "2px" : "1px"} borderColor={highlighted ? "green.400" : undefined} data-testid="order-row">
      <Flex justify="space-between" gap="3" wrap="wrap">
        <Stack gap="0.5" minW="0" flex="1 1 14rem">
          <Text fontWeight="semibold">
            Order #{o.databaseId} · {o.business.name}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {dateTime(o.createdAt)} · {KIND[o.kind] ?? o.kind} for {monthYear(o.period)}
          </Text>
          <Text fontSize="sm">
            {o.planName ?? "Package"} · {MODE_LABELS[fromModeCode(o.mode)]}
            {o.addons.length > 0 ? ` + ${o.addons.map((a) => a.name).join(", ")}` : ""}
          </Text>
        </Stack>
        <Stack gap="1" align="flex-end">
          <Text fontWeight="bold">{formatCents(o.totalCents)}</Text>
          <Badge colorPalette={status.palette} data-testid="order-status">
            {status.label}
          </Badge>
          {o.refundedCents > 0 && (
            <Text fontSize="xs" color="fg.muted">
              {formatCents(o.refundedCents)} refunded
            </Text>
          )}
        </Stack>
      </Flex>
      <HStack gap="2" mt="3" wrap="wrap">
        <Button size="xs" variant="outline" aria-label={`${expanded ? "Hide" : "Show"} details of order #${o.databaseId}`} aria-expanded={expanded} aria-controls={detailsId} onClick={() => setExpanded((x) => !x)}>
          {expanded ? "Hide details" : "Show details"}
        </Button>
        <Button size="xs" variant="outline" aria-label={`View receipt of order #${o.databaseId}`} onClick={() => setReceiptOpen(true)}>
          View receipt
        </Button>
      </HStack>
      <Box id={detailsId} hidden={!expanded} mt="3" maxW="md">
        {expanded && <OrderBreakdown orderId={o.id} />}
      </Box>
      <ReceiptDialog open={receiptOpen} orderId={o.id} orderNumber={o.databaseId} onClose={() => setReceiptOpen(false)} />
    </Box>
  );
}
