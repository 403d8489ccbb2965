/**
 * The catalogue of a business (spec §3): plans (the spec's items / packages) with one price per fulfillment
 * mode, and add-ons. The page editor saves the whole catalogue with the page (spec §7: "item and add-on edit
 * persistence is by saving the whole page"); see saveCatalog.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { Prisma, PlanVariation } from "../generated/prisma/client.ts";
import { assertCan } from "../auth/policy.ts";
import { FulfillmentMode } from "../generated/prisma/enums.ts";
import { sanitizeRichText } from "../rules/richtext.ts";
import { CAPACITY_MAX, CAPACITY_MESSAGE } from "../shared/capacity.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import { singleLine } from "../shared/validation.ts";

const CURRENCY = "USD";

/** Modes in display order; the index is the variation's ordinal (spec §3: 0|1|2). */
export const FULFILLMENT_MODES = [FulfillmentMode.PICKUP, FulfillmentMode.SHIPPING, FulfillmentMode.DELIVERY] as const;

// The modes' names are shared with the web app (api/shared/fulfillment.ts); re-exported for REST's rows.

/** Spec §3: variation ids are {itemId}_pickup, {itemId}_shipping, {itemId}_delivery. */
export function variationId(ref: string, mode: FulfillmentMode): string {
  return `${ref}_${mode.toLowerCase()}`;
}

/** The price of `plan` in `mode`, or null when the plan is not offered that way. */
export function variationFor<V extends Pick<PlanVariation, "mode">>(plan: { variations: V[] }, mode: FulfillmentMode): V | null {
  return plan.variations.find((v) => v.mode === mode) ?? null;
}

export interface VariationView {
  id: string;
  mode: FulfillmentMode;
  name: string;
  ordinal: number;
  amountCents: number;
  currency: string;
}

/** A plan's variations in display order (pickup, shipping, delivery), as the business page lists them. */
export function planVariations(plan: { ref: string; variations: Pick<PlanVariation, "mode" | "amountCents" | "currency">[] }): VariationView[] {
  return FULFILLMENT_MODES.flatMap((mode, ordinal) => {
    const v = variationFor(plan, mode);
    return v ? [{ id: variationId(plan.ref, mode), mode, name: MODE_NAMES[mode], ordinal, amountCents: v.amountCents, currency: v.currency }] : [];
  });
}

/** The headline price of a plan: its first variation in display order (pickup when offered). */
export function planPriceCents(plan: Parameters<typeof planVariations>[0]): number | null {
  return planVariations(plan)[0]?.amountCents ?? null;
}

/** Client-facing ids of new rows: item_{timestamp}… / addon_{timestamp}… plus a random tail so saves in the same millisecond never collide. */
export function newRef(prefix: "item" | "addon", now: Date): string {
  return `${prefix}_${now.getTime()}${randomBytes(3).toString("hex")}`;
}

const refSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "Invalid id");

const centsSchema = (message: string) =>
  z
    .number({ error: message })
    .int(message)
    .min(0, message)
    .max(100_000_000, message);

const PRICE_MESSAGE = "Prices must be whole, non-negative amounts in cents.";
const optionalCents = centsSchema(PRICE_MESSAGE).nullish();

/** Most places a plan or plan and mode may take (api/catalog/capacity.ts). Left out: the stored capacity stays; null: no limit. */
const capacitySchema = z.number({ error: CAPACITY_MESSAGE }).int(CAPACITY_MESSAGE).min(0, CAPACITY_MESSAGE).max(CAPACITY_MAX, CAPACITY_MESSAGE).nullish();

export const PlanInputSchema = z
  .object({
    ref: refSchema.nullish(),
    name: singleLine("Package name", { error: "Please enter a package name." }).trim().min(1, "Please enter a package name.").max(200),
    description: z.string().trim().max(5_000).nullish(),
    descriptionHtml: z.string().max(200_000).nullish(),
    listed: z.boolean().nullish(),
    pickupCents: optionalCents,
    shippingCents: optionalCents,
    deliveryCents: optionalCents,
    capacity: capacitySchema,
    pickupCapacity: capacitySchema,
    shippingCapacity: capacitySchema,
    deliveryCapacity: capacitySchema,
  })
  .superRefine((p, ctx) => {
    if (p.pickupCents == null && p.shippingCents == null && p.deliveryCents == null) {
      ctx.addIssue({ code: "custom", path: ["pickupCents"], message: "Enter at least one price (pickup, shipping, and/or delivery)." });
    }
  });
export type PlanInput = z.input<typeof PlanInputSchema>;

export const AddonInputSchema = z.object({
  ref: refSchema.nullish(),
  name: singleLine("Add-on name", { error: "Please enter an add-on name." }).trim().min(1, "Please enter an add-on name.").max(200),
  description: z.string().trim().max(5_000).nullish(),
  amountCents: centsSchema("Please enter a valid price."),
  listed: z.boolean().nullish(),
});
/** What callers may send: a missing price is reported by validation, not by the type. */
export type AddonInput = Omit<z.input<typeof AddonInputSchema>, "amountCents"> & { amountCents?: number | null };

/** One save's list lengths: at most 200 plans and 200 add-ons. */
export const CATALOG_LIST_MAX = { plans: [200, "At most 200 packages"], addons: [200, "At most 200 add-ons"] } as const;

const catalogLists = {
  plans: z.array(PlanInputSchema).max(...CATALOG_LIST_MAX.plans).nullish(),
  addons: z.array(AddonInputSchema).max(...CATALOG_LIST_MAX.addons).nullish(),
};

/** Refs identify rows across saves, so one save may name each at most once. */
function uniqueRefs(c: { plans?: { ref?: string | null }[] | null; addons?: { ref?: string | null }[] | null }, ctx: z.RefinementCtx) {
  for (const key of ["plans", "addons"] as const) {
    const seen = new Set<string>();
    c[key]?.forEach((row, i) => {
      if (!row.ref) return;
      if (seen.has(row.ref)) ctx.addIssue({ code: "custom", path: [key, i, "ref"], message: `Duplicate id ${row.ref}` });
      seen.add(row.ref);
    });
  }
}


/** Extends an input object schema with the catalogue lists (plans, addons) and their checks. */
export function withCatalog<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...shape, ...catalogLists }).superRefine((c, ctx) => uniqueRefs(c as Parameters<typeof uniqueRefs>[0], ctx));
}
export type CatalogInput = z.output<z.ZodObject<typeof catalogLists>>;

const modeCents = (p: z.output<typeof PlanInputSchema>): Record<FulfillmentMode, number | null | undefined> => ({
  PICKUP: p.pickupCents,
  SHIPPING: p.shippingCents,
  DELIVERY: p.deliveryCents,
});

const modeCapacity = (p: z.output<typeof PlanInputSchema>): Record<FulfillmentMode, number | null | undefined> => ({
  PICKUP: p.pickupCapacity,
  SHIPPING: p.shippingCapacity,
  DELIVERY: p.deliveryCapacity,
});

/**
 * Replaces the catalogue of a business with the given lists, inside the caller's transaction. Rows are
 * matched by ref; list order becomes `position`; rows absent from a given list are archived, never deleted
 * (subscriptions and orders keep pointing at them). A list that is not given (null) is left as it is.
 */
export async function saveCatalog(tx: Prisma.TransactionClient, businessId: number, input: CatalogInput, now: Date): Promise<void> {
  if (input.plans) await savePlans(tx, businessId, input.plans, now);
  if (input.addons) await saveAddons(tx, businessId, input.addons, now);
}

async function savePlans(tx: Prisma.TransactionClient, businessId: number, plans: NonNullable<CatalogInput["plans"]>, now: Date) {
  const existing = await tx.plan.findMany({ where: { businessId }, select: { id: true, ref: true } });
  const idByRef = new Map(existing.map((p) => [p.ref, p.id]));
  const kept = new Set<number>();
  for (const [position, p] of plans.entries()) {
    const fields = {
      name: p.name,
      position,
      archivedAt: null,
      ...(p.description != null ? { description: p.description } : {}),
      ...(p.descriptionHtml != null ? { descriptionHtml: sanitizeRichText(p.descriptionHtml) } : {}),
      ...(p.listed != null ? { listed: p.listed } : {}),
      ...(p.capacity !== undefined ? { capacity: p.capacity } : {}),
    };
    const id = p.ref ? idByRef.get(p.ref) : undefined;
    const planId = id
      ? (await tx.plan.update({ where: { id }, data: fields, select: { id: true } })).id
      : (await tx.plan.create({ data: { ...fields, businessId, ref: p.ref ?? newRef("item", now), currency: CURRENCY }, select: { id: true } })).id;
    kept.add(planId);
    const cents = modeCents(p);
    const capacities = modeCapacity(p);
    const offered = FULFILLMENT_MODES.filter((m) => cents[m] != null);
    await tx.planVariation.deleteMany({ where: { planId, mode: { notIn: offered } } });
    for (const mode of offered) {
      const amountCents = cents[mode]!;
      const capacity = capacities[mode];
      await tx.planVariation.upsert({
        where: { planId_mode: { planId, mode } },
        create: { planId, mode, amountCents, currency: CURRENCY, capacity: capacity ?? null },
        update: { amountCents, ...(capacity !== undefined ? { capacity } : {}) },
      });
    }
  }
  await tx.plan.updateMany({ where: { businessId, archivedAt: null, id: { notIn: [...kept] } }, data: { archivedAt: now } });
}

async function saveAddons(tx: Prisma.TransactionClient, businessId: number, addons: NonNullable<CatalogInput["addons"]>, now: Date) {
  const existing = await tx.addon.findMany({ where: { businessId }, select: { id: true, ref: true } });
  const idByRef = new Map(existing.map((a) => [a.ref, a.id]));
  const kept = new Set<number>();
  for (const [position, a] of addons.entries()) {
    const fields = {
      name: a.name,
      amountCents: a.amountCents,
      position,
      archivedAt: null,
      ...(a.description != null ? { description: a.description } : {}),
      ...(a.listed != null ? { listed: a.listed } : {}),
    };
    const id = a.ref ? idByRef.get(a.ref) : undefined;
    const row = id
      ? await tx.addon.update({ where: { id }, data: fields, select: { id: true } })
      : await tx.addon.create({ data: { ...fields, businessId, ref: a.ref ?? newRef("addon", now), currency: CURRENCY }, select: { id: true } });
    kept.add(row.id);
  }
  await tx.addon.updateMany({ where: { businessId, archivedAt: null, id: { notIn: [...kept] } }, data: { archivedAt: now } });
}

/** Catalogue rows shown on the business page: listed, not archived; with includeUnlisted, every non-archived one. */
function publicCatalogWhere(includeUnlisted = false) {
  return { archivedAt: null, ...(includeUnlisted ? {} : { listed: true }) };
}

/**
 * Which catalogue rows a list shows and in what order (editor order): the one rule of catalogue() and of the
 * GraphQL Business.plans / Business.addons connections.
 */
export function catalogueQuery(includeUnlisted = false) {
  return { where: publicCatalogWhere(includeUnlisted), orderBy: [{ position: "asc" as const }, { id: "asc" as const }] };
}

/**
 * A business's catalogue: its listed plans (with their prices) and add-ons for anyone; with includeUnlisted,
 * every non-archived row, for those who may edit the business's content.
 */
export async function catalogue(ctx: ServiceContext, businessId: number, { includeUnlisted = false } = {}) {
  if (includeUnlisted) await assertCan(ctx, businessId, "editContent");
  const { where, orderBy } = catalogueQuery(includeUnlisted);
  const [plans, addons] = await Promise.all([
    ctx.db.plan.findMany({ where: { businessId, ...where }, include: { variations: true }, orderBy }),
    ctx.db.addon.findMany({ where: { businessId, ...where }, orderBy }),
  ]);
  return { plans, addons };
}

