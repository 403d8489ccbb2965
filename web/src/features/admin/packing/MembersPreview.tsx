import { Badge, Link, Table, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import { formatCents } from "@shared/money.ts";
import { formatDay, formatInstant } from "./format.ts";
import { memberPath } from "../members/memberPath.ts";
import type { MembersPreviewFragment$key } from "./__generated__/MembersPreviewFragment.graphql.ts";

const OUTLOOK_COLORS: Record<string, string> = { PAID: "green", WILL_CHARGE: "blue", RETRY: "yellow", SKIPPED: "gray", REFUNDED: "gray" };

/** Before the freeze: every current membership and where it stands for the month; a name opens the member page. */
export function MembersPreview({ cycle: key, timeZone, businessId }: { cycle: MembersPreviewFragment$key; timeZone: string; businessId: number }) {
  const { members } = useFragment(
    graphql`
      fragment MembersPreviewFragment on FulfilmentCycle {
        members {
          membershipId
          membershipDatabaseId
          memberName
          outlook
          amountCents
          chargeDate
          nextRetryAt
          changeTakesEffect
        }
      }
    `,
    key,
  );
  if (members.length === 0) return <Text color="fg.muted">No members this month.</Text>;
  const words = (m: (typeof members)[number]): string => {
    switch (m.outlook) {
      case "PAID":
        return `Paid ${formatCents(m.amountCents)}`;
      case "WILL_CHARGE":
        return `Will be charged on ${formatDay(m.chargeDate)} for ${formatCents(m.amountCents)}`;
      case "RETRY":
        return `Payment failed: retry on ${formatInstant(m.nextRetryAt, timeZone)} for ${formatCents(m.amountCents)}`;
      case "SKIPPED":
        return "Skipped";
      case "REFUNDED":
        return "Refunded";
      default:
        return m.outlook;
    }
  };
  return (
    <Table.ScrollArea borderWidth="1px" rounded="md">
      <Table.Root size="sm" data-testid="members-preview">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader scope="col">Member</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">Status</Table.ColumnHeader>
            <Table.ColumnHeader scope="col">This month</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {members.map((m) => (
            <Table.Row key={m.membershipId}>
              <Table.Cell>
                <Link asChild color="orange.700">
                  <RouterLink to={memberPath(businessId, m.membershipDatabaseId)}>{m.memberName}</RouterLink>
                </Link>
              </Table.Cell>
              <Table.Cell>
                <Badge colorPalette={OUTLOOK_COLORS[m.outlook] ?? "gray"}>{m.outlook === "WILL_CHARGE" ? "To charge" : m.outlook === "RETRY" ? "Retry" : m.outlook.charAt(0) + m.outlook.slice(1).toLowerCase()}</Badge>
              </Table.Cell>
              <Table.Cell>
                {words(m)}
                {m.changeTakesEffect ? " · scheduled change takes effect" : ""}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
