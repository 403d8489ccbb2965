/**
 * Spec §7 page routes: the home page and business pages (public, and the page editor's load and save), and
 * the Next Box note. Saves go to api/pages; the §3 shape is ./page-format.ts.
 */
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import { assertCan } from "../api/auth/policy.ts";
import * as businesses from "../api/businesses/service.ts";
import { publicCatalogWhere } from "../api/catalog/service.ts";
import * as pages from "../api/pages/service.ts";
import { cachedPublicPage } from "../api/pages/public-cache.ts";
import { ContentResponse, pageContentJson, SaveContentBody, serviceCatalogue, serviceContent, type PageContentJson } from "./page-format.ts";
import { businessIdParams, type Router } from "./router.ts";

const catalogueOrder = [{ position: "asc" as const }, { id: "asc" as const }];

/** A business's catalogue: listed rows for the public, every non-archived row for editors. */
export async function catalogueOf(ctx: Pick<ServiceContext, "db">, businessId: number, includeUnlisted: boolean) {
  const where = { businessId, ...publicCatalogWhere(includeUnlisted) };
  const [plans, addons] = await Promise.all([
    ctx.db.plan.findMany({ where, include: { variations: true }, orderBy: catalogueOrder }),
    ctx.db.addon.findMany({ where, orderBy: catalogueOrder }),
  ]);
  return { plans, addons };
}

export async function homePageJson(ctx: Pick<ServiceContext, "db">): Promise<PageContentJson> {
  const { id } = await pages.ensureHomePage(ctx);
  return pageContentJson(await ctx.db.page.findUniqueOrThrow({ where: { id } }));
}

/** A business page; a business without a page of its own shows the home page content (spec §7 fallback). */
export async function businessPageJson(ctx: Pick<ServiceContext, "db">, businessId: number, includeUnlisted: boolean) {
  const page = await ctx.db.page.findUnique({ where: { businessId } });
  if (!page) return homePageJson(ctx);
  return pageContentJson(page, await catalogueOf(ctx, businessId, includeUnlisted));
}

/** The page editor's view of a business: every non-archived catalogue row, listed or not. */
async function editorPageJson(ctx: ServiceContext, businessId: number) {
  const page = await ctx.db.page.findUnique({ where: { businessId } });
  return pageContentJson(page, await catalogueOf(ctx, businessId, true));
}

const slugParams = z.object({ slug: z.string().min(1).max(100) });

/** If-None-Match names this ETag (or `*`); weak validators compare equal to the strong one (RFC 9110 §13.1.2). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

export function pageRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/page",
    tag: "content",
    summary: "Home page content",
    access: "public",
    response: ContentResponse,
    handler: async (ctx) => ({ content: await homePageJson(ctx) }),
  });

  r.add({
    method: "GET",
    path: "/admin/page",
    tag: "admin",
    summary: "Home page content (the page editor's default load address)",
    access: "admin",
    response: ContentResponse,
    handler: async (ctx) => ({ content: await homePageJson(ctx) }),
  });

  r.add({
    method: "POST",
    path: "/admin/page",
    tag: "admin",
    summary: "Saves the home page content (administrators); rich text is sanitised",
    access: "admin",
    body: SaveContentBody,
    response: ContentResponse,
    handler: async (ctx, { body }) => {
      await pages.saveHomePage(ctx, { content: serviceContent(body.content) });
      return { content: await homePageJson(ctx) };
    },
  });

  r.add({
    method: "GET",
    path: "/businesses/{slug}/page",
    tag: "content",
    summary: "A business page with its catalogue (the home page content when the business has no page)",
    access: "public",
    params: slugParams,
    response: ContentResponse,
    handler: async (ctx, { params }, req, reply) => {
      // The same for every visitor: served from the public page cache, which page edits invalidate.
      const page = await cachedPublicPage(ctx, `business-page:${params.slug.toLowerCase()}`, async () => {
        const business = await businesses.businessBySlug(ctx, params.slug);
        return { businessId: business.id, value: { content: await businessPageJson(ctx, business.id, false) } };
      });
      // Browsers and CDNs may keep it but must revalidate: a 304 when it has not changed since.
      reply.header("cache-control", "public, no-cache").header("etag", page.etag);
      if (etagMatches(req.headers["if-none-match"], page.etag)) reply.status(304).send();
      else reply.type("application/json; charset=utf-8").send(page.body);
      return undefined as never; // sent above, as the cached serialised body
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/page",
    tag: "admin",
    summary: "A business page with its whole catalogue, for the page editor (editors, owners, administrators)",
    access: "admin",
    params: businessIdParams,
    response: ContentResponse,
    handler: async (ctx, { params }) => {
      await businesses.businessById(ctx, params.id);
      await assertCan(ctx, params.id, "editContent");
      return { content: await editorPageJson(ctx, params.id) };
    },
  });

  r.add({
    method: "POST",
    path: "/admin/businesses/{id}/page",
    tag: "admin",
    summary: "Saves a business page with its items and add-ons in one transaction; rich text is sanitised",
    access: "admin",
    params: businessIdParams,
    body: SaveContentBody,
    response: ContentResponse,
    handler: async (ctx, { params, body }) => {
      await pages.saveBusinessPage(ctx, { businessId: params.id, content: serviceContent(body.content), ...serviceCatalogue(body.content) });
      return { content: await editorPageJson(ctx, params.id) };
    },
  });

  r.add({
    method: "GET",
    path: "/businesses/{slug}/next-box",
    tag: "content",
    summary: "The business's Next Box note",
    access: "public",
    params: slugParams,
    response: z.object({ content: z.string().describe("Sanitised HTML") }),
    handler: async (ctx, { params }) => {
      const business = await businesses.businessBySlug(ctx, params.slug);
      const box = await ctx.db.nextBox.findUnique({ where: { businessId: business.id }, select: { contentHtml: true } });
      return { content: box?.contentHtml ?? "" };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/next-box",
    tag: "admin",
    summary: "The business's Next Box note, for the editor",
    access: "admin",
    params: businessIdParams,
    response: z.object({ content: z.string().describe("Sanitised HTML") }),
    handler: async (ctx, { params }) => {
      await businesses.businessById(ctx, params.id);
      await assertCan(ctx, params.id, "viewDashboard");
      const box = await ctx.db.nextBox.findUnique({ where: { businessId: params.id }, select: { contentHtml: true } });
      return { content: box?.contentHtml ?? "" };
    },
  });

  r.add({
    method: "POST",
    path: "/admin/businesses/{id}/next-box",
    tag: "admin",
    summary: "Saves the Next Box note (editors, owners, administrators); rich text is sanitised",
    access: "admin",
    params: businessIdParams,
    body: z.object({ content: z.string({ error: "Missing content" }) }),
    response: z.object({ content: z.string() }),
    handler: async (ctx, { params, body }) => {
      const box = await pages.saveNextBox(ctx, { businessId: params.id, contentHtml: body.content });
      return { content: box.contentHtml };
    },
  });
}
