import { graphql, readInlineData } from "react-relay";
import { saveSession } from "./session.ts";
import type { sessionPayload_auth$key } from "./__generated__/sessionPayload_auth.graphql.ts";

/** What a login or a registration returns for the stored session (spec §3 auth_token, auth_user, auth_tenant). */
const SessionPayloadFragment = graphql`
  fragment sessionPayload_auth on AuthPayload @inline {
    token
    tenant
    user {
      id
      username
      email
      isAdmin
    }
  }
`;

/** Stores the session a login or registration returned; says whether its user is an administrator. */
export function saveSessionFrom(payload: sessionPayload_auth$key): { isAdmin: boolean } {
  const { token, tenant, user } = readInlineData(SessionPayloadFragment, payload);
  saveSession({ token, tenant, user: { id: user.id, username: user.username, email: user.email, isAdmin: user.isAdmin } });
  return { isAdmin: user.isAdmin };
}
