import { Badge, Table } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { EmptyLine, Panel } from "../../../ui/admin/AdminPage.tsx";
import { formatDate, statusLabel } from "../format.ts";
import type { RecentSubscriptionsFragment$key } from "./__generated__/RecentSubscriptionsFragment.graphql.ts";
import { TableHead } from "../../../ui/admin/TableHead.tsx";

export function RecentSubscriptions({ metrics, actions }: { metrics: RecentSubscriptionsFragment$key; actions?: React.ReactNode }) {
  const data = useFragment(
    graphql`
      fragment RecentSubscriptionsFragment on DashboardMetrics {
        recentSubscriptions {
          id
          userPublicId
          username
          status
          startedAt
          business {
            slug
          }
        }
      }
    `,
    metrics,
  );
  return (
    <Panel title="Recent subscriptions" actions={actions}>
      {data.recentSubscriptions.length === 0 ? (
        <EmptyLine>Nothing yet</EmptyLine>
      ) : (
        <Table.ScrollArea data-testid="recent-subscriptions" tabIndex={0} role="region" aria-label="Recent subscriptions">
          <Table.Root size="sm">
            <TableHead columns={["Member", "Business", "Status", "Started"]} />
            <Table.Body>
              {data.recentSubscriptions.map((m) => (
                <Table.Row key={m.id}>
                  <Table.Cell>{m.username || m.userPublicId}</Table.Cell>
                  <Table.Cell>{m.business.slug}</Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={m.status === "ACTIVE" ? "green" : "gray"}>{statusLabel(m.status)}</Badge>
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{formatDate(m.startedAt)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Panel>
  );
}
