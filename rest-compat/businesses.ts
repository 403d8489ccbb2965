/**
 * Spec §7 business routes: the public business cards, the admin business list, create and delete, the users
 * attached to a business, and the businesses a signed-in user may open.
 */
import { z } from "zod";
import * as businesses from "../api/businesses/service.ts";
import * as users from "../api/users/service.ts";
import { businessIdParams, idParam, Ok, type Router } from "./router.ts";
import { BusinessRef, businessRefSelect } from "./rows.ts";

const BusinessCard = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  description: z.string().nullable().describe("Plain text"),
  memberCount: z.number().int(),
});

const Role = z.enum(["owner", "editor", "viewer"]);
const BusinessUser = z.object({ id: z.number().int(), username: z.string(), role: Role });
const roleWord = (r: string) => r.toLowerCase() as z.infer<typeof Role>;

export function businessRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/businesses",
    tag: "content",
    summary: "Every partner business (business cards)",
    access: "public",
    response: z.object({ businesses: z.array(BusinessCard) }),
    handler: async (ctx) => ({ businesses: await businesses.cards(ctx) }),
  });

  r.add({
    method: "GET",
    path: "/my/businesses",
    tag: "member",
    summary: "Businesses the user is attached to (administrators: all)",
    access: "member",
    response: z.array(BusinessRef),
    handler: async (ctx) => (await businesses.openable(ctx, { select: businessRefSelect })).map((b) => ({ id: b.id, name: b.name, slug: b.slug })),
  });

  r.add({
    method: "GET",
    path: "/admin/businesses",
    tag: "admin",
    summary: "Businesses the user may open (administrators: all)",
    access: "admin",
    response: z.array(BusinessRef.extend({ user_count: z.number().int() })),
    handler: async (ctx) => (await businesses.adminList(ctx)).map((b) => ({ id: b.id, name: b.name, slug: b.slug, user_count: b.userCount })),
  });

  r.add({
    method: "POST",
    path: "/admin/businesses",
    tag: "admin",
    summary: "Creates a business with its page (administrators)",
    access: "admin",
    body: z.object({
      name: z.string().max(500).default(""),
      slug: z.string().max(200).nullish(),
      attachments: z.array(z.object({ user_id: z.number().int(), role: z.string().transform((r) => r.toUpperCase()) })).max(50).nullish(),
    }),
    response: BusinessRef,
    errors: [409],
    handler: async (ctx, { body }) => {
      const b = await businesses.createBusiness(ctx, {
        name: body.name,
        slug: body.slug,
        attachments: body.attachments?.map((a) => ({ userId: a.user_id, role: a.role as "OWNER" | "EDITOR" | "VIEWER" })),
      });
      return { id: b.id, name: b.name, slug: b.slug };
    },
  });

  r.add({
    method: "DELETE",
    path: "/admin/businesses/{id}",
    tag: "admin",
    summary: "Deletes a business with its page and attachments (refused while it has members or order history)",
    access: "admin",
    params: businessIdParams,
    response: Ok,
    errors: [409],
    handler: async (ctx, { params }) => {
      await businesses.deleteBusiness(ctx, params.id);
      return { ok: true as const };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/users",
    tag: "admin",
    summary: "Users attached to a business (owners and administrators)",
    access: "admin",
    params: businessIdParams,
    response: z.array(BusinessUser),
    handler: async (ctx, { params }) => {
      const links = await businesses.users(ctx, params.id);
      return links.map((l) => ({ id: l.user.id, username: l.user.username, role: roleWord(l.role) }));
    },
  });

  r.add({
    method: "POST",
    path: "/admin/businesses/{id}/users",
    tag: "admin",
    summary: "Attaches a user with a role, or changes their role",
    access: "admin",
    params: businessIdParams,
    body: z.object({ user_id: z.number({ error: "Choose a user" }).int(), role: z.string().transform((r) => r.toUpperCase()) }),
    response: BusinessUser,
    errors: [409],
    handler: async (ctx, { params, body }) => {
      const link = await businesses.attachBusinessUser(ctx, { businessId: params.id, userId: body.user_id, role: body.role as "OWNER" | "EDITOR" | "VIEWER" });
      const user = await users.userById(ctx, link.userId);
      return { id: user.id, username: user.username, role: roleWord(link.role) };
    },
  });

  r.add({
    method: "DELETE",
    path: "/admin/businesses/{id}/users/{userId}",
    tag: "admin",
    summary: "Removes a user from a business",
    access: "admin",
    params: z.object({ id: idParam("Invalid business id"), userId: idParam("Invalid user id") }),
    response: Ok,
    handler: async (ctx, { params }) => {
      await businesses.detachBusinessUser(ctx, { businessId: params.id, userId: params.userId });
      return { ok: true as const };
    },
  });
}
