import { Suspense, useEffect, useState } from "react";
import { Box, Button, chakra, CloseButton, Dialog, Portal, Stack, Text } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery } from "react-relay";
import type { ReceiptDialogQuery } from "./__generated__/ReceiptDialogQuery.graphql.ts";
import { dateTime } from "../../lib/dates.ts";
import { ErrorBoundary } from "../../ui/ErrorBoundary.tsx";
import { LoadingState } from "../../ui/StatusStates.tsx";

/** The receipt is written a few seconds after the payment (the mail queue): asked again this often while missing… */
const RECEIPT_POLL_MS = 4000;
/** …for about a minute, then the member can ask again. */
const RECEIPT_POLLS = 15;

/**
 * Order History's "View receipt": the receipt email stored for the order, as it was sent, asked for only when the
 * dialog opens (the history's query carries no email). Its HTML is a whole email document, shown in a sandboxed
 * frame (no scripts, forms or same-origin access; its links do not navigate the portal).
 */
export function ReceiptDialog({ open, orderId, orderNumber, onClose }: { open: boolean; orderId: string; orderNumber: number; onClose: () => void }) {
  const [attempt, setAttempt] = useState(0);
  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onClose()} size="lg" placement="center" scrollBehavior="inside" lazyMount unmountOnExit>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="3">
          <Dialog.Content data-testid="receipt-dialog">
            {/* Mounted while open (and through the closing animation): the receipt is asked for each time it opens. */}
            <ErrorBoundary
              key={attempt}
              fallback={() => (
                <ReceiptFrame title={`Receipt for order #${orderNumber}`}>
                  <Stack gap="3" align="flex-start" role="alert">
                    <Text color="red.700">Your receipt could not be loaded.</Text>
                    <Button size="sm" variant="outline" onClick={() => setAttempt((n) => n + 1)}>
                      Try Again
                    </Button>
                  </Stack>
                </ReceiptFrame>
              )}
            >
              <Suspense
                fallback={
                  <ReceiptFrame title={`Receipt for order #${orderNumber}`}>
                    <LoadingState label="Loading your receipt…" />
                  </ReceiptFrame>
                }
              >
                <ReceiptView orderId={orderId} orderNumber={orderNumber} />
              </Suspense>
            </ErrorBoundary>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">Close</Button>
              </Dialog.ActionTrigger>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function ReceiptFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <Dialog.Header>
        <Dialog.Title pe="8">{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>{children}</Dialog.Body>
    </>
  );
}

function ReceiptView({ orderId, orderNumber }: { orderId: string; orderNumber: number }) {
  const [poll, setPoll] = useState(0);
  const [pollLimit, setPollLimit] = useState(RECEIPT_POLLS);
  const { node } = useLazyLoadQuery<ReceiptDialogQuery>(
    graphql`
      query ReceiptDialogQuery($id: ID!) {
        node(id: $id) {
          __typename
          ... on Order {
            receipt {
              subject
              html
              text
              toAddress
              status
              createdAt
              sentAt
            }
          }
        }
      }
    `,
    { id: orderId },
    // Opened again, the receipt shown before stays while it is asked again.
    { fetchPolicy: "store-and-network", fetchKey: poll },
  );
  const receipt = node?.__typename === "Order" ? node.receipt : null;
  const waiting = !receipt && poll < pollLimit;
  useEffect(() => {
    if (!waiting) return;
    const t = setTimeout(() => setPoll((n) => n + 1), RECEIPT_POLL_MS);
    return () => clearTimeout(t);
  }, [waiting, poll]);

  if (!receipt) {
    return (
      <ReceiptFrame title={`Receipt for order #${orderNumber}`}>
        <Stack gap="3" align="flex-start" role="status" data-testid="receipt-pending">
          <Text>Your receipt is on its way.</Text>
          <Text fontSize="sm" color="fg.muted">
            It is written a few moments after the payment and will show here once it is ready.
          </Text>
          {!waiting && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setPollLimit(poll + 1 + RECEIPT_POLLS);
                setPoll(poll + 1);
              }}
            >
              Check again
            </Button>
          )}
        </Stack>
      </ReceiptFrame>
    );
  }
  return (
    <ReceiptFrame title={receipt.subject}>
      <Stack gap="3">
        <Box as="dl" fontSize="sm" display="grid" gridTemplateColumns="max-content 1fr" columnGap="3" rowGap="1">
          <Text as="dt" color="fg.muted">
            To
          </Text>
          <Text as="dd" wordBreak="break-all">
            {receipt.toAddress || "(no address)"}
          </Text>
          <Text as="dt" color="fg.muted">
            {receipt.sentAt ? "Sent" : "Written"}
          </Text>
          <Text as="dd">{dateTime(receipt.sentAt ?? receipt.createdAt)}</Text>
        </Box>
        {receipt.status === "FAILED" && (
          <Text fontSize="sm" color="orange.800" role="note">
            This email could not be delivered; this is the receipt as it was written.
          </Text>
        )}
        {/* sandbox="": no scripts, forms or same-origin access; links in it do not navigate the portal. */}
        <chakra.iframe
          srcDoc={receipt.html}
          sandbox=""
          title={`Receipt email: ${receipt.subject}`}
          data-testid="receipt-frame"
          w="full"
          h="min(60vh, 560px)"
          borderWidth="1px"
          rounded="md"
          bg="white"
        />
        <Box as="details" fontSize="sm">
          <Box as="summary" cursor="pointer" color="fg.muted">
            Plain-text version
          </Box>
          <Box as="pre" whiteSpace="pre-wrap" wordBreak="break-word" mt="2" p="3" rounded="md" bg="bg.muted" fontFamily="inherit">
            {receipt.text}
          </Box>
        </Box>
      </Stack>
    </ReceiptFrame>
  );
}
