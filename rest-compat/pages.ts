/**
 * Spec §7 page routes: the home page and business pages (public, and the page editor's load and save), and
 * the Next Box note. Saves go to api/pages; the §3 shape is ./page-format.ts.
 */
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import * as businesses from "../api/businesses/service.ts";
import * as pages from "../api/pages/service.ts";
import { cachedPublicPage } from "../api/cache/public-pages.ts";
import { ContentResponse, pageContentJson, SaveContentBody, serviceCatalogue, serviceContent, type PageContentJson } from "./page-format.ts";
import { businessIdParams, type Router } from "./router.ts";

const homePageJson = async (ctx: ServiceContext): Promise<PageContentJson> => pageContentJson(await pages.homePage(ctx));

/** A business page in the §3 shape: the public one, or with includeUnlisted the page editor's. */
async function businessPageJson(ctx: ServiceContext, businessId: number, includeUnlisted: boolean): Promise<PageContentJson> {
  const { page, ...catalogue } = await pages.businessPage(ctx, businessId, { includeUnlisted });
  return pageContentJson(page, catalogue);
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
      return { content: await businessPageJson(ctx, params.id, true) };
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
      return { content: await businessPageJson(ctx, params.id, true) };
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
      const box = await pages.nextBox(ctx, { slug: params.slug });
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
      const box = await pages.nextBox(ctx, { id: params.id });
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
