import { Badge, Table, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { EmptyLine, Panel } from "../../../ui/admin/AdminPage.tsx";
import { formatDate, statusLabel } from "../format.ts";
import type { RecentSubscriptionsFragment$key } from "./__generated__/RecentSubscriptionsFragment.graphql.ts";
import { TableHead } from "../../../ui/admin/TableHead.tsx";

/**
 * The newest memberships: each member by full name with the username beneath (the username alone when they gave no
 * name), and the business by name. `showBusiness` false on a business's own dashboard, where every row is that
 * business's.
 */
export function RecentSubscriptions({ metrics, actions, showBusiness = true }: { metrics: RecentSubscriptionsFragment$key; actions?: React.ReactNode; showBusiness?: boolean }) {
  const data = useFragment(
    graphql`
      fragment RecentSubscriptionsFragment on DashboardMetrics {
        recentSubscriptions {
          id
          userPublicId
          memberName
          username
          status
          startedAt
          business {
            name
          }
        }
      }
    `,
    metrics,
  );
  const columns = showBusiness ? ["Member", "Business", "Status", "Started"] : ["Member", "Status", "Started"];
  return (
    <Panel title="Recent subscriptions" actions={actions}>
      {data.recentSubscriptions.length === 0 ? (
        <EmptyLine>Nothing yet</EmptyLine>
      ) : (
        <Table.ScrollArea data-testid="recent-subscriptions" tabIndex={0} role="region" aria-label="Recent subscriptions">
          <Table.Root size="sm">
            <TableHead columns={columns} />
            <Table.Body>
              {data.recentSubscriptions.map((m) => {
                const name = m.memberName?.trim();
                return (
                  <Table.Row key={m.id}>
                    <Table.Cell>
                      <Text fontWeight={name ? "medium" : undefined}>{name || m.username || m.userPublicId}</Text>
                      {name && (
                        <Text fontSize="xs" color="fg.muted">
                          {m.username}
                        </Text>
                      )}
                    </Table.Cell>
                    {showBusiness && <Table.Cell>{m.business.name}</Table.Cell>}
                    <Table.Cell>
                      <Badge colorPalette={m.status === "ACTIVE" ? "green" : "gray"}>{statusLabel(m.status)}</Badge>
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{formatDate(m.startedAt)}</Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Panel>
  );
}
