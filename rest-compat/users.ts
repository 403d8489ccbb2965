/** Spec §7 user routes (administrators; owners for the attach search of their business). */
import { z } from "zod";
import * as businesses from "../api/businesses/service.ts";
import * as users from "../api/users/service.ts";
import { singleLine } from "../api/shared/validation.ts";
import { businessIdParams, type Router } from "./router.ts";
import { UserResult, userJson, UserShape } from "./rows.ts";

const searchQuery = z.object({ q: singleLine("Search").max(200).default("") });

export function userRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/admin/users",
    tag: "admin",
    summary: "Every user, newest first, the first 1,000 (administrators)",
    access: "admin",
    response: z.array(UserShape),
    handler: async (ctx) => {
      return (await users.list(ctx, {})).map(userJson);
    },
  });

  r.add({
    method: "POST",
    path: "/admin/users",
    tag: "admin",
    summary: "Creates a user (administrators)",
    access: "admin",
    body: z.object({ username: z.string().max(200).default(""), password: z.string().max(500).default(""), is_admin: z.boolean().default(false) }),
    response: UserShape,
    errors: [409],
    handler: async (ctx, { body }) => userJson(await users.createUser(ctx, { username: body.username, password: body.password, isAdmin: body.is_admin })),
  });

  r.add({
    method: "GET",
    path: "/admin/users/search",
    tag: "admin",
    summary: "User search (administrators)",
    access: "admin",
    query: searchQuery,
    response: z.object({ results: z.array(UserResult) }),
    handler: async (ctx, { query }) => {
      return { results: await users.searchForAttach(ctx, { query: query.q }) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/user-search",
    tag: "admin",
    summary: "Users to attach to a business (owners of it, administrators)",
    access: "admin",
    params: businessIdParams,
    query: searchQuery,
    response: z.object({ results: z.array(UserResult) }),
    handler: async (ctx, { params, query }) => {
      await businesses.businessById(ctx, params.id);
      return { results: await users.searchForAttach(ctx, { query: query.q, businessId: params.id }) };
    },
  });
}
