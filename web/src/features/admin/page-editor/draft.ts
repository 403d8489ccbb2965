import { graphql, readInlineData } from "react-relay";
import type { draft_page$key } from "./__generated__/draft_page.graphql.ts";
import type { draft_plan$key } from "./__generated__/draft_plan.graphql.ts";
import type { draft_addon$key } from "./__generated__/draft_addon.graphql.ts";
import type { RichTextDoc } from "../richtext/blocksHtml.ts";
import { readFulfillment, readSocialLinks, type Fulfillment, type SocialLinks } from "../../business-page/pageShapes.ts";
import type { FulfillmentModeName } from "@shared/fulfillment.ts";
import { dollarsToCents as typedDollarsToCents } from "@shared/money.ts";
import { DEFAULT_THEME, type Theme } from "@shared/theme.ts";

/** A package (plan) as the editor holds it: prices per mode in cents, null when the mode is not offered. */
export interface ItemDraft {
  /** The server's ref (item_…); null until the first save. */
  ref: string | null;
  /** Stable key in the editor: the ref, or item_{timestamp} for a new one (spec §3). */
  key: string;
  name: string;
  description: string;
  pickupCents: number | null;
  shippingCents: number | null;
  deliveryCents: number | null;
  /** Selected: shown on the business page. */
  listed: boolean;
  /** "Maximum members" of the plan across its modes, and per mode; null = no limit. */
  capacity: number | null;
  modeCapacity: Record<FulfillmentModeName, number | null>;
}

export interface AddonDraft {
  ref: string | null;
  key: string;
  name: string;
  description: string;
  amountCents: number;
  listed: boolean;
}

interface FaqDraft {
  key: string;
  q: string;
  /** The answer's HTML: the server's, then the editor's rendering of aDoc (previews). */
  a: string;
  /** The answer's Editor.js document: what is saved. Null when the stored answer is HTML only. */
  aDoc: RichTextDoc | null;
}

export interface PageDraft {
  brand: { name: string; logoUrl: string };
  /** HTML for the previews: the server's, then the editor's rendering of descriptionDoc. */
  descriptionHtml: string;
  /** The description's Editor.js document: what is saved. Null when the stored description is HTML only. */
  descriptionDoc: RichTextDoc | null;
  gallery: string[];
  theme: Theme;
  social: SocialLinks;
  items: ItemDraft[];
  addons: AddonDraft[];
  addonLimit: number;
  addonSectionTitle: string;
  fulfillment: Fulfillment;
  tax: { enabled: boolean; ratePercent: number };
  subscriptionCutoffDay: number | null;
  /** Sign-ups past the cutoff day: refused until next month, or taken for next month's box. */
  afterCutoff: AfterCutoffPolicy;
  boxReadyDay: number | null;
  billingDay: number | null;
  skipWindow: { startDay: number | null; endDay: number | null };
  changeWindow: { startDay: number | null; endDay: number | null };
  /** Shown in the portal's disabled-action note and the business footer; "" for none. */
  supportPhone: string;
  /** The longest pause a member may take (months, 0 to 12; 0: no pausing); null while the field is empty. */
  pauseMaxMonths: number | null;
  faqs: FaqDraft[];
  /** A business's email settings (sender name, reply-to, optional messages); null for the home page. */
  mail: MailDraft | null;
  /** How a business's members cancel and what it offers them first; null for the home page. */
  cancellation: CancellationDraft | null;
}

/** GraphQL CancellationPolicy: by phone (spec §1, the default) or from the membership page. */
export type CancellationPolicy = "PHONE" | "SELF_SERVICE";
/** GraphQL RetentionOffer: what the cancel flow may offer instead of cancelling. */
export type RetentionOffer = "SKIP" | "PAUSE" | "SWITCH_PLAN" | "DISCOUNT";
const RETENTION_OFFERS: readonly RetentionOffer[] = ["SKIP", "PAUSE", "SWITCH_PLAN", "DISCOUNT"];

export interface CancellationDraft {
  policy: CancellationPolicy;
  /** The offers in the order the server lists them. */
  offers: RetentionOffer[];
  /** The DISCOUNT offer's percent (5 to 50); null while the field is empty. */
  discountPercent: number | null;
}

export interface MailDraft {
  /** The From name; "" uses the brand name. */
  senderName: string;
  /** "" for none. */
  replyTo: string;
  windowReminder: boolean;
  prechargeNotice: boolean;
}

/** What a page does with sign-ups past its cutoff day (GraphQL AfterCutoff). */
export type AfterCutoffPolicy = "REFUSE" | "NEXT_MONTH";

/** The stored policy; REFUSE (the server's default) for none or one this editor does not know. */
export function afterCutoffPolicy(value: string | null | undefined): AfterCutoffPolicy {
  return value === "NEXT_MONTH" ? "NEXT_MONTH" : "REFUSE";
}

const DEFAULT_ADDON_SECTION_TITLE = "Available Add-ons";

let sequence = 0;
/** Spec §3 ids for new entries: item_{timestamp}, addon_{timestamp} (a counter keeps quick adds distinct). */
export function newKey(prefix: "item" | "addon" | "faq"): string {
  sequence += 1;
  return `${prefix}_${Date.now()}${sequence > 1 ? `_${sequence}` : ""}`;
}

export function pageDraftFrom(pageKey: draft_page$key | null, planKeys: readonly draft_plan$key[] = [], addonKeys: readonly draft_addon$key[] = []): PageDraft {
  const page = pageKey
    ? readInlineData(
        graphql`
          fragment draft_page on Page @inline {
            brand {
              name
              logoUrl
            }
            descriptionHtml
            descriptionDoc
            gallery {
              url
            }
            theme {
              primary
              selection
              primaryText
              buttonBorder
              pageBg
              footerButtonBg
              footerButtonText
              footerButtonBorder
            }
            social {
              ...pageShapes_social
            }
            addonLimit
            addonSectionTitle
            fulfillment {
              ...pageShapes_fulfillment
            }
            tax {
              enabled
              ratePercent
            }
            subscriptionCutoffDay
            afterCutoff
            boxReadyDay
            billingDay
            skipWindow {
              startDay
              endDay
            }
            changeWindow {
              startDay
              endDay
            }
            supportPhone
            pauseMaxMonths
            cancellationPolicy
            # Null for the home page (and for anyone but the business's editors).
            retentionOffers
            retentionDiscountPercent
            mail {
              senderName
              replyTo
              windowReminder
              prechargeNotice
            }
            faqs {
              q
              a
              answerDoc
            }
          }
        `,
        pageKey,
      )
    : null;
  const items = planKeys.map((key): ItemDraft => {
    const plan = readInlineData(
      graphql`
        fragment draft_plan on Plan @inline {
          ref
          name
          description
          listed
          capacity
          variations {
            mode
            amountCents
            capacity
          }
        }
      `,
      key,
    );
    const price = (mode: string) => plan.variations.find((v) => v.mode === mode)?.amountCents ?? null;
    const capacity = (mode: string) => plan.variations.find((v) => v.mode === mode)?.capacity ?? null;
    return {
      ref: plan.ref,
      key: plan.ref,
      name: plan.name,
      description: plan.description,
      pickupCents: price("PICKUP"),
      shippingCents: price("SHIPPING"),
      deliveryCents: price("DELIVERY"),
      listed: plan.listed,
      capacity: plan.capacity ?? null,
      modeCapacity: { pickup: capacity("PICKUP"), shipping: capacity("SHIPPING"), delivery: capacity("DELIVERY") },
    };
  });
  const addons = addonKeys.map((key): AddonDraft => {
    const addon = readInlineData(
      graphql`
        fragment draft_addon on Addon @inline {
          ref
          name
          description
          amountCents
          listed
        }
      `,
      key,
    );
    return { ref: addon.ref, key: addon.ref, name: addon.name, description: addon.description, amountCents: addon.amountCents, listed: addon.listed };
  });
  return {
    brand: { name: page?.brand.name ?? "", logoUrl: page?.brand.logoUrl ?? "" },
    descriptionHtml: page?.descriptionHtml ?? "",
    descriptionDoc: (page?.descriptionDoc as RichTextDoc | null | undefined) ?? null,
    gallery: page?.gallery.map((g) => g.url) ?? [],
    theme: {
      primary: page?.theme.primary ?? DEFAULT_THEME.primary,
      selection: page?.theme.selection ?? DEFAULT_THEME.selection,
      primaryText: page?.theme.primaryText ?? DEFAULT_THEME.primaryText,
      buttonBorder: page?.theme.buttonBorder ?? DEFAULT_THEME.buttonBorder,
      pageBg: page?.theme.pageBg ?? DEFAULT_THEME.pageBg,
      footerButtonBg: page?.theme.footerButtonBg ?? DEFAULT_THEME.footerButtonBg,
      footerButtonText: page?.theme.footerButtonText ?? DEFAULT_THEME.footerButtonText,
      footerButtonBorder: page?.theme.footerButtonBorder ?? DEFAULT_THEME.footerButtonBorder,
    },
    social: readSocialLinks(page?.social),
    items,
    addons,
    addonLimit: page?.addonLimit ?? 0,
    addonSectionTitle: page?.addonSectionTitle || DEFAULT_ADDON_SECTION_TITLE,
    fulfillment: readFulfillment(page?.fulfillment),
    tax: { enabled: page?.tax.enabled ?? false, ratePercent: page?.tax.ratePercent ?? 5.75 },
    subscriptionCutoffDay: page?.subscriptionCutoffDay ?? null,
    afterCutoff: afterCutoffPolicy(page?.afterCutoff),
    boxReadyDay: page?.boxReadyDay ?? null,
    billingDay: page?.billingDay ?? 1,
    skipWindow: { startDay: page?.skipWindow.startDay ?? 1, endDay: page?.skipWindow.endDay ?? 14 },
    changeWindow: { startDay: page?.changeWindow.startDay ?? 1, endDay: page?.changeWindow.endDay ?? 14 },
    supportPhone: page?.supportPhone ?? "",
    // The server's default (3) for a page not saved yet.
    pauseMaxMonths: page ? page.pauseMaxMonths : null,
    faqs: page?.faqs.map((f, i) => ({ key: `faq_${i}`, q: f.q, a: f.a, aDoc: (f.answerDoc as RichTextDoc | null | undefined) ?? null })) ?? [],
    mail: page?.mail ? { senderName: page.mail.senderName, replyTo: page.mail.replyTo, windowReminder: page.mail.windowReminder, prechargeNotice: page.mail.prechargeNotice } : null,
    cancellation: page?.retentionOffers
      ? {
          policy: page.cancellationPolicy === "SELF_SERVICE" ? "SELF_SERVICE" : "PHONE",
          offers: RETENTION_OFFERS.filter((o) => page.retentionOffers?.includes(o)),
          discountPercent: page.retentionDiscountPercent ?? null,
        }
      : null,
  };
}

/** The offers with `offer` turned on or off, in the server's order. */
export function withOffer(offers: readonly RetentionOffer[], offer: RetentionOffer, on: boolean): RetentionOffer[] {
  return RETENTION_OFFERS.filter((o) => (o === offer ? on : offers.includes(o)));
}

/**
 * The cancellation settings as the page save takes them. The discount goes only with the DISCOUNT offer and only when
 * typed (whole; the server refuses one outside 5 to 50, under the field): left out, the server keeps the stored one.
 */
function cancellationInput(c: CancellationDraft) {
  const percent = c.offers.includes("DISCOUNT") && c.discountPercent !== null && Number.isFinite(c.discountPercent) ? Math.round(c.discountPercent) : null;
  return { cancellationPolicy: c.policy, retentionOffers: c.offers, ...(percent !== null ? { retentionDiscountPercent: percent } : {}) };
}

/**
 * The page content the save mutations take (days already clamped by the caller). Rich text goes as its
 * document, which the server renders; as HTML only while no editor has made one (the document alone keeps
 * embedded images from being sent twice).
 */
export function contentInput(draft: PageDraft) {
  return {
    brand: { name: draft.brand.name.trim(), logoUrl: draft.brand.logoUrl.trim() || null },
    ...(draft.descriptionDoc ? { descriptionDoc: draft.descriptionDoc } : { descriptionHtml: draft.descriptionHtml }),
    gallery: draft.gallery.map((url) => ({ url })),
    theme: draft.theme,
    social: draft.social,
    addonLimit: Math.max(0, Math.round(draft.addonLimit || 0)),
    addonSectionTitle: draft.addonSectionTitle.trim() || DEFAULT_ADDON_SECTION_TITLE,
    fulfillment: draft.fulfillment,
    tax: { enabled: draft.tax.enabled, ratePercent: Math.min(100, Math.max(0, Math.round((draft.tax.ratePercent || 0) * 100) / 100)) },
    subscriptionCutoffDay: draft.subscriptionCutoffDay || null,
    afterCutoff: draft.afterCutoff,
    boxReadyDay: draft.boxReadyDay,
    billingDay: draft.billingDay ?? 1,
    skipWindow: { startDay: draft.skipWindow.startDay ?? 1, endDay: draft.skipWindow.endDay ?? 14 },
    changeWindow: { startDay: draft.changeWindow.startDay ?? 1, endDay: draft.changeWindow.endDay ?? 14 },
    supportPhone: draft.supportPhone.trim(),
    // Whole months; the server refuses one outside 0 to 12 (under the field). Empty keeps the stored value.
    pauseMaxMonths: draft.pauseMaxMonths === null || !Number.isFinite(draft.pauseMaxMonths) ? null : Math.round(draft.pauseMaxMonths),
    faqs: draft.faqs.filter((f) => f.q.trim()).map((f) => ({ q: f.q.trim(), ...(f.aDoc ? { answerDoc: f.aDoc } : { a: f.a }) })),
    // Only a business page has them (left out, the server keeps the stored ones).
    ...(draft.mail ? { mail: { senderName: draft.mail.senderName.trim(), replyTo: draft.mail.replyTo.trim(), windowReminder: draft.mail.windowReminder, prechargeNotice: draft.mail.prechargeNotice } } : {}),
    ...(draft.cancellation ? cancellationInput(draft.cancellation) : {}),
  };
}

export function planInputs(draft: PageDraft) {
  return draft.items.map((item) => ({
    ref: item.ref,
    name: item.name,
    description: item.description,
    pickupCents: item.pickupCents,
    shippingCents: item.shippingCents,
    deliveryCents: item.deliveryCents,
    listed: item.listed,
    capacity: item.capacity,
    pickupCapacity: item.modeCapacity.pickup,
    shippingCapacity: item.modeCapacity.shipping,
    deliveryCapacity: item.modeCapacity.delivery,
  }));
}

export function addonInputs(draft: PageDraft) {
  return draft.addons.map((addon) => ({ ref: addon.ref, name: addon.name, description: addon.description, amountCents: addon.amountCents, listed: addon.listed }));
}

/** Spec §5 item save: a price is a non-negative number in dollars, else empty; stored as rounded cents. */
export function dollarsToCents(value: string): number | null {
  const cents = typedDollarsToCents(value);
  return cents === null || cents < 0 ? null : cents;
}

export function centsToDollars(cents: number | null): string {
  return cents === null ? "" : (cents / 100).toFixed(2);
}

/** Making an image primary moves it to the front (spec §4). */
export function makePrimary(gallery: string[], index: number): string[] {
  if (index <= 0 || index >= gallery.length) return gallery;
  return [gallery[index], ...gallery.slice(0, index), ...gallery.slice(index + 1)];
}
