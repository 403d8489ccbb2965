import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { Prisma, type Page } from "../generated/prisma/client.ts";
import { assertCan, requireAdmin } from "../auth/policy.ts";
import { businessById, businessBySlug } from "../businesses/service.ts";
import { catalogue, saveCatalog, withCatalog } from "../catalog/service.ts";
import { eventActorOf, writeEvents } from "../events/outbox.ts";
import { NotFoundError } from "../shared/errors.ts";
import { globalId } from "../shared/global-id.ts";
import { parseInput } from "../shared/validation.ts";
import { PageContentSchema, pageData, type PageContentInput, type StoredPointLists } from "./content.ts";
import { publicPageChanged } from "../cache/public-pages.ts";
import { richTextDocSchema, richTextOf } from "./richtext-doc.ts";
import type { AddonInput, PlanInput } from "../catalog/service.ts";

// Catalogue saves write a few rows per plan; PGlite runs them one by one.
const TX_OPTIONS = { timeout: 30_000, maxWait: 10_000 };

const pointListsSelect = { pickupPoints: true, deliveryAreas: true } as const;

function contentData(content: z.output<typeof PageContentSchema>, stored: StoredPointLists | null) {
  const data = pageData(content, stored ?? undefined);
  // Without a document (HTML from REST or an older client) the stored one is cleared: the editor then imports
  // the new HTML instead of showing a document that no longer matches it.
  return {
    ...data,
    descriptionDoc: data.descriptionDoc ? (data.descriptionDoc as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
    faqs: data.faqs as unknown as Prisma.InputJsonArray,
  };
}

/** The home page (isHome); created with §3 defaults the first time anyone asks. */
async function ensureHomePage(ctx: Pick<ServiceContext, "db">): Promise<{ id: number }> {
  const found = await ctx.db.page.findUnique({ where: { isHome: true }, select: { id: true } });
  if (found) return found;
  try {
    return await ctx.db.page.create({ data: { isHome: true }, select: { id: true } });
  } catch (e) {
    // Two first visits raced: the unique index on is_home kept one.
    if ((e as { code?: string }).code === "P2002") return ctx.db.page.findUniqueOrThrow({ where: { isHome: true }, select: { id: true } });
    throw e;
  }
}

// ── Reads ────────────────────────────────────────────────────────────────────────────────────────────

/** The caller's selection (GraphQL passes its field's `query` through). */
export type PageSelection = Pick<Prisma.PageFindUniqueArgs, "select" | "include">;

/** The home page content, for anyone (GraphQL homePage, REST GET /page and /admin/page). */
export async function homePage(ctx: Pick<ServiceContext, "db">, selection: PageSelection = {}): Promise<Page> {
  const { id } = await ensureHomePage(ctx);
  return ctx.db.page.findUniqueOrThrow({ ...selection, where: { id } });
}

/**
 * A business page with its catalogue. For visitors: its listed plans and add-ons, and a business without a
 * page of its own shows the home page content with no catalogue (spec §7). With includeUnlisted, the page
 * editor's load (editors, owners, administrators): its page (null while never saved) and every non-archived
 * catalogue row, listed or not.
 */
export async function businessPage(ctx: ServiceContext, businessId: number, { includeUnlisted = false } = {}) {
  if (includeUnlisted) {
    await businessById(ctx, businessId);
    await assertCan(ctx, businessId, "editContent");
  }
  const page = await ctx.db.page.findUnique({ where: { businessId } });
  if (!page && !includeUnlisted) return { page: await homePage(ctx), plans: [], addons: [] };
  return { page, ...(await catalogue(ctx, businessId, { includeUnlisted })) };
}

/**
 * The Next Box note of a business: by slug as the public reads it; by id, the editor's load (anyone who may
 * open the business's dashboard). Null when the business has none.
 */
export async function nextBox(ctx: ServiceContext, business: { slug: string } | { id: number }): Promise<{ contentHtml: string } | null> {
  let businessId: number;
  if ("slug" in business) businessId = (await businessBySlug(ctx, business.slug)).id;
  else {
    businessId = (await businessById(ctx, business.id)).id;
    await assertCan(ctx, businessId, "viewDashboard");
  }
  return ctx.db.nextBox.findUnique({ where: { businessId }, select: { contentHtml: true } });
}

// ── Saves ────────────────────────────────────────────────────────────────────────────────────────────

/** Admin: saves the main home page content (no catalogue). */
export async function saveHomePage(ctx: ServiceContext, input: { content: PageContentInput }) {
  requireAdmin(ctx);
  const content = parseInput(z.object({ content: PageContentSchema }), input).content;
  const page = await ctx.db.$transaction(async (tx) => {
    const data = contentData(content, await tx.page.findUnique({ where: { isHome: true }, select: pointListsSelect }));
    const saved = await tx.page.upsert({ where: { isHome: true }, create: { ...data, isHome: true }, update: data });
    // The home page is no node of the API: its object id names the page row.
    await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [
      { type: "home_page.published.v1", businessId: null, objectId: globalId("Page", saved.id), payload: { pageId: saved.id } },
    ]);
    return saved;
  });
  // Businesses without a page of their own show the home page content.
  await publicPageChanged(ctx, null);
  return page;
}

const SaveBusinessPageSchema = withCatalog({ businessId: z.number().int(), content: PageContentSchema });

export interface SaveBusinessPageInput {
  businessId: number;
  content: PageContentInput;
  plans?: PlanInput[] | null;
  addons?: AddonInput[] | null;
}

/**
 * Saves a business page and, when given, its plans and add-ons in one transaction: a refused field leaves
 * everything as it was.
 */
export async function saveBusinessPage(ctx: ServiceContext, input: SaveBusinessPageInput) {
  await assertCan(ctx, input.businessId, "editContent");
  const data = parseInput(SaveBusinessPageSchema, input);
  const business = await ctx.db.business.findUnique({ where: { id: data.businessId }, select: { id: true, slug: true } });
  if (!business) throw new NotFoundError("Business");
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    const page = contentData(data.content, await tx.page.findUnique({ where: { businessId: business.id }, select: pointListsSelect }));
    await tx.page.upsert({ where: { businessId: business.id }, create: { ...page, businessId: business.id }, update: page });
    await saveCatalog(tx, business.id, data, now);
    // A saved business page is live at once: the public page now shows it.
    await writeEvents(tx, { at: now, actor: eventActorOf(ctx.actor) }, [
      { type: "page.published.v1", businessId: business.id, objectId: globalId("Business", business.id), payload: { businessId: business.id, slug: business.slug } },
    ]);
  }, TX_OPTIONS);
  await publicPageChanged(ctx, business.id);
  return business;
}

const SaveNextBoxSchema = z
  .object({
    businessId: z.number().int(),
    contentHtml: z.string().max(1_000_000, "Next box content is too long").nullish(),
    contentDoc: richTextDocSchema("Next Box content").nullish(),
  })
  .refine((d) => d.contentDoc != null || d.contentHtml != null, { message: "Next Box content is required", path: ["contentDoc"] });

export interface SaveNextBoxInput {
  businessId: number;
  /** HTML (REST, older clients): sanitised, and any stored document cleared. */
  contentHtml?: string | null;
  /** The editor's document: the HTML is rendered from it (contentHtml is then ignored). */
  contentDoc?: unknown;
}

/** The per-business Next Box note (rich text: the editor's document and the sanitised HTML rendered from it). */
export async function saveNextBox(ctx: ServiceContext, input: SaveNextBoxInput) {
  await assertCan(ctx, input.businessId, "editContent");
  const data = parseInput(SaveNextBoxSchema, input);
  const business = await ctx.db.business.findUnique({ where: { id: data.businessId }, select: { id: true, slug: true } });
  if (!business) throw new NotFoundError("Business");
  const updatedById = ctx.actor.kind === "user" ? ctx.actor.user.id : null;
  const content = richTextOf(data.contentDoc, data.contentHtml);
  const contentHtml = content.html;
  const contentDoc = content.doc ? (content.doc as unknown as Prisma.InputJsonObject) : Prisma.DbNull;
  const now = ctx.clock.now();
  const box = await ctx.db.$transaction(async (tx) => {
    const saved = await tx.nextBox.upsert({
      where: { businessId: business.id },
      create: { businessId: business.id, contentHtml, contentDoc, updatedById },
      update: { contentHtml, contentDoc, updatedById },
    });
    // The note is public at once (business page, members' portal): announced with the save.
    await writeEvents(tx, { at: now, actor: eventActorOf(ctx.actor) }, [
      { type: "next_box.published.v1", businessId: business.id, objectId: globalId("Business", business.id), payload: { businessId: business.id, slug: business.slug, nextBoxId: saved.id } },
    ]);
    return saved;
  }, TX_OPTIONS);
  await publicPageChanged(ctx, business.id); // Business.nextBox is public
  return box;
}
