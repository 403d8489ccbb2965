import { Fragment, Suspense, useState } from "react";
import { Badge, Box, Button, Dialog, Grid, HStack, Tabs, Text } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery, useMutation } from "react-relay";
import { AdminDialog } from "../../../ui/admin/AdminDialog.tsx";
import { FormError, FormResult } from "../../../ui/FormError.tsx";
import { LoadingState } from "../../../ui/StatusStates.tsx";
import { resultError } from "../mutationResult.ts";
import { MAIL_STATUS, mailTime } from "./mailStatus.ts";
import type { MailMessageDialogQuery } from "./__generated__/MailMessageDialogQuery.graphql.ts";
import type { MailMessageDialogResendMutation } from "./__generated__/MailMessageDialogResendMutation.graphql.ts";

/**
 * One message of the Sent mail page as it was rendered: its headers, delivery state and last error, the HTML
 * part in a sandboxed frame (no scripts, no same-origin access: it is the product's own template, but it holds
 * member-typed text) and the plain-text part; Resend sends it again as a new message.
 */
export function MailMessageDialog({ id, connections, onClose }: { id: string; connections: string[]; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <AdminDialog size="xl" busy={busy} onClose={onClose}>
      <Suspense
        fallback={
          <Dialog.Body pt="6">
            <LoadingState label="Loading message…" />
          </Dialog.Body>
        }
      >
        <MessageView id={id} connections={connections} onBusy={setBusy} />
      </Suspense>
    </AdminDialog>
  );
}

function MessageView({ id, connections, onBusy }: { id: string; connections: string[]; onBusy: (busy: boolean) => void }) {
  const { node: message } = useLazyLoadQuery<MailMessageDialogQuery>(
    graphql`
      query MailMessageDialogQuery($id: ID!) {
        node(id: $id) {
          ... on MailMessage {
            __typename
            id
            subject
            templateName
            fromName
            toAddress
            replyTo
            messageId
            status
            attempts
            lastError
            html
            text
            resent
            createdAt
            sentAt
            business {
              name
            }
          }
        }
      }
    `,
    { id },
    { fetchPolicy: "store-or-network" },
  );
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [commit, busy] = useMutation<MailMessageDialogResendMutation>(graphql`
    mutation MailMessageDialogResendMutation($id: ID!, $connections: [ID!]!) {
      resendMailMessage(id: $id) {
        __typename
        ... on ResendMailMessageSuccess {
          data @prependNode(connections: $connections, edgeTypeName: "QueryMailMessagesConnectionEdge") {
            ...MailMessagesPanelFragment_message
            status
            toAddress
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  if (message?.__typename !== "MailMessage") {
    return (
      <Dialog.Body pt="6">
        <FormError>This message is gone or you may not read it.</FormError>
      </Dialog.Body>
    );
  }
  const status = MAIL_STATUS[message.status];
  const resend = () => {
    setResult(null);
    onBusy(true);
    commit({
      variables: { id: message.id, connections },
      onCompleted: ({ resendMailMessage }) => {
        onBusy(false);
        const failure = resultError(resendMailMessage, "Resend failed");
        const copy = resendMailMessage.data;
        if (failure || !copy) return setResult({ ok: false, text: failure ?? "Resend failed" });
        setResult({ ok: true, text: `Resent to ${copy.toAddress} as a new message (${MAIL_STATUS[copy.status].label.toLowerCase()}).` });
      },
      onError: (e) => {
        onBusy(false);
        setResult({ ok: false, text: e.message || "Resend failed" });
      },
    });
  };
  const headers: [string, string][] = [
    ["Subject", message.subject],
    ["From", message.fromName],
    ["To", message.toAddress || "(no address)"],
    ["Reply-To", message.replyTo || "(none)"],
    ["Message-ID", message.messageId],
    ["Business", message.business?.name ?? "Platform"],
    ["Created", mailTime(message.createdAt)],
    ["Sent", message.sentAt ? mailTime(message.sentAt) : "not yet"],
    ["Attempts", String(message.attempts)],
  ];
  return (
    <>
      <Dialog.Header>
        <Dialog.Title pe="8">
          {message.templateName}
          {message.resent ? " (resent copy)" : ""}
        </Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <HStack mb="3" gap="2">
          <Badge colorPalette={status.palette}>{status.label}</Badge>
        </HStack>
        <Grid as="dl" templateColumns={{ base: "1fr", sm: "max-content 1fr" }} columnGap="4" rowGap={{ base: "0", sm: "1" }} mb="4" fontSize="sm">
          {headers.map(([label, value]) => (
            <Fragment key={label}>
              <Text as="dt" color="fg.muted" mt={{ base: "2", sm: "0" }}>
                {label}
              </Text>
              <Text as="dd" wordBreak="break-all">
                {value}
              </Text>
            </Fragment>
          ))}
        </Grid>
        {message.lastError && (
          <Box role="note" aria-label="Last error" mb="4" p="3" rounded="md" bg="red.50" borderWidth="1px" borderColor="red.200" color="red.800" fontSize="sm">
            <Text fontWeight="semibold">Last error</Text>
            <Text wordBreak="break-word">{message.lastError}</Text>
          </Box>
        )}
        <Tabs.Root defaultValue="html" variant="line" lazyMount>
          <Tabs.List>
            <Tabs.Trigger value="html">HTML</Tabs.Trigger>
            <Tabs.Trigger value="text">Plain text</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="html">
            {/* sandbox="": no scripts, forms or same-origin access; links in it do not navigate this page. */}
            <iframe srcDoc={message.html} sandbox="" title={`Rendered email: ${message.subject}`} style={{ width: "100%", height: "480px", border: "1px solid var(--chakra-colors-border)", borderRadius: "6px", background: "white" }} />
          </Tabs.Content>
          <Tabs.Content value="text">
            <Box as="pre" aria-label="Plain-text part" whiteSpace="pre-wrap" wordBreak="break-word" fontSize="sm" p="3" rounded="md" bg="bg.muted" maxH="480px" overflowY="auto">
              {message.text}
            </Box>
          </Tabs.Content>
        </Tabs.Root>
      </Dialog.Body>
      <Dialog.Footer flexWrap="wrap" gap="3">
        <FormResult result={result} me="auto" />
        <Button colorPalette="orange" onClick={resend} loading={busy} loadingText="Resending…" disabled={!message.toAddress}>
          Resend
        </Button>
      </Dialog.Footer>
    </>
  );
}
