import { builder } from "../builder.ts";
import { can } from "../../auth/policy.ts";
import { payloadQuery } from "../payload-query.ts";
import { COMMON_ERRORS } from "../errors.ts";
import type { Page } from "../../generated/prisma/client.ts";
import { AddonInputRef, PlanInputRef } from "./catalog.ts";
import { bpsToPercent, docOf, FULFILLMENT_POINTS_MAX, faqsWithDocsOf, galleryOf, socialOf, themeOf, type FaqWithDoc, type Social } from "../../pages/content.ts";
import type { Theme } from "../../shared/theme.ts";
import * as pages from "../../pages/service.ts";
import { platformStats, type PlatformStats } from "../../pages/platform-stats.ts";

// ── Output: page content (spec §3) ───────────────────────────────────────────────────────────────────

const AfterCutoffEnum = builder.enumType("AfterCutoff", {
  description: "What a business page does with sign-ups past its cutoff day.",
  values: {
    REFUSE: { description: "Spec §5: refused with §8's message until next month (the default)." },
    NEXT_MONTH: { description: "Taken for next month's box: the card is saved today, the first charge is on next month's billing day." },
  } as const,
});

const CancellationPolicyEnum = builder.enumType("CancellationPolicy", {
  description: "How members of a business cancel.",
  values: {
    PHONE: { description: "By phone (spec §1, the default): the portal shows the support phone; the cancel mutations are refused (cancel_by_phone)." },
    SELF_SERVICE: { description: "From their membership page: a reason, the retention offers, then the cancel after the paid-through month." },
  } as const,
});

export const RetentionOfferEnum = builder.enumType("RetentionOffer", {
  description: "What the cancel flow may offer instead of canceling.",
  values: {
    SKIP: { description: "Skip the next box's month (skipMonth)." },
    PAUSE: { description: "Pause for 1 to pauseMaxMonths months (pauseMembership)." },
    SWITCH_PLAN: { description: "Change to a cheaper listed plan (the web goes to /b/{slug}?change=true)." },
    DISCOUNT: { description: "retentionDiscountPercent off the next charge, once." },
  } as const,
});

const BrandRef = builder.objectRef<{ name: string; logoUrl: string | null }>("PageBrand").implement({
  fields: (t) => ({ name: t.exposeString("name"), logoUrl: t.exposeString("logoUrl", { nullable: true }) }),
});

const GalleryImageRef = builder.objectRef<{ url: string }>("GalleryImage").implement({
  fields: (t) => ({ url: t.exposeString("url") }),
});

const ThemeRef = builder.objectRef<Theme>("PageTheme").implement({
  description: "Theme colours with defaults filled in; the footer button colours are empty unless set.",
  fields: (t) => ({
    primary: t.exposeString("primary"),
    selection: t.exposeString("selection"),
    primaryText: t.exposeString("primaryText"),
    buttonBorder: t.exposeString("buttonBorder"),
    pageBg: t.exposeString("pageBg"),
    footerButtonBg: t.exposeString("footerButtonBg"),
    footerButtonText: t.exposeString("footerButtonText"),
    footerButtonBorder: t.exposeString("footerButtonBorder"),
  }),
});

const SocialRef = builder.objectRef<Social>("SocialLinks").implement({
  fields: (t) => ({
    facebook: t.exposeString("facebook"),
    instagram: t.exposeString("instagram"),
    twitter: t.exposeString("twitter"),
    youtube: t.exposeString("youtube"),
    tiktok: t.exposeString("tiktok"),
  }),
});

const DOC_DESCRIPTION = "The Editor.js document (OutputData) the HTML was rendered from; null when the HTML came from REST or older content.";

const FaqRef = builder.objectRef<FaqWithDoc>("Faq").implement({
  fields: (t) => ({
    q: t.exposeString("q"),
    a: t.exposeString("a", { description: "Sanitised HTML." }),
    answerDoc: t.field({ type: "JSON", nullable: true, description: DOC_DESCRIPTION, resolve: (f) => f.aDoc }),
  }),
});

const FulfillmentRef = builder.objectRef<Page>("PageFulfillment").implement({
  fields: (t) => ({
    pickup: t.exposeBoolean("pickupEnabled"),
    shipping: t.exposeBoolean("shippingEnabled"),
    delivery: t.exposeBoolean("deliveryEnabled"),
    pickupPoints: t.exposeStringList("pickupPoints", { description: "Where members may collect their box, in the owner's order." }),
    deliveryAreas: t.exposeStringList("deliveryAreas", { description: "Areas the business delivers to, in the owner's order." }),
    pickupAddress: t.string({ description: "The first pickup point (\"\" when none).", resolve: (p) => p.pickupPoints[0] ?? "" }),
    shippingText: t.exposeString("shippingText"),
    deliveryArea: t.string({ description: "The first delivery area (\"\" when none).", resolve: (p) => p.deliveryAreas[0] ?? "" }),
  }),
});

const TaxRef = builder.objectRef<Page>("PageTax").implement({
  fields: (t) => ({
    enabled: t.exposeBoolean("taxEnabled"),
    ratePercent: t.float({ description: "Percent with at most 2 decimals (5.75).", resolve: (p) => bpsToPercent(p.taxRateBps) }),
    rateBps: t.exposeInt("taxRateBps", { description: "Basis points (575 = 5.75 %)." }),
  }),
});

const DayWindowRef = builder.objectRef<{ startDay: number; endDay: number }>("DayWindow").implement({
  description: "Days of the month (1–28), inclusive.",
  fields: (t) => ({ startDay: t.exposeInt("startDay"), endDay: t.exposeInt("endDay") }),
});

const MailSettingsRef = builder
  .objectRef<{ mailSenderName: string; mailReplyTo: string; mailWindowReminder: boolean; mailPrechargeNotice: boolean }>("PageMailSettings")
  .implement({
    description: "A business's email settings (docs/jobs-events-mail.md, \"Email\").",
    fields: (t) => ({
      senderName: t.exposeString("mailSenderName", { description: "The From name; empty: the brand name." }),
      replyTo: t.exposeString("mailReplyTo", { description: "The Reply-To address; empty: none." }),
      windowReminder: t.exposeBoolean("mailWindowReminder", { description: "Members get the reminder 3 days before the skip/change window closes." }),
      prechargeNotice: t.exposeBoolean("mailPrechargeNotice", { description: "Members get the notice 3 days before a charge." }),
    }),
  });

const PageMailSettingsInput = builder.inputType("PageMailSettingsInput", {
  fields: (t) => ({
    senderName: t.string(),
    replyTo: t.string({ description: "An email address; empty for none." }),
    windowReminder: t.boolean(),
    prechargeNotice: t.boolean(),
  }),
});

/** Public content of the home page or of a business page. */
builder.prismaObject("Page", {
  fields: (t) => ({
    brand: t.field({ type: BrandRef, resolve: (p) => ({ name: p.brandName, logoUrl: p.logoUrl }) }),
    brandName: t.exposeString("brandName"),
    descriptionHtml: t.exposeString("descriptionHtml", { description: "Sanitised HTML." }),
    descriptionDoc: t.field({ type: "JSON", nullable: true, description: DOC_DESCRIPTION, resolve: (p) => docOf(p.descriptionDoc) }),
    gallery: t.field({ type: [GalleryImageRef], description: "The first image is the primary one.", resolve: (p) => galleryOf(p.gallery) }),
    theme: t.field({ type: ThemeRef, resolve: (p) => themeOf(p.theme) }),
    social: t.field({ type: SocialRef, resolve: (p) => socialOf(p.social) }),
    faqs: t.field({ type: [FaqRef], resolve: (p) => faqsWithDocsOf(p.faqs) }),
    fulfillment: t.field({ type: FulfillmentRef, resolve: (p) => p }),
    tax: t.field({ type: TaxRef, resolve: (p) => p }),
    billingDay: t.exposeInt("billingDay"),
    subscriptionCutoffDay: t.exposeInt("cutoffDay", { nullable: true }),
    boxReadyDay: t.exposeInt("boxReadyDay", { nullable: true }),
    skipWindow: t.field({ type: DayWindowRef, resolve: (p) => ({ startDay: p.skipWindowStart, endDay: p.skipWindowEnd }) }),
    changeWindow: t.field({ type: DayWindowRef, resolve: (p) => ({ startDay: p.changeWindowStart, endDay: p.changeWindowEnd }) }),
    addonLimit: t.exposeInt("addonLimit", { description: "0 = unlimited." }),
    addonSectionTitle: t.exposeString("addonSectionTitle"),
    supportPhone: t.exposeString("supportPhone", { description: "Support phone for the portal's disabled-action note and the footer (spec §2); empty when not set." }),
    pauseMaxMonths: t.exposeInt("pauseMaxMonths", { description: "The longest pause a member may take, in months (consecutive skips from the next box); 0: members cannot pause." }),
    cancellationPolicy: t.field({
      type: CancellationPolicyEnum,
      description: "How members cancel: PHONE (spec §1: by phone, the default) or SELF_SERVICE (from their membership page, with the retention offers).",
      resolve: (p) => p.cancellationPolicy,
    }),
    retentionOffers: t.field({
      type: [RetentionOfferEnum],
      nullable: true,
      description: "What the cancel flow may offer (editors of the business, administrators); null for others: a member sees the offers only when asking to cancel.",
      select: { businessId: true, retentionOffers: true },
      resolve: async (p, _a, ctx) => (p.businessId !== null && (await can(ctx, p.businessId, "editContent")) ? p.retentionOffers : null),
    }),
    retentionDiscountPercent: t.int({
      nullable: true,
      description: "The DISCOUNT offer's percent off the next charge, 5 to 50 (editors of the business, administrators); null for others.",
      select: { businessId: true, retentionDiscountPercent: true },
      resolve: async (p, _a, ctx) => (p.businessId !== null && (await can(ctx, p.businessId, "editContent")) ? p.retentionDiscountPercent : null),
    }),
    afterCutoff: t.field({
      type: AfterCutoffEnum,
      description: "Sign-ups past the cutoff day: REFUSE (spec §5 and §8) or NEXT_MONTH (the card is saved, the first box and charge are next month's).",
      resolve: (p) => p.afterCutoff,
    }),
    mail: t.field({
      type: MailSettingsRef,
      nullable: true,
      description: "Email settings of a business page (editors of the business, administrators); null for others and the home page.",
      select: { businessId: true, mailSenderName: true, mailReplyTo: true, mailWindowReminder: true, mailPrechargeNotice: true },
      resolve: async (p, _a, ctx) => (p.businessId !== null && (await can(ctx, p.businessId, "editContent")) ? p : null),
    }),
    isHome: t.boolean({ resolve: (p) => p.isHome === true }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

builder.prismaObject("NextBox", {
  description: "The per-business note about the next box (public).",
  fields: (t) => ({
    contentHtml: t.exposeString("contentHtml", { description: "Sanitised HTML." }),
    contentDoc: t.field({ type: "JSON", nullable: true, description: DOC_DESCRIPTION, resolve: (b) => docOf(b.contentDoc) }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

// ── Input: a page save ───────────────────────────────────────────────────────────────────────────────

const BrandInput = builder.inputType("PageBrandInput", {
  fields: (t) => ({ name: t.string(), logoUrl: t.string() }),
});
const GalleryImageInput = builder.inputType("GalleryImageInput", {
  fields: (t) => ({ url: t.string({ required: true }) }),
});
const ThemeInput = builder.inputType("PageThemeInput", {
  description: "Colours as #rgb, #rrggbb, #rrggbbaa, 'transparent' or empty (default).",
  fields: (t) => ({
    primary: t.string(),
    selection: t.string(),
    primaryText: t.string(),
    buttonBorder: t.string(),
    pageBg: t.string(),
    footerButtonBg: t.string(),
    footerButtonText: t.string(),
    footerButtonBorder: t.string(),
  }),
});
const SocialInput = builder.inputType("SocialLinksInput", {
  description: "http(s) addresses or empty.",
  fields: (t) => ({ facebook: t.string(), instagram: t.string(), twitter: t.string(), youtube: t.string(), tiktok: t.string() }),
});
const DOC_INPUT_DESCRIPTION = "The Editor.js document (OutputData: paragraph, header, list and image blocks). When given, the HTML is rendered from it on the server and the HTML field is ignored.";
const HTML_INPUT_DESCRIPTION = "HTML for clients without the document; sanitised on save, and any stored document is cleared.";

const FaqInput = builder.inputType("FaqInput", {
  fields: (t) => ({
    q: t.string({ required: true }),
    a: t.string({ description: HTML_INPUT_DESCRIPTION }),
    answerDoc: t.field({ type: "JSON", description: DOC_INPUT_DESCRIPTION }),
  }),
});
const FulfillmentInput = builder.inputType("PageFulfillmentInput", {
  fields: (t) => ({
    pickup: t.boolean(),
    shipping: t.boolean(),
    delivery: t.boolean(),
    pickupAddress: t.string({ description: "Replaces the first pickup point, keeping the others (of pickupPoints when given, else of the stored list); empty removes it. The page editor sends pickupPoints only." }),
    shippingText: t.string(),
    deliveryArea: t.string({ description: "Replaces the first delivery area, keeping the others (of deliveryAreas when given, else of the stored list); empty removes it. The page editor sends deliveryAreas only." }),
    pickupPoints: t.stringList({ description: `The whole list (at most ${FULFILLMENT_POINTS_MAX}; blank entries are dropped, names must differ).` }),
    deliveryAreas: t.stringList({ description: `The whole list (at most ${FULFILLMENT_POINTS_MAX}; blank entries are dropped, names must differ).` }),
  }),
});
const TaxInput = builder.inputType("PageTaxInput", {
  fields: (t) => ({ enabled: t.boolean(), ratePercent: t.float({ description: "0 to 100, at most 2 decimals." }) }),
});
const DayWindowInput = builder.inputType("DayWindowInput", {
  fields: (t) => ({ startDay: t.int({ required: true }), endDay: t.int({ required: true }) }),
});

const PageContentInput = builder.inputType("PageContentInput", {
  description: "The whole page content: fields left out take their defaults (the editor always sends everything).",
  fields: (t) => ({
    brand: t.field({ type: BrandInput }),
    descriptionHtml: t.string({ description: HTML_INPUT_DESCRIPTION }),
    descriptionDoc: t.field({ type: "JSON", description: DOC_INPUT_DESCRIPTION }),
    gallery: t.field({ type: [GalleryImageInput] }),
    theme: t.field({ type: ThemeInput }),
    social: t.field({ type: SocialInput }),
    faqs: t.field({ type: [FaqInput] }),
    fulfillment: t.field({ type: FulfillmentInput }),
    tax: t.field({ type: TaxInput }),
    billingDay: t.int({ description: "1 to 28 (default 1)." }),
    subscriptionCutoffDay: t.int({ description: "1 to 31; 0 or empty for no cutoff." }),
    boxReadyDay: t.int({ description: "1 to 28; 0 or empty for none." }),
    skipWindow: t.field({ type: DayWindowInput }),
    changeWindow: t.field({ type: DayWindowInput }),
    addonLimit: t.int({ description: "0 = unlimited." }),
    addonSectionTitle: t.string(),
    supportPhone: t.string({ description: "A phone number (7 to 15 digits, optional +, spaces, dots, dashes, parentheses and extension); empty for none." }),
    afterCutoff: t.field({ type: AfterCutoffEnum, description: "Left out, the stored policy is kept." }),
    pauseMaxMonths: t.int({ description: "0 to 12 months; 0: members cannot pause. Left out, the stored value is kept (default 3)." }),
    cancellationPolicy: t.field({ type: CancellationPolicyEnum, description: "Left out, the stored policy is kept (default PHONE)." }),
    retentionOffers: t.field({ type: [RetentionOfferEnum], description: "The whole list (empty: no offers). Left out, the stored list is kept (default SKIP, PAUSE, SWITCH_PLAN)." }),
    retentionDiscountPercent: t.int({ description: "5 to 50. Left out, the stored value is kept (default 10)." }),
    mail: t.field({ type: PageMailSettingsInput, description: "Email settings (business pages); left out, the stored ones are kept." }),
  }),
});

const SaveBusinessPageInput = builder.inputType("SaveBusinessPageInput", {
  fields: (t) => ({
    businessId: t.int({ required: true }),
    content: t.field({ type: PageContentInput, required: true }),
    plans: t.field({ type: [PlanInputRef], description: "The whole plan list in display order; plans left out are archived. Omit to keep the plans as they are." }),
    addons: t.field({ type: [AddonInputRef], description: "The whole add-on list in display order; add-ons left out are archived. Omit to keep them." }),
  }),
});

const SaveHomePageInput = builder.inputType("SaveHomePageInput", {
  fields: (t) => ({ content: t.field({ type: PageContentInput, required: true }) }),
});

const SaveNextBoxInput = builder.inputType("SaveNextBoxInput", {
  description: "One of contentDoc and contentHtml.",
  fields: (t) => ({
    businessId: t.int({ required: true }),
    contentHtml: t.string({ description: HTML_INPUT_DESCRIPTION }),
    contentDoc: t.field({ type: "JSON", description: DOC_INPUT_DESCRIPTION }),
  }),
});

const PlatformStatsRef = builder.objectRef<PlatformStats>("PlatformStats").implement({
  description: "The home page's stats block, counted from the database (definitions in api/pages/platform-stats.ts).",
  fields: (t) => ({
    businesses: t.exposeInt("businesses", { description: "Businesses on the public businesses list." }),
    members: t.exposeInt("members", { description: "People with at least one active or past-due membership (a member of two businesses counts once)." }),
    boxesDelivered: t.exposeInt("boxesDelivered", { description: "Paid boxes whose box-ready day has come, fully refunded ones left out." }),
  }),
});

builder.queryFields((t) => ({
  homePage: t.prismaField({
    type: "Page",
    description: "Content of the main home page.",
    resolve: (query, _p, _a, ctx) => pages.homePage(ctx, payloadQuery(query)),
  }),
  platformStats: t.field({
    type: PlatformStatsRef,
    description: "Figures of the whole platform for the home page, for anyone.",
    resolve: (_p, _a, ctx) => platformStats(ctx),
  }),
}));

builder.mutationFields((t) => ({
  saveBusinessPage: t.prismaField({
    type: "Business",
    description: "Saves a business page with its plans and add-ons in one transaction (editors, owners, admins).",
    errors: { types: COMMON_ERRORS },
    args: { input: t.arg({ type: SaveBusinessPageInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const business = await pages.saveBusinessPage(ctx, input);
      return ctx.db.business.findUniqueOrThrow({ ...payloadQuery(query), where: { id: business.id } });
    },
  }),
  saveHomePage: t.prismaField({
    type: "Page",
    description: "Saves the main home page content (admins).",
    errors: { types: COMMON_ERRORS },
    args: { input: t.arg({ type: SaveHomePageInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const page = await pages.saveHomePage(ctx, input);
      return ctx.db.page.findUniqueOrThrow({ ...payloadQuery(query), where: { id: page.id } });
    },
  }),
  saveNextBox: t.prismaField({
    type: "NextBox",
    errors: { types: COMMON_ERRORS },
    args: { input: t.arg({ type: SaveNextBoxInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const box = await pages.saveNextBox(ctx, input);
      return ctx.db.nextBox.findUniqueOrThrow({ ...payloadQuery(query), where: { id: box.id } });
    },
  }),
}));
