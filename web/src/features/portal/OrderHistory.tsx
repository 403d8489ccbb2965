import { Badge, Box, Flex, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import type { OrderHistoryFragment_user$key } from "./__generated__/OrderHistoryFragment_user.graphql.ts";
import { dateTime } from "../../lib/dates.ts";
import { formatCents } from "@shared/money.ts";
import { fromModeCode, MODE_LABELS } from "@shared/fulfillment.ts";
import { EmptyMessage } from "../../ui/StatusStates.tsx";

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

/** Order History tab: newest first. */
export function OrderHistory({ user, highlightOrderId }: { user: OrderHistoryFragment_user$key; highlightOrderId: number | null }) {
  const { orders } = useFragment(OrderHistoryFragment, user);
  if (orders.edges.length === 0) return <EmptyMessage title="No orders yet." />;
  return (
    <Stack gap="3" as="ul" listStyleType="none">
      {orders.edges.map(({ node: o }) => (
        <Box as="li" key={o.id} p="4" rounded="lg" bg="bg" borderWidth={o.databaseId === highlightOrderId ? "2px" : "1px"} borderColor={o.databaseId === highlightOrderId ? "green.400" : undefined} data-testid="order-row">
          <Flex justify="space-between" gap="3" wrap="wrap">
            <Stack gap="0.5">
              <Text fontWeight="semibold">
                Order #{o.databaseId} · {o.business.name}
              </Text>
              <Text fontSize="sm" color="fg.muted">
                {dateTime(o.createdAt)} · {KIND[o.kind] ?? o.kind} for {o.period}
              </Text>
              <Text fontSize="sm">
                {o.planName ?? "Package"} · {MODE_LABELS[fromModeCode(o.mode)]}
                {o.addons.length > 0 ? ` + ${o.addons.map((a) => a.name).join(", ")}` : ""}
              </Text>
            </Stack>
            <Stack gap="1" align="flex-end">
              <Text fontWeight="bold">{formatCents(o.totalCents)}</Text>
              {o.refundedCents > 0 && (
                <Badge colorPalette="purple">Refunded {formatCents(o.refundedCents)}</Badge>
              )}
            </Stack>
          </Flex>
        </Box>
      ))}
    </Stack>
  );
}
