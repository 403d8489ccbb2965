import { graphql, readInlineData } from "react-relay";
import { MODE_NAMES, MODE_ORDER, toModeCode } from "@shared/fulfillment.ts";
import type { BusinessRouteQuery$rawResponse } from "../../../routes/__generated__/BusinessRouteQuery.graphql.ts";
import type { previewPage_business$key } from "./__generated__/previewPage_business.graphql.ts";
import { contentInput, type PageDraft } from "./draft.ts";

/**
 * What only the server knows of a business, for its preview: the business row (name, member count) and what it
 * works out for today from the saved page (the cutoff notice, a next-month sign-up, sold-out plans).
 */
const previewFactsFragment = graphql`
  fragment previewPage_business on Business @inline {
    id
    name
    memberCount
    acceptingMembers
    checkoutClosedMessage
    signupStartsNextMonth
    signupFirstPeriod
    signupFirstChargeDate
    plans(first: 50) {
      edges {
        node {
          ref
          soldOut
          soldOutModes
        }
      }
    }
  }
`;

/** Today as the server would say it for a business it does not know (the home page's preview tenant). */
function today(now: Date) {
  const iso = now.toISOString().slice(0, 10);
  return { period: iso.slice(0, 7), date: iso };
}

/**
 * The live business page's query response (BusinessRouteQuery) for the unsaved draft: the page, its listed plans
 * and add-ons as the server would send them after a save, with the server's facts of the saved business. The
 * preview commits it to a Relay store of its own and renders the live page's components from it, so both show
 * one layout. No viewer: the preview is what a visitor sees.
 */
export function previewResponse(slug: string, draft: PageDraft, factsKey: previewPage_business$key | null, now = new Date()): BusinessRouteQuery$rawResponse {
  const facts = factsKey ? readInlineData(previewFactsFragment, factsKey) : null;
  // The content as a save would send it (trimmed, defaults filled, days as stored), then as the server renders it.
  const content = contentInput(draft);
  const soldOut = new Map(facts?.plans.edges.map((e) => [e.node.ref, e.node]));
  const plans = draft.items
    .filter((item) => item.listed)
    .map((item) => {
      const ref = item.ref ?? item.key;
      const prices = { pickup: item.pickupCents, shipping: item.shippingCents, delivery: item.deliveryCents };
      const variations = MODE_ORDER.flatMap((mode) => {
        const amountCents = prices[mode];
        return amountCents === null ? [] : [{ id: `${ref}_${mode}`, mode: toModeCode(mode), name: MODE_NAMES[toModeCode(mode)], amountCents }];
      });
      const saved = item.ref ? soldOut.get(item.ref) : undefined;
      return {
        node: {
          id: `preview-plan:${ref}`,
          ref,
          name: item.name,
          description: item.description,
          priceCents: variations[0]?.amountCents ?? null,
          soldOut: saved?.soldOut ?? false,
          soldOutModes: saved?.soldOutModes ?? [],
          variations,
        },
      };
    });
  const addons = draft.addons
    .filter((addon) => addon.listed)
    .map((addon) => ({ node: { id: `preview-addon:${addon.ref ?? addon.key}`, ref: addon.ref ?? addon.key, name: addon.name, description: addon.description, amountCents: addon.amountCents } }));
  const brandName = content.brand.name;
  const { period, date } = today(now);
  return {
    business: {
      id: facts?.id ?? `preview-business:${slug}`,
      slug,
      name: facts?.name ?? (brandName || slug),
      memberCount: facts?.memberCount ?? 0,
      // The business card's fallbacks come from the page: with the page's own logo and description they never show.
      logoUrl: content.brand.logoUrl,
      description: null,
      // The home page's preview tenant is no business: its page takes sign-ups as a ready business's would.
      acceptingMembers: facts?.acceptingMembers ?? true,
      checkoutClosedMessage: facts?.checkoutClosedMessage ?? null,
      signupStartsNextMonth: facts?.signupStartsNextMonth ?? false,
      signupFirstPeriod: facts?.signupFirstPeriod ?? period,
      signupFirstChargeDate: facts?.signupFirstChargeDate ?? date,
      page: {
        brand: { name: brandName, logoUrl: content.brand.logoUrl },
        brandName,
        descriptionHtml: draft.descriptionHtml,
        gallery: content.gallery.map(({ url }) => ({ __typename: "GalleryImage" as const, url })),
        theme: content.theme,
        social: content.social,
        addonLimit: content.addonLimit,
        addonSectionTitle: content.addonSectionTitle,
        billingDay: content.billingDay,
        fulfillment: content.fulfillment,
        tax: content.tax,
        supportPhone: content.supportPhone,
        // Answers as the editor last rendered them (the saved ones are the server's rendering of the same document).
        faqs: draft.faqs.filter((f) => f.q.trim()).map((f) => ({ q: f.q.trim(), a: f.a })),
      },
      plans: { edges: plans },
      addons: { edges: addons },
    },
    viewer: null,
  };
}
