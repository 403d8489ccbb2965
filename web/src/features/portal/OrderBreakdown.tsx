import { Suspense, useState } from "react";
import { Button, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery } from "react-relay";
import type { OrderBreakdownQuery } from "./__generated__/OrderBreakdownQuery.graphql.ts";
import { ErrorBoundary } from "../../ui/ErrorBoundary.tsx";
import { PriceBreakdown } from "../../ui/PriceBreakdown.tsx";

/**
 * An expanded order of the Order History: what was charged, line by line, from the order's own stored amounts.
 * Asked for when the member opens the order, so the history's query (fifty orders) stays cheap; an
 * order's lines never change, so it is asked once.
 */
export function OrderBreakdown({ orderId }: { orderId: string }) {
  const [attempt, setAttempt] = useState(0);
  return (
    <ErrorBoundary
      key={attempt}
      fallback={() => (
        <Stack gap="2" align="flex-start" role="alert">
          <Text fontSize="sm" color="red.700">
            The details of this order could not be loaded.
          </Text>
          <Button size="xs" variant="outline" onClick={() => setAttempt((n) => n + 1)}>
            Try Again
          </Button>
        </Stack>
      )}
    >
      <Suspense
        fallback={
          <HStack gap="2" role="status" fontSize="sm" color="fg.muted">
            <Spinner size="sm" />
            <Text>Loading the details…</Text>
          </HStack>
        }
      >
        <Lines orderId={orderId} />
      </Suspense>
    </ErrorBoundary>
  );
}

function Lines({ orderId }: { orderId: string }) {
  const { node } = useLazyLoadQuery<OrderBreakdownQuery>(
    graphql`
      query OrderBreakdownQuery($id: ID!) {
        node(id: $id) {
          __typename
          ... on Order {
            breakdown {
              ...PriceBreakdownFragment_breakdown
            }
          }
        }
      }
    `,
    { id: orderId },
    { fetchPolicy: "store-or-network" },
  );
  if (node?.__typename !== "Order") {
    return (
      <Text fontSize="sm" color="fg.muted">
        This order is no longer available.
      </Text>
    );
  }
  return <PriceBreakdown breakdown={node.breakdown} totalLabel="Total charged" />;
}
