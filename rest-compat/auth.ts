/** Spec §7 auth routes: login, registration (bound to the X-Tenant business) and username availability. */
import { z } from "zod";
import * as users from "../api/users/service.ts";
import type { Router } from "./router.ts";

const Credentials = z.object({ username: z.string().max(200).default(""), password: z.string().max(500).default("") });

const AuthUser = z.object({
  id: z.number().int(),
  public_id: z.string(),
  username: z.string(),
  is_admin: z.boolean(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});

const AuthResponse = z.object({
  token: z.string().describe("Bearer token"),
  user: AuthUser,
  tenant: z.string().nullable().describe("Business the session is bound to"),
});

type Authenticated = Awaited<ReturnType<typeof users.login>>;
const authJson = (r: Authenticated): z.input<typeof AuthResponse> => ({
  token: r.token,
  tenant: r.tenant,
  user: { id: r.user.id, public_id: r.user.publicId, username: r.user.username, is_admin: r.user.isAdmin, name: r.user.name, email: r.user.email },
});

export function authRoutes(r: Router) {
  r.add({
    method: "POST",
    path: "/auth/login",
    tag: "auth",
    summary: "Password login; the session is bound to the X-Tenant business when one is named",
    access: "public",
    body: Credentials,
    response: AuthResponse,
    errors: [429],
    handler: async (ctx, { body }, req) => authJson(await users.login(ctx, body, { userAgent: req.headers["user-agent"] })),
  });

  r.add({
    method: "POST",
    path: "/auth/register",
    tag: "auth",
    summary: "Registers a member and logs them in (X-Tenant)",
    access: "public",
    body: Credentials.extend({ email: z.string().max(254).optional(), name: z.string().max(200).optional() }),
    response: AuthResponse,
    errors: [409, 429],
    handler: async (ctx, { body }, req) => authJson(await users.register(ctx, body, { userAgent: req.headers["user-agent"] })),
  });

  r.add({
    method: "GET",
    path: "/auth/check-username/{username}",
    tag: "auth",
    summary: "Whether a username is free (X-Tenant)",
    access: "public",
    params: z.object({ username: z.string().max(200) }),
    response: z.object({ available: z.boolean() }),
    handler: async (ctx, { params }) => ({ available: await users.isUsernameAvailable(ctx, params.username) }),
  });
}
