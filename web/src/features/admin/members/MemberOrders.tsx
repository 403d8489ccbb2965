import { useState } from "react";
import { Badge, Box, Button, Flex, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { dateTime, monthYear } from "../../../lib/dates.ts";
import { PriceBreakdown } from "../../../ui/PriceBreakdown.tsx";
import { EmptyLine } from "../../../ui/admin/AdminPage.tsx";
import { MailMessageDialog } from "../mail/MailMessageDialog.tsx";
import type { MemberOrdersFragment_membership$data, MemberOrdersFragment_membership$key } from "./__generated__/MemberOrdersFragment_membership.graphql.ts";

const KIND: Record<string, string> = { INITIAL: "New membership", RENEWAL: "Renewal", RESTART: "Restart" };

const ORDER_STATUS: Record<string, { label: string; palette: string } | undefined> = {
  PAID: { label: "Paid", palette: "green" },
  PARTLY_REFUNDED: { label: "Partly refunded", palette: "orange" },
  REFUNDED: { label: "Refunded", palette: "purple" },
};

/** How a payment's state reads to staff (the provider's words are in its API). */
const PAYMENT_STATUS: Record<string, { label: string; palette: string } | undefined> = {
  SUCCEEDED: { label: "Paid", palette: "green" },
  FAILED: { label: "Declined", palette: "red" },
  REQUIRES_ACTION: { label: "Waiting for the member", palette: "yellow" },
  REQUIRES_PAYMENT_METHOD: { label: "Needs a card", palette: "yellow" },
  PROCESSING: { label: "Processing", palette: "blue" },
  CANCELED: { label: "Canceled", palette: "gray" },
};

type Order = MemberOrdersFragment_membership$data["orders"]["edges"][number]["node"];
type Payment = MemberOrdersFragment_membership$data["payments"][number];

/**
 * The membership's orders, newest first, each with its status, what it charged line by line (the server's
 * breakdown), what was refunded and, for readers of the business's mail, its receipt; then every payment tried.
 */
export function MemberOrders({ membership }: { membership: MemberOrdersFragment_membership$key }) {
  const m = useFragment(
    graphql`
      fragment MemberOrdersFragment_membership on Membership {
        orders(first: 24) {
          edges {
            node {
              id
              databaseId
              createdAt
              kind
              period
              status
              totalCents
              refundedCents
              breakdown {
                ...PriceBreakdownFragment_breakdown
              }
              receiptMail {
                id
              }
            }
          }
        }
        payments {
          databaseId
          createdAt
          amountCents
          status
          failureMessage
          refundedCents
          refundReason
          orderDatabaseId
        }
      }
    `,
    membership,
  );
  const [receipt, setReceipt] = useState<string | null>(null);
  const orders = m.orders.edges.map((e) => e.node);
  return (
    <Stack gap="6">
      <Box as="section" aria-labelledby="member-orders">
        <Heading as="h3" size="sm" mb="3" id="member-orders">
          Orders
        </Heading>
        {orders.length === 0 ? (
          <EmptyLine>No orders yet.</EmptyLine>
        ) : (
          <Stack as="ul" listStyleType="none" gap="3">
            {orders.map((o) => (
              <OrderItem key={o.id} order={o} onReceipt={setReceipt} />
            ))}
          </Stack>
        )}
      </Box>
      <Box as="section" aria-labelledby="member-payments">
        <Heading as="h3" size="sm" mb="3" id="member-payments">
          Payments
        </Heading>
        {m.payments.length === 0 ? (
          <EmptyLine>No payments yet.</EmptyLine>
        ) : (
          <Stack as="ul" listStyleType="none" gap="0">
            {m.payments.map((p) => (
              <PaymentItem key={p.databaseId} payment={p} />
            ))}
          </Stack>
        )}
      </Box>
      {receipt && <MailMessageDialog id={receipt} connections={[]} onClose={() => setReceipt(null)} />}
    </Stack>
  );
}

function OrderItem({ order: o, onReceipt }: { order: Order; onReceipt: (id: string) => void }) {
  const [open, setOpen] = useState(false);
  const status = ORDER_STATUS[o.status] ?? { label: o.status, palette: "gray" };
  const details = `member-order-${o.databaseId}`;
  return (
    <Box as="li" borderWidth="1px" rounded="md" p="3" data-testid="member-order">
      <Flex justify="space-between" gap="3" wrap="wrap">
        <Box minW="0">
          <Text fontWeight="semibold">
            Order #{o.databaseId} · {KIND[o.kind] ?? o.kind} for {monthYear(o.period)}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {dateTime(o.createdAt)}
          </Text>
        </Box>
        <Stack gap="0.5" align="flex-end">
          <HStack gap="2">
            <Badge colorPalette={status.palette}>{status.label}</Badge>
            <Text fontWeight="semibold" fontVariantNumeric="tabular-nums">
              {formatCents(o.totalCents)}
            </Text>
          </HStack>
          {o.refundedCents > 0 && (
            <Text fontSize="sm" color="purple.700">
              Refunded {formatCents(o.refundedCents)}
            </Text>
          )}
        </Stack>
      </Flex>
      <HStack gap="2" mt="2" wrap="wrap">
        <Button size="xs" variant="outline" aria-expanded={open} aria-controls={details} onClick={() => setOpen(!open)}>
          {open ? "Hide breakdown" : "Show breakdown"}
        </Button>
        {o.receiptMail && (
          <Button size="xs" variant="outline" onClick={() => onReceipt(o.receiptMail!.id)} aria-label={`View receipt of order ${o.databaseId}`}>
            View receipt
          </Button>
        )}
      </HStack>
      {open && (
        <Box id={details} mt="3" maxW="md">
          <PriceBreakdown breakdown={o.breakdown} totalLabel="Total charged" />
        </Box>
      )}
    </Box>
  );
}

function PaymentItem({ payment: p }: { payment: Payment }) {
  const status = PAYMENT_STATUS[p.status] ?? { label: p.status, palette: "gray" };
  return (
    <Flex as="li" justify="space-between" gap="3" wrap="wrap" py="2" borderTopWidth="1px" borderColor="border.muted" _first={{ borderTopWidth: 0 }} data-testid="member-payment">
      <Box minW="0">
        <Text>{dateTime(p.createdAt)}</Text>
        <Text fontSize="sm" color="fg.muted">
          {p.orderDatabaseId ? `Order #${p.orderDatabaseId}` : "No order"}
          {p.failureMessage ? ` · ${p.failureMessage}` : ""}
          {p.refundReason ? ` · refunded: ${p.refundReason.replaceAll("_", " ")}` : ""}
        </Text>
      </Box>
      <Stack gap="0.5" align="flex-end">
        <HStack gap="2">
          <Badge colorPalette={status.palette}>{status.label}</Badge>
          <Text fontVariantNumeric="tabular-nums">{formatCents(p.amountCents)}</Text>
        </HStack>
        {p.refundedCents > 0 && (
          <Text fontSize="sm" color="purple.700">
            Refunded {formatCents(p.refundedCents)}
          </Text>
        )}
      </Stack>
    </Flex>
  );
}
