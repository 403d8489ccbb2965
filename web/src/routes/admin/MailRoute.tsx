import { Box, Text } from "@chakra-ui/react";
import { graphql } from "react-relay";
import { DigestSwitch } from "../../features/admin/mail/DigestSwitch.tsx";
import { MailMessagesPanel } from "../../features/admin/mail/MailMessagesPanel.tsx";
import type { MailMessagesPanelFragment_query$key } from "../../features/admin/mail/__generated__/MailMessagesPanelFragment_query.graphql.ts";
import { readAdminSession } from "../../features/admin/session.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import type { MailRouteQuery } from "./__generated__/MailRouteQuery.graphql.ts";
import { businessFilterQuery } from "../../features/admin/BusinessFilter.tsx";
import type { BusinessFilterQuery } from "../../features/admin/__generated__/BusinessFilterQuery.graphql.ts";

/**
 * /admin/mail (administrators: every message; owners: their businesses'): what the product emailed, queued or,
 * without SMTP_URL, kept here instead of sending; each message as rendered, with Resend. Also the signed-in
 * user's daily digest switch.
 */
export default function MailRoute() {
  const data = useRouteQuery<MailRouteQuery>(
    graphql`
      query MailRouteQuery {
        mailDelivery {
          smtpConfigured
        }
        viewer {
          ...DigestSwitchFragment_user
        }
        ...MailMessagesPanelFragment_query
      }
    `,
    {},
    { fetchPolicy: "store-and-network" },
  );
  const { isAdmin } = readAdminSession();
  return (
    <AdminPage title="Sent mail" description={isAdmin ? "Every email the platform sent or kept, newest first." : "Emails sent to the members of your businesses, newest first."}>
      {!data.mailDelivery.smtpConfigured && (
        <Box role="note" aria-label="Mail delivery" p="4" rounded="lg" bg="yellow.50" borderWidth="1px" borderColor="yellow.300" color="yellow.900">
          <Text fontWeight="medium">No SMTP server is configured (SMTP_URL): messages are kept here and not sent.</Text>
        </Box>
      )}
      {isAdmin ? <AdminMailPanel query={data} /> : <MailMessagesPanel query={data} />}
      {data.viewer && (
        <Panel title="Your email">
          <DigestSwitch user={data.viewer} />
        </Panel>
      )}
    </AdminPage>
  );
}

/** Administrators also filter by business: its options are a query of their own (adminRoutes.tsx starts it). */
function AdminMailPanel({ query }: { query: MailMessagesPanelFragment_query$key }) {
  const options = useRouteQuery<BusinessFilterQuery>(businessFilterQuery, {}, { fetchPolicy: "store-or-network" });
  return <MailMessagesPanel query={query} businesses={options} />;
}
