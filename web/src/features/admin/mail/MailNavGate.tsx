import type { ReactNode } from "react";
import { graphql } from "react-relay";
import { useRouteQuery } from "../../../lib/routeQuery.ts";
import type { MailNavGateQuery } from "./__generated__/MailNavGateQuery.graphql.ts";

/**
 * Shows the sidebar's "Sent mail" entry (`children`) to a member who owns a business (administrators always see
 * it without asking). Navigation only: the list shows owners their businesses' messages and nothing else.
 */
export function MailNavGate({ children }: { children: ReactNode }) {
  const data = useRouteQuery<MailNavGateQuery>(
    graphql`
      query MailNavGateQuery {
        myBusinesses(first: 100) {
          edges {
            node {
              viewerRole
            }
          }
        }
      }
    `,
    {},
  );
  return data.myBusinesses.edges.some((e) => e.node.viewerRole === "OWNER") ? children : null;
}
