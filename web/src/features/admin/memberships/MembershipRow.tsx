import { Badge, Box, Button, HStack, Table, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatDate, statusLabel } from "../format.ts";
import type { MembershipRowFragment_membership$key } from "./__generated__/MembershipRowFragment_membership.graphql.ts";

/** What the cancel dialog names: the membership's node id, number, member and business. */
export interface MembershipToCancel {
  id: string;
  databaseId: number;
  username: string;
  businessName: string;
}

/** One membership of the admin list: number, member, business, plan, status, dates, and Cancel while it runs. */
export function MembershipRow({ membership: key, layout, onCancel }: { membership: MembershipRowFragment_membership$key; layout: "table" | "card"; onCancel: (membership: MembershipToCancel) => void }) {
  const m = useFragment(
    graphql`
      fragment MembershipRowFragment_membership on Membership {
        id
        databaseId
        username
        email
        userPublicId
        status
        startedAt
        canceledAt
        planName
        business {
          name
        }
      }
    `,
    key,
  );
  const status = <Badge colorPalette={m.status === "ACTIVE" ? "green" : m.status === "CANCELED" ? "gray" : "yellow"}>{statusLabel(m.status)}</Badge>;
  const cancel = () => onCancel({ id: m.id, databaseId: m.databaseId, username: m.username, businessName: m.business.name });

  if (layout === "card") {
    return (
      <Box borderWidth="1px" rounded="md" p="3" data-testid="membership-card">
        <HStack justify="space-between" align="flex-start">
          <Box minW="0">
            <Text fontWeight="semibold">
              #{m.databaseId} · {m.username}
            </Text>
            <Text fontSize="sm" color="fg.muted" truncate>
              {m.business.name} · {m.planName}
            </Text>
            <Text fontSize="xs" color="fg.muted">
              Started {formatDate(m.startedAt)}
              {m.canceledAt ? ` · canceled ${formatDate(m.canceledAt)}` : ""}
            </Text>
          </Box>
          {status}
        </HStack>
        {m.status !== "CANCELED" && (
          <Button mt="2" size="xs" variant="outline" colorPalette="red" onClick={cancel}>
            Cancel
          </Button>
        )}
      </Box>
    );
  }
  return (
    <Table.Row data-testid="membership-row">
      <Table.Cell>{m.databaseId}</Table.Cell>
      <Table.Cell>
        <Box>{m.username}</Box>
        <Box fontSize="xs" color="fg.muted">
          {m.email ?? m.userPublicId}
        </Box>
      </Table.Cell>
      <Table.Cell>{m.business.name}</Table.Cell>
      <Table.Cell>{m.planName}</Table.Cell>
      <Table.Cell>{status}</Table.Cell>
      <Table.Cell whiteSpace="nowrap">{formatDate(m.startedAt)}</Table.Cell>
      <Table.Cell whiteSpace="nowrap">{formatDate(m.canceledAt)}</Table.Cell>
      <Table.Cell textAlign="end">
        {m.status !== "CANCELED" && (
          <Button size="xs" variant="outline" colorPalette="red" onClick={cancel} aria-label={`Cancel membership ${m.databaseId}`}>
            Cancel
          </Button>
        )}
      </Table.Cell>
    </Table.Row>
  );
}
