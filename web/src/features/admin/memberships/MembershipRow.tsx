import { Badge, Box, Button, HStack, Link, Table, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import { MODE_NAMES } from "@shared/fulfillment.ts";
import { monthDayOrdinal, monthYear } from "../../../lib/dates.ts";
import { formatDate, statusLabel } from "../format.ts";
import { formatDay } from "../packing/format.ts";
import { memberDisplayName, memberPath } from "../members/memberPath.ts";
import type { MembershipRowFragment_membership$key } from "./__generated__/MembershipRowFragment_membership.graphql.ts";

/** What the cancel dialog names: the membership's node id, number, member and business. */
export interface MembershipToCancel {
  id: string;
  databaseId: number;
  username: string;
  businessName: string;
}

/** A membership's status badge, as the admin lists show it. */
export function MembershipStatusBadge({ status }: { status: string }) {
  return <Badge colorPalette={status === "ACTIVE" ? "green" : status === "CANCELED" ? "gray" : "yellow"}>{statusLabel(status)}</Badge>;
}

/**
 * One membership of the admin list: number, member (full name, username beneath) linking to the member page,
 * business, plan and mode, monthly amount, status (with "Paused until …" and "Ends after …" beneath), next charge,
 * start, and Cancel while it runs.
 */
export function MembershipRow({ membership: key, layout, onCancel }: { membership: MembershipRowFragment_membership$key; layout: "table" | "card"; onCancel: (membership: MembershipToCancel) => void }) {
  const m = useFragment(
    graphql`
      fragment MembershipRowFragment_membership on Membership {
        id
        databaseId
        username
        memberName
        email
        userPublicId
        status
        startedAt
        canceledAt
        planName
        mode
        totalCents
        nextCharge {
          date
        }
        pausedThrough
        resumeDate
        cancelAfterPeriod
        business {
          databaseId
          name
        }
      }
    `,
    key,
  );
  const status = <MembershipStatusBadge status={m.status} />;
  // From the server's dates: the pause's first box after it, as the member's card says, and a cancel the member scheduled.
  const notes = [
    ...(m.pausedThrough && m.resumeDate ? [`Paused until ${monthDayOrdinal(m.resumeDate)}`] : []),
    ...(m.cancelAfterPeriod ? [`Ends after the ${monthYear(m.cancelAfterPeriod)} box`] : []),
  ].map((note) => (
    <Text key={note} fontSize="xs" color="orange.700" data-testid="membership-note">
      {note}
    </Text>
  ));
  const cancel = () => onCancel({ id: m.id, databaseId: m.databaseId, username: m.username, businessName: m.business.name });
  const name = memberDisplayName(m.memberName, m.username);
  const member = (
    <Link asChild color="orange.700" fontWeight="semibold">
      <RouterLink to={memberPath(m.business.databaseId, m.databaseId)}>{name}</RouterLink>
    </Link>
  );
  const modeName = MODE_NAMES[m.mode as keyof typeof MODE_NAMES] ?? m.mode;
  const nextCharge = m.nextCharge ? formatDay(m.nextCharge.date) : "—";

  if (layout === "card") {
    return (
      <Box borderWidth="1px" rounded="md" p="3" data-testid="membership-card">
        <HStack justify="space-between" align="flex-start">
          <Box minW="0">
            <Text>
              <Text as="span" color="fg.muted">
                #{m.databaseId} ·{" "}
              </Text>
              {member}
            </Text>
            {name !== m.username && (
              <Text fontSize="sm" color="fg.muted">
                {m.username}
              </Text>
            )}
            <Text fontSize="sm">
              {m.planName} · {modeName} · {formatCents(m.totalCents)} a month
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {m.business.name}
            </Text>
            <Text fontSize="xs" color="fg.muted">
              Started {formatDate(m.startedAt)}
              {m.canceledAt ? ` · canceled ${formatDate(m.canceledAt)}` : ` · next charge ${nextCharge}`}
            </Text>
            {notes}
          </Box>
          {status}
        </HStack>
        {m.status !== "CANCELED" && (
          <Button mt="2" size="xs" variant="outline" colorPalette="red" onClick={cancel} aria-label={`Cancel membership ${m.databaseId}`}>
            Cancel
          </Button>
        )}
      </Box>
    );
  }
  return (
    <Table.Row data-testid="membership-row">
      <Table.Cell>{m.databaseId}</Table.Cell>
      <Table.Cell minW="8rem" maxW="12rem" whiteSpace="normal">
        <Box>{member}</Box>
        <Box fontSize="xs" color="fg.muted">
          {name !== m.username ? m.username : (m.email ?? m.userPublicId)}
        </Box>
      </Table.Cell>
      <Table.Cell minW="7rem" maxW="9rem" whiteSpace="normal">
        {m.business.name}
      </Table.Cell>
      <Table.Cell minW="7rem" maxW="11rem" whiteSpace="normal">
        <Box>{m.planName}</Box>
        <Box fontSize="xs" color="fg.muted">
          {modeName}
        </Box>
      </Table.Cell>
      <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
        {formatCents(m.totalCents)}
      </Table.Cell>
      <Table.Cell minW="7rem" whiteSpace="normal">
        {status}
        {notes}
      </Table.Cell>
      <Table.Cell whiteSpace="nowrap">{nextCharge}</Table.Cell>
      <Table.Cell whiteSpace="normal">
        <Box whiteSpace="nowrap">{formatDate(m.startedAt)}</Box>
        {m.canceledAt && (
          <Text fontSize="xs" color="fg.muted">
            Canceled {formatDate(m.canceledAt)}
          </Text>
        )}
      </Table.Cell>
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
