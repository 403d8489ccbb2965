import { Badge, Box, Button, Code, HStack, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatDate } from "../format.ts";
import type { ApiTokenRowFragment_token$key } from "./__generated__/ApiTokenRowFragment_token.graphql.ts";
import { scopeLabels } from "./scopes.ts";

/** What the revoke dialog needs of a token. */
export interface TokenToRevoke {
  id: string;
  name: string;
}

const dateTimeFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const lastUsed = (iso: string | null) => (iso ? dateTimeFormat.format(new Date(iso)) : "Never");

/** One partner token: name, the first characters of its secret, who made it when, last use and state. */
export function ApiTokenRow({ token: key, layout, onRevoke }: { token: ApiTokenRowFragment_token$key; layout: "table" | "card"; onRevoke: (token: TokenToRevoke) => void }) {
  const token = useFragment(
    graphql`
      fragment ApiTokenRowFragment_token on ApiToken {
        id
        name
        prefix
        createdAt
        lastUsedAt
        revokedAt
        scopes
        createdBy {
          username
        }
      }
    `,
    key,
  );
  const status = token.revokedAt ? (
    <Badge colorPalette="gray">Revoked {formatDate(token.revokedAt)}</Badge>
  ) : (
    <Badge colorPalette="green">Active</Badge>
  );
  const revoke = !token.revokedAt && (
    <Button size="xs" variant="outline" colorPalette="red" onClick={() => onRevoke({ id: token.id, name: token.name })} aria-label={`Revoke ${token.name}`}>
      Revoke
    </Button>
  );
  const prefix = <Code>{token.prefix}…</Code>;
  const scopes = <span title={token.scopes.join(", ")}>{scopeLabels(token.scopes)}</span>;

  if (layout === "card") {
    return (
      <Box borderWidth="1px" rounded="md" p="3" data-testid="api-token-card" opacity={token.revokedAt ? 0.75 : 1}>
        <HStack justify="space-between" align="flex-start" gap="3">
          <Box minW="0">
            <Text fontWeight="semibold" truncate>
              {token.name}
            </Text>
            <Text fontSize="sm">{prefix}</Text>
          </Box>
          {status}
        </HStack>
        <Stack gap="0" fontSize="xs" color="fg.muted" mt="2">
          <Text>
            Created {formatDate(token.createdAt)} by {token.createdBy.username}
          </Text>
          <Text>Last used: {lastUsed(token.lastUsedAt)}</Text>
          <Text>Reads: {scopes}</Text>
        </Stack>
        {revoke && <Box mt="2">{revoke}</Box>}
      </Box>
    );
  }
  return (
    <Table.Row data-testid="api-token-row">
      <Table.Cell fontWeight="medium">{token.name}</Table.Cell>
      <Table.Cell>{prefix}</Table.Cell>
      <Table.Cell>{scopes}</Table.Cell>
      <Table.Cell whiteSpace="nowrap">
        {formatDate(token.createdAt)}
        <Box fontSize="xs" color="fg.muted">
          by {token.createdBy.username}
        </Box>
      </Table.Cell>
      <Table.Cell whiteSpace="nowrap">{lastUsed(token.lastUsedAt)}</Table.Cell>
      <Table.Cell>{status}</Table.Cell>
      <Table.Cell textAlign="end">{revoke}</Table.Cell>
    </Table.Row>
  );
}
