/**
 * Page content (spec §3): its defaults, how stored rows read back, and the validation of a save (spec §5,
 * §9). Pure: no database, no GraphQL.
 */
import { z } from "zod";
import type { Page } from "../generated/prisma/client.ts";
import { richTextDocSchema, richTextOf, type RichTextDoc } from "./richtext-doc.ts";
import { singleLine } from "../shared/validation.ts";
import { DEFAULT_WINDOW, PAUSE_MAX_MONTHS_LIMIT } from "../rules/dates.ts";
import { DEFAULT_THEME, THEME_KEYS, type Theme, type ThemeKey } from "../shared/theme.ts";
import { RETENTION_DISCOUNT_PERCENT } from "../shared/cancellation.ts";

// ── Spec §9 limits and §3 defaults ───────────────────────────────────────────────────────────────────
const BILLING_DAY_MAX = 28;
const BOX_READY_DAY_MAX = 28;
const CUTOFF_DAY_MAX = 31;
const WINDOW_DAY_MAX = 28;
const TAX_PERCENT_MAX = 100;
const DEFAULT_TAX_RATE_BPS = 575;
const DEFAULT_ADDON_SECTION_TITLE = "Available Add-ons";
const DEFAULT_SHIPPING_TEXT = "Nationwide Shipping";
/** The retention step's DISCOUNT offer: percent off the next charge (docs/payments.md, "Pause and cancel"). */
const RETENTION_DISCOUNT_MESSAGE = `Retention discount must be a whole percent from ${RETENTION_DISCOUNT_PERCENT.min} to ${RETENTION_DISCOUNT_PERCENT.max}`;

const SOCIAL_KEYS = ["facebook", "instagram", "twitter", "youtube", "tiktok"] as const;
export type Social = Record<(typeof SOCIAL_KEYS)[number], string>;

/** A question with its answer as sanitised HTML (what REST and the public pages read). */
export interface Faq {
  q: string;
  a: string;
}

/** As stored: with the editor document the answer was rendered from (none for HTML from REST or older content). */
export interface FaqWithDoc extends Faq {
  aDoc: RichTextDoc | null;
}

// ── Reading stored JSON blobs ────────────────────────────────────────────────────────────────────────
const record = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Theme with every key present; an empty stored value falls back to the default. */
export function themeOf(stored: unknown): Theme {
  const t = record(stored);
  return Object.fromEntries(THEME_KEYS.map((k) => [k, str(t[k]) || DEFAULT_THEME[k]])) as Theme;
}

export function socialOf(stored: unknown): Social {
  const s = record(stored);
  return Object.fromEntries(SOCIAL_KEYS.map((k) => [k, str(s[k])])) as Social;
}

export function galleryOf(stored: unknown): { url: string }[] {
  return Array.isArray(stored) ? stored.map((g) => ({ url: str(record(g).url) })).filter((g) => g.url) : [];
}

export function faqsOf(stored: unknown): Faq[] {
  return Array.isArray(stored) ? stored.map((f) => ({ q: str(record(f).q), a: str(record(f).a) })) : [];
}

export function faqsWithDocsOf(stored: unknown): FaqWithDoc[] {
  return Array.isArray(stored) ? stored.map((f) => ({ q: str(record(f).q), a: str(record(f).a), aDoc: docOf(record(f).aDoc) })) : [];
}

/** A stored document (validated when saved), or null. */
export function docOf(stored: unknown): RichTextDoc | null {
  return stored && typeof stored === "object" && Array.isArray((stored as RichTextDoc).blocks) ? (stored as RichTextDoc) : null;
}

/** 575 → 5.75 */
export const bpsToPercent = (bps: number): number => Math.round(bps) / 100;

// ── Validation of a save ─────────────────────────────────────────────────────────────────────────────
const COLOUR = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const colourSchema = z
  .string()
  .trim()
  .refine((c) => c === "" || c.toLowerCase() === "transparent" || COLOUR.test(c), "Colours must be #rgb, #rrggbb, #rrggbbaa or transparent")
  .transform((c) => (c.toLowerCase() === "transparent" ? "transparent" : c.toLowerCase()));

const isHttpUrl = (s: string) => {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
};
/** An image address the page may show: http(s), or a path on this site such as /uploads/… (not //host). */
const isImageAddress = (s: string) => isHttpUrl(s) || /^\/(?![/\\])[^\s\\]*$/.test(s);

const socialLinkSchema = singleLine("A social link").trim().max(2048).refine((s) => s === "" || isHttpUrl(s), "Social links must start with http:// or https://");
const imageUrlSchema = singleLine("An image address").trim().max(2048).refine(isImageAddress, "Images must be http(s) addresses or uploaded files (/uploads/…)");

/** Spec §5 day messages: '{field} must be at least 1' / '{field} cannot exceed 28 (to account for February)'. */
function daySchema(label: string, max: number) {
  const tooHigh = max === 28 ? `${label} cannot exceed 28 (to account for February)` : `${label} cannot exceed ${max}`;
  return z.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`).min(1, `${label} must be at least 1`).max(max, tooHigh);
}

/**
 * An optional day (cutoff, box ready): spec §5 applies it "when it is a non-zero number", so 0, null or a
 * missing value all mean "not set" (stored as null), through GraphQL and REST alike.
 */
const optionalDaySchema = (label: string, max: number) =>
  z
    .literal(0)
    .transform(() => null)
    .or(daySchema(label, max))
    .nullish();

const windowSchema = (label: string) =>
  z
    .object({ startDay: daySchema(`${label} start day`, WINDOW_DAY_MAX), endDay: daySchema(`${label} end day`, WINDOW_DAY_MAX) })
    .refine((w) => w.startDay <= w.endDay, { message: `${label} start day must not be after its end day`, path: ["endDay"] });

export const taxPercentSchema = z
  .number({ error: "Tax rate must be a number" })
  .min(0, "Tax rate must be between 0 and 100")
  .max(TAX_PERCENT_MAX, "Tax rate must be between 0 and 100")
  .refine((r) => Math.abs(r * 100 - Math.round(r * 100)) < 1e-6, "Tax rate may have at most 2 decimals");

const HTML_MAX = 1_000_000;
/** A single-line text of the page (the editor shows one-line inputs for these). */
const line = (label: string, max: number) => singleLine(label).trim().max(max);

/**
 * A phone number people can dial: digits with the usual separators (spaces, dots, dashes, parentheses), an
 * optional leading +, 7 to 15 digits (E.164's maximum) and an optional extension ("x12" or "ext. 12").
 */
const PHONE = /^\+?[0-9(][0-9 ().-]*[0-9)](?:\s*(?:x|ext\.?)\s*[0-9]{1,6})?$/i;
const SUPPORT_PHONE_MESSAGE = "Support phone must be a phone number such as (555) 123-4567";
const supportPhoneSchema = line("Support phone", 40).refine((s) => {
  if (s === "") return true;
  const main = s.replace(/\s*(?:x|ext\.?)\s*[0-9]{1,6}$/i, "");
  const digits = main.replace(/[^0-9]/g, "").length;
  return PHONE.test(s) && digits >= 7 && digits <= 15;
}, SUPPORT_PHONE_MESSAGE);

export const FAQS_MAX = 100;
/** Most pickup points, and most delivery areas, a page lists. */
export const FULFILLMENT_POINTS_MAX = 50;

/**
 * A list of pickup points or delivery areas: blank rows dropped (the editor's empty last row), each a line of at
 * most 500 characters, no two the same (ignoring case), since members and packing lists tell them apart by name.
 */
const pointList = (label: string, plural: string) =>
  z
    .array(line(label, 500))
    .max(FULFILLMENT_POINTS_MAX, `At most ${FULFILLMENT_POINTS_MAX} ${plural.toLowerCase()}`)
    .transform((list) => list.filter(Boolean))
    .refine((list) => new Set(list.map((p) => p.toLowerCase())).size === list.length, `${plural} must each have a different name`);
/** A question with its answer: HTML, or the editor's document the HTML is rendered from. */
export const faqSchema = z.object({
  q: line("An FAQ question", 1000).default(""),
  a: z
    .string()
    .max(HTML_MAX)
    .nullish()
    .transform((a) => a ?? ""),
  answerDoc: richTextDocSchema("FAQ answer").nullish(),
});

/**
 * A full page save: the editor sends the whole content, and fields it leaves out take their §3 defaults.
 * Optional days (cutoff, box ready) are cleared by leaving them out or sending 0. The settings beyond §3 are the
 * exceptions: left out, the stored support phone, after-cutoff policy, longest pause, cancellation settings and email
 * settings are kept.
 */
export const PageContentSchema = z.object({
  brand: z.object({ name: line("Brand name", 200).nullish(), logoUrl: z.literal("").or(imageUrlSchema).nullish() }).nullish(),
  descriptionHtml: z.string().max(HTML_MAX).nullish(),
  /** The editor's document; when given, the HTML is rendered from it and descriptionHtml is ignored. */
  descriptionDoc: richTextDocSchema("Description").nullish(),
  gallery: z.array(z.object({ url: imageUrlSchema })).max(50).nullish(),
  theme: z.object(Object.fromEntries(THEME_KEYS.map((k) => [k, colourSchema.nullish()])) as Record<ThemeKey, z.ZodOptional<z.ZodNullable<typeof colourSchema>>>).nullish(),
  social: z.object(Object.fromEntries(SOCIAL_KEYS.map((k) => [k, socialLinkSchema.nullish()])) as Record<keyof Social, z.ZodOptional<z.ZodNullable<typeof socialLinkSchema>>>).nullish(),
  faqs: z.array(faqSchema).max(FAQS_MAX).nullish(),
  fulfillment: z
    .object({
      pickup: z.boolean().nullish(),
      shipping: z.boolean().nullish(),
      delivery: z.boolean().nullish(),
      /** The §3 single values: the first entry of each list (see pointsOf). */
      pickupAddress: line("Pickup address", 500).nullish(),
      shippingText: line("Shipping text", 500).nullish(),
      deliveryArea: line("Delivery area", 500).nullish(),
      /** The whole lists (the page editor). */
      pickupPoints: pointList("Pickup point", "Pickup points").nullish(),
      deliveryAreas: pointList("Delivery area", "Delivery areas").nullish(),
    })
    .nullish(),
  tax: z.object({ enabled: z.boolean().nullish(), ratePercent: taxPercentSchema.nullish() }).nullish(),
  billingDay: daySchema("Billing day", BILLING_DAY_MAX).nullish(),
  subscriptionCutoffDay: optionalDaySchema("Subscription cutoff day", CUTOFF_DAY_MAX),
  /** Sign-ups past the cutoff day: refused (spec §5, the default) or taken for next month's box; left out, the stored one is kept. */
  afterCutoff: z.enum(["REFUSE", "NEXT_MONTH"], { error: "After the cutoff day must be REFUSE or NEXT_MONTH" }).nullish(),
  boxReadyDay: optionalDaySchema("Box ready day", BOX_READY_DAY_MAX),
  skipWindow: windowSchema("Skip window").nullish(),
  changeWindow: windowSchema("Change window").nullish(),
  addonLimit: z.number({ error: "Add-on limit must be a whole number" }).int("Add-on limit must be a whole number").min(0, "Add-on limit cannot be negative").max(1000).nullish(),
  addonSectionTitle: line("Add-on section title", 200).nullish(),
  /** Shown in the portal's disabled-action note and the business footer (spec §2); empty for none. */
  supportPhone: supportPhoneSchema.nullish(),
  /** The longest pause a member may take (months; 0: no pausing); left out, the stored one is kept. */
  pauseMaxMonths: z
    .number({ error: "Longest pause must be a whole number of months" })
    .int("Longest pause must be a whole number of months")
    .min(0, `Longest pause must be between 0 and ${PAUSE_MAX_MONTHS_LIMIT} months`)
    .max(PAUSE_MAX_MONTHS_LIMIT, `Longest pause must be between 0 and ${PAUSE_MAX_MONTHS_LIMIT} months`)
    .nullish(),
  /** How members cancel: PHONE (spec §1) or SELF_SERVICE (the retention step); left out, the stored one is kept. */
  cancellationPolicy: z.enum(["PHONE", "SELF_SERVICE"], { error: "Cancellation policy must be PHONE or SELF_SERVICE" }).nullish(),
  /** The offers of the retention step (none: the member goes straight to confirming); left out, the stored ones are kept. */
  retentionOffers: z
    .array(z.enum(["SKIP", "PAUSE", "SWITCH_PLAN", "DISCOUNT"], { error: "Retention offers are SKIP, PAUSE, SWITCH_PLAN and DISCOUNT" }))
    .max(4)
    .transform((offers) => [...new Set(offers)])
    .nullish(),
  /** The DISCOUNT offer's percent; left out, the stored one is kept. */
  retentionDiscountPercent: z
    .number({ error: RETENTION_DISCOUNT_MESSAGE })
    .int(RETENTION_DISCOUNT_MESSAGE)
    .min(RETENTION_DISCOUNT_PERCENT.min, RETENTION_DISCOUNT_MESSAGE)
    .max(RETENTION_DISCOUNT_PERCENT.max, RETENTION_DISCOUNT_MESSAGE)
    .nullish(),
  /** Email settings (docs/jobs-events-mail.md, "Email"); left out, the stored ones are kept. */
  mail: z
    .object({
      senderName: line("Sender name", 100).nullish(),
      replyTo: z.union([z.literal(""), line("Reply-to address", 254).toLowerCase().pipe(z.email("Reply-to must be an email address such as help@example.com"))]).nullish(),
      windowReminder: z.boolean().nullish(),
      prechargeNotice: z.boolean().nullish(),
    })
    .nullish(),
});
export type PageContentInput = z.input<typeof PageContentSchema>;
export type PageContent = z.output<typeof PageContentSchema>;

/** The email settings given (each left out keeps its stored value). */
function mailSettingsData(m: PageContent["mail"]) {
  if (!m) return {};
  return {
    ...(m.senderName != null ? { mailSenderName: m.senderName } : {}),
    ...(m.replyTo != null ? { mailReplyTo: m.replyTo } : {}),
    ...(m.windowReminder != null ? { mailWindowReminder: m.windowReminder } : {}),
    ...(m.prechargeNotice != null ? { mailPrechargeNotice: m.prechargeNotice } : {}),
  };
}

/** The lists a page had before a save (none for a page saved for the first time). */
export interface StoredPointLists {
  pickupPoints: string[];
  deliveryAreas: string[];
}

/**
 * A list from a save. The whole list when given (the page editor). A single §3 value (a REST client, which knows
 * only the first entry) sets the first entry of the list given, else of the stored one, and keeps the rest; an
 * empty one removes it. Neither given: no entries (a full save's default).
 */
function pointsOf(list: string[] | null | undefined, single: string | null | undefined, stored: string[]): string[] {
  if (single == null) return list ?? [];
  const rest = (list ?? stored).slice(1).filter((p) => p.toLowerCase() !== single.toLowerCase());
  return single ? [single, ...rest] : rest;
}

/**
 * The stored columns of validated content: rich text rendered from its documents (or, sent as HTML only,
 * sanitised with no document), defaults filled in.
 */
export function pageData(c: PageContent, stored: StoredPointLists = { pickupPoints: [], deliveryAreas: [] }) {
  const f = c.fulfillment ?? {};
  const theme = Object.fromEntries(THEME_KEYS.map((k) => [k, c.theme?.[k] || DEFAULT_THEME[k]]));
  const description = richTextOf(c.descriptionDoc, c.descriptionHtml);
  return {
    brandName: c.brand?.name ?? "",
    logoUrl: c.brand?.logoUrl || null,
    descriptionHtml: description.html,
    descriptionDoc: description.doc,
    gallery: c.gallery ?? [],
    theme,
    social: Object.fromEntries(SOCIAL_KEYS.map((k) => [k, c.social?.[k] ?? ""])),
    faqs: (c.faqs ?? [])
      .map((f) => {
        const answer = richTextOf(f.answerDoc, f.a);
        return answer.doc ? { q: f.q, a: answer.html, aDoc: answer.doc } : { q: f.q, a: answer.html };
      })
      .filter((f) => f.q || f.a),
    pickupEnabled: f.pickup ?? true,
    shippingEnabled: f.shipping ?? false,
    deliveryEnabled: f.delivery ?? false,
    pickupPoints: pointsOf(f.pickupPoints, f.pickupAddress, stored.pickupPoints),
    shippingText: f.shippingText ?? DEFAULT_SHIPPING_TEXT,
    deliveryAreas: pointsOf(f.deliveryAreas, f.deliveryArea, stored.deliveryAreas),
    taxEnabled: c.tax?.enabled ?? false,
    taxRateBps: c.tax?.ratePercent != null ? Math.round(c.tax.ratePercent * 100) : DEFAULT_TAX_RATE_BPS,
    billingDay: c.billingDay ?? 1,
    cutoffDay: c.subscriptionCutoffDay ?? null,
    boxReadyDay: c.boxReadyDay ?? null,
    skipWindowStart: c.skipWindow?.startDay ?? DEFAULT_WINDOW.startDay,
    skipWindowEnd: c.skipWindow?.endDay ?? DEFAULT_WINDOW.endDay,
    changeWindowStart: c.changeWindow?.startDay ?? DEFAULT_WINDOW.startDay,
    changeWindowEnd: c.changeWindow?.endDay ?? DEFAULT_WINDOW.endDay,
    addonLimit: c.addonLimit ?? 0,
    addonSectionTitle: c.addonSectionTitle || DEFAULT_ADDON_SECTION_TITLE,
    // Left out (a client that predates it, such as a §3 REST save), the stored number stays; null or "" clears it.
    ...(c.supportPhone !== undefined ? { supportPhone: c.supportPhone ?? "" } : {}),
    // Likewise: a save that leaves them out (a §3 REST save) keeps the stored policies, longest pause and offers.
    ...(c.afterCutoff != null ? { afterCutoff: c.afterCutoff } : {}),
    ...(c.pauseMaxMonths != null ? { pauseMaxMonths: c.pauseMaxMonths } : {}),
    ...(c.cancellationPolicy != null ? { cancellationPolicy: c.cancellationPolicy } : {}),
    ...(c.retentionOffers != null ? { retentionOffers: c.retentionOffers } : {}),
    ...(c.retentionDiscountPercent != null ? { retentionDiscountPercent: c.retentionDiscountPercent } : {}),
    ...mailSettingsData(c.mail),
  } satisfies Partial<Record<keyof Page, unknown>>;
}
