import { Box, Flex, Link, List, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import { monthYear } from "../../../lib/dates.ts";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { formatDay } from "../packing/format.ts";
import type { PastDuePanelFragment$key } from "./__generated__/PastDuePanelFragment.graphql.ts";

/**
 * The business's past-due memberships (docs/admin.md, Business dashboard): each member's full name (the username
 * beneath), linking to the member's page, the month it owes and when its charge is tried again. Nothing when nobody is.
 */
export function PastDuePanel({ metrics, businessId }: { metrics: PastDuePanelFragment$key; businessId: number }) {
  const data = useFragment(
    graphql`
      fragment PastDuePanelFragment on BusinessMetrics {
        pastDue {
          total
          memberships {
            membershipId
            fullName
            username
            owedPeriod
            attempts
            nextRetryDate
          }
        }
      }
    `,
    metrics,
  );
  const { total, memberships } = data.pastDue;
  // Nobody past due: the outlook's Past due card says so, no empty panel beneath it.
  if (memberships.length === 0) return null;
  return (
    <Panel title={`Past due (${total})`}>
      <List.Root variant="plain" data-testid="past-due" gap="0">
        {memberships.map((m) => (
          <List.Item key={m.membershipId} display="block" py="3" borderTopWidth="1px" borderColor="border.muted" _first={{ borderTopWidth: 0, pt: 0 }}>
            <Flex gap={{ base: "1", md: "4" }} justify="space-between" align={{ base: "flex-start", md: "center" }} direction={{ base: "column", md: "row" }}>
              <Box minW="0">
                <Link asChild color="orange.700" fontWeight="semibold">
                  <RouterLink to={`/admin/business/${businessId}/members/${m.membershipId}`}>{m.fullName ?? m.username}</RouterLink>
                </Link>
                {m.fullName && (
                  <Text fontSize="sm" color="fg.muted">
                    {m.username}
                  </Text>
                )}
              </Box>
              <Box textAlign={{ base: "start", md: "end" }} fontSize="sm">
                <Text>
                  Owes {monthYear(m.owedPeriod)}
                  {m.attempts > 0 && ` · ${m.attempts === 1 ? "1 attempt" : `${m.attempts} attempts`}`}
                </Text>
                <Text color="fg.muted">{m.nextRetryDate ? `Next retry ${formatDay(m.nextRetryDate)}` : "No retry scheduled"}</Text>
              </Box>
            </Flex>
          </List.Item>
        ))}
      </List.Root>
      {total > memberships.length && (
        <Text fontSize="sm" color="fg.muted" mt="3">
          Showing {memberships.length} of {total}.
        </Text>
      )}
    </Panel>
  );
}
