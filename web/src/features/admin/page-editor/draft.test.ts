import { describe, expect, it } from "vitest";
import { afterCutoffPolicy, contentInput, dollarsToCents, makePrimary, pageDraftFrom, withOffer } from "./draft.ts";

describe("page editor draft rules", () => {
  it("stores prices as rounded cents; negative or non-numeric is empty", () => {
    expect(dollarsToCents("12.345")).toBe(1235);
    expect(dollarsToCents("0")).toBe(0);
    expect(dollarsToCents("-1")).toBeNull();
    expect(dollarsToCents("abc")).toBeNull();
    expect(dollarsToCents(" ")).toBeNull();
    expect(dollarsToCents("1.005")).toBe(101);
    expect(dollarsToCents("10.075")).toBe(1008);
    expect(dollarsToCents("1e3")).toBeNull();
  });
  it("moves a primary image to the front", () => {
    expect(makePrimary(["a", "b", "c"], 2)).toEqual(["c", "a", "b"]);
    expect(makePrimary(["a", "b"], 0)).toEqual(["a", "b"]);
  });
  it("saves rich text as the editor's documents, and as HTML only where no editor made one", () => {
    const doc = { blocks: [{ type: "paragraph" as const, data: { text: "Fresh" } }] };
    const draft = {
      ...pageDraftFrom(null),
      descriptionHtml: "<p>Fresh</p>",
      descriptionDoc: doc,
      faqs: [
        { key: "faq_0", q: " When? ", a: "<p>Fresh</p>", aDoc: doc },
        { key: "faq_1", q: "Legacy?", a: "<p>Old HTML</p>", aDoc: null },
        { key: "faq_2", q: " ", a: "<p>dropped: no question</p>", aDoc: null },
      ],
    };
    const input = contentInput(draft);
    expect(input).toMatchObject({ descriptionDoc: doc, faqs: [{ q: "When?", answerDoc: doc }, { q: "Legacy?", a: "<p>Old HTML</p>" }] });
    expect(input).not.toHaveProperty("descriptionHtml");
    expect(input.faqs[0]).not.toHaveProperty("a");
    expect(contentInput({ ...draft, descriptionDoc: null })).toMatchObject({ descriptionHtml: "<p>Fresh</p>" });
    expect(contentInput({ ...draft, descriptionDoc: null })).not.toHaveProperty("descriptionDoc");
  });
  it("sends a business page's email settings, trimmed, and none for the home page (the server keeps what it has)", () => {
    const home = pageDraftFrom(null);
    expect(home.mail).toBeNull();
    expect(contentInput(home)).not.toHaveProperty("mail");
    const business = { ...home, mail: { senderName: "  Green Acres  ", replyTo: " help@greenacres.example ", windowReminder: false, prechargeNotice: true } };
    expect(contentInput(business).mail).toEqual({ senderName: "Green Acres", replyTo: "help@greenacres.example", windowReminder: false, prechargeNotice: true });
  });
  it("reads and saves what the page does past its cutoff day, refusing by default", () => {
    const draft = pageDraftFrom(null);
    expect(draft.afterCutoff).toBe("REFUSE");
    expect(contentInput(draft).afterCutoff).toBe("REFUSE");
    expect(contentInput({ ...draft, afterCutoff: "NEXT_MONTH" }).afterCutoff).toBe("NEXT_MONTH");
    expect(afterCutoffPolicy("NEXT_MONTH")).toBe("NEXT_MONTH");
    expect(afterCutoffPolicy("%future added value")).toBe("REFUSE");
    expect(afterCutoffPolicy(undefined)).toBe("REFUSE");
  });
  it("saves the longest pause as whole months, and leaves it out while the field is empty (the server keeps its value)", () => {
    const draft = pageDraftFrom(null);
    expect(draft.pauseMaxMonths).toBeNull();
    expect(contentInput(draft).pauseMaxMonths).toBeNull();
    expect(contentInput({ ...draft, pauseMaxMonths: 0 }).pauseMaxMonths).toBe(0);
    expect(contentInput({ ...draft, pauseMaxMonths: 2.4 }).pauseMaxMonths).toBe(2);
    // Out of range goes as typed: the server refuses it, under the field.
    expect(contentInput({ ...draft, pauseMaxMonths: 20 }).pauseMaxMonths).toBe(20);
  });
  it("sends a business page's cancellation settings, the discount only with its offer, and none for the home page", () => {
    const home = pageDraftFrom(null);
    expect(home.cancellation).toBeNull();
    expect(contentInput(home)).not.toHaveProperty("cancellationPolicy");
    expect(contentInput(home)).not.toHaveProperty("retentionOffers");
    const business = { ...home, cancellation: { policy: "SELF_SERVICE" as const, offers: withOffer(["SKIP"], "DISCOUNT", true), discountPercent: 14.6 } };
    expect(business.cancellation.offers).toEqual(["SKIP", "DISCOUNT"]);
    expect(contentInput(business)).toMatchObject({ cancellationPolicy: "SELF_SERVICE", retentionOffers: ["SKIP", "DISCOUNT"], retentionDiscountPercent: 15 });
    // Without the discount offer (or with its field empty) the stored percent stays as it is.
    const noDiscount = { ...business, cancellation: { ...business.cancellation, offers: withOffer(business.cancellation.offers, "DISCOUNT", false) } };
    expect(contentInput(noDiscount)).toMatchObject({ cancellationPolicy: "SELF_SERVICE", retentionOffers: ["SKIP"] });
    expect(contentInput(noDiscount)).not.toHaveProperty("retentionDiscountPercent");
    expect(contentInput({ ...business, cancellation: { ...business.cancellation, discountPercent: null } })).not.toHaveProperty("retentionDiscountPercent");
    // Out of range goes as typed: the server refuses it, under the field.
    expect(contentInput({ ...business, cancellation: { ...business.cancellation, discountPercent: 80 } }).retentionDiscountPercent).toBe(80);
    // The server's order whatever order the boxes were ticked in; none at all is a list too (no offers).
    expect(withOffer(["DISCOUNT", "SKIP"], "PAUSE", true)).toEqual(["SKIP", "PAUSE", "DISCOUNT"]);
    expect(contentInput({ ...business, cancellation: { policy: "PHONE", offers: [], discountPercent: 10 } })).toMatchObject({ cancellationPolicy: "PHONE", retentionOffers: [] });
  });
});
