import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../api/auth/sessions.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let seq = 0;
async function person(label: string, opts: { admin?: boolean } = {}) {
  const user = await t.db.prisma.user.create({ data: { username: `${label}-${++seq}`, passwordHash: "unused", isAdmin: opts.admin ?? false } });
  const { token } = await openSession({ db: t.db.prisma, clock: t.clock, config: t.config }, user.id, { tenantSlug: null });
  return { id: user.id, token };
}

/** A business made the way createBusiness makes it, with an owner, an editor and a viewer. */
async function staffedBusiness(slug: string) {
  const [owner, editor, viewer] = await Promise.all([person("owner"), person("editor"), person("viewer")]);
  const business = await t.db.prisma.business.create({
    data: { collectsOnPlatform: true,
      slug,
      name: slug,
      page: { create: { brandName: slug } },
      nextBox: { create: {} },
      users: { create: [{ userId: owner.id, role: "OWNER" }, { userId: editor.id, role: "EDITOR" }, { userId: viewer.id, role: "VIEWER" }] },
    },
  });
  return { id: business.id, slug, owner, editor, viewer };
}

const PAGE_FIELDS = `brand { name logoUrl } descriptionHtml gallery { url }
  theme { primary selection primaryText buttonBorder pageBg footerButtonBg footerButtonText footerButtonBorder }
  social { facebook instagram twitter youtube tiktok } faqs { q a }
  fulfillment { pickup shipping delivery pickupAddress shippingText deliveryArea } tax { enabled ratePercent rateBps }
  billingDay subscriptionCutoffDay boxReadyDay skipWindow { startDay endDay } changeWindow { startDay endDay }
  addonLimit addonSectionTitle updatedAt`;
const PUBLIC_BUSINESS = `query($slug: String!) { business(slug: $slug) {
  page { ${PAGE_FIELDS} }
  plans(first: 20) { edges { node { ref name description listed position priceCents currency
    variations { id mode name ordinal amountCents currency } } } }
  addons(first: 20) { edges { node { ref name description amountCents currency listed position } } }
  nextBox { contentHtml } } }`;
const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) {
  __typename ... on SaveBusinessPageSuccess { data { page { brand { name } } plans(first: 20) { edges { node { ref } } } } }
  ... on Error { message code } ... on ValidationError { issues { path message } } } }`;
const SAVE_HOME = `mutation($input: SaveHomePageInput!) { saveHomePage(input: $input) {
  __typename ... on SaveHomePageSuccess { data { ${PAGE_FIELDS} } } ... on Error { message code } ... on ValidationError { issues { path message } } } }`;
const SAVE_NEXT_BOX = `mutation($input: SaveNextBoxInput!) { saveNextBox(input: $input) {
  __typename ... on SaveNextBoxSuccess { data { contentHtml updatedAt } } ... on Error { message code } } }`;

const DEFAULT_CONTENT = {
  brand: { name: "", logoUrl: null },
  descriptionHtml: "",
  gallery: [],
  theme: {
    primary: "#f97316",
    selection: "#2563eb",
    primaryText: "#ffffff",
    buttonBorder: "transparent",
    pageBg: "#ffffff",
    footerButtonBg: "",
    footerButtonText: "",
    footerButtonBorder: "",
  },
  social: { facebook: "", instagram: "", twitter: "", youtube: "", tiktok: "" },
  faqs: [],
  fulfillment: { pickup: true, shipping: false, delivery: false, pickupAddress: "", shippingText: "Nationwide Shipping", deliveryArea: "" },
  tax: { enabled: false, ratePercent: 5.75, rateBps: 575 },
  billingDay: 1,
  subscriptionCutoffDay: null,
  boxReadyDay: null,
  skipWindow: { startDay: 1, endDay: 14 },
  changeWindow: { startDay: 1, endDay: 14 },
  addonLimit: 0,
  addonSectionTitle: "Available Add-ons",
};

const FULL_CONTENT = {
  brand: { name: "Green Acres", logoUrl: "/uploads/logo.png" },
  descriptionHtml: `<p onclick="x()">Fresh <strong>veg</strong><script>alert(1)</script> <a href="javascript:alert(1)">bad</a> <a href="https://farm.example">good</a></p>`,
  gallery: [{ url: "https://cdn.example/a.jpg" }, { url: "/uploads/b.png" }],
  theme: { primary: "#112233", selection: "#abc", primaryText: "#FFFFFFCC", buttonBorder: "transparent", pageBg: "", footerButtonBg: "#000" },
  social: { facebook: "https://facebook.com/greenacres", instagram: "", tiktok: "http://tiktok.com/@ga" },
  faqs: [{ q: "When?", a: `<p>Mondays<img src="x" onerror="alert(1)"></p>` }],
  fulfillment: { pickup: true, shipping: true, delivery: false, pickupAddress: "1 Farm Rd", shippingText: "", deliveryArea: "" },
  tax: { enabled: true, ratePercent: 7.25 },
  billingDay: 5,
  subscriptionCutoffDay: 31,
  boxReadyDay: 28,
  skipWindow: { startDay: 3, endDay: 10 },
  changeWindow: { startDay: 1, endDay: 28 },
  addonLimit: 2,
  addonSectionTitle: "Extras",
};

describe("home page", () => {
  it("is created with the spec defaults on first read, publicly", async () => {
    const r = await t.gqlOk(`{ homePage { ${PAGE_FIELDS} isHome } }`);
    const { updatedAt, isHome, ...content } = r.homePage;
    expect(isHome).toBe(true);
    expect(content).toEqual(DEFAULT_CONTENT);
    await t.gqlOk(`{ homePage { billingDay } }`);
    expect(await t.db.prisma.page.count({ where: { isHome: true } })).toBe(1);
  });

  it("is saved by administrators only, with defaults for what the editor leaves out", async () => {
    const admin = await person("admin", { admin: true });
    const member = await person("member");
    const input = { content: { brand: { name: "Membership Boxes" }, faqs: [{ q: "What?", a: "<p>Boxes</p>" }] } };
    expect((await t.gqlOk(SAVE_HOME, { input })).saveHomePage.__typename).toBe("UnauthenticatedError");
    expect((await t.gqlOk(SAVE_HOME, { input }, { token: member.token })).saveHomePage.__typename).toBe("ForbiddenError");
    const r = await t.gqlOk(SAVE_HOME, { input }, { token: admin.token });
    expect(r.saveHomePage.__typename).toBe("SaveHomePageSuccess");
    const { updatedAt, ...content } = r.saveHomePage.data;
    expect(content).toEqual({ ...DEFAULT_CONTENT, brand: { name: "Membership Boxes", logoUrl: null }, faqs: [{ q: "What?", a: "<p>Boxes</p>" }] });
    expect((await t.gqlOk(`{ homePage { brand { name } } }`)).homePage.brand.name).toBe("Membership Boxes");
  });
});

describe("saveBusinessPage", () => {
  it("saves every content field, sanitising rich text, with the catalogue, and reads back publicly", async () => {
    const b = await staffedBusiness("green-acres");
    const input = {
      businessId: b.id,
      content: FULL_CONTENT,
      plans: [
        { name: " Small box ", description: "Veg for two", pickupCents: 2500, shippingCents: 3000 },
        { name: "Large box", deliveryCents: 5000, listed: false },
      ],
      addons: [{ name: "Eggs", description: "A dozen", amountCents: 600 }, { name: "Free sticker", amountCents: 0 }],
    };
    const r = await t.gqlOk(SAVE, { input }, { token: b.editor.token });
    expect(r.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");

    const { business } = await t.gqlOk(PUBLIC_BUSINESS, { slug: b.slug });
    const { updatedAt, ...page } = business.page;
    expect(page).toEqual({
      ...DEFAULT_CONTENT,
      brand: { name: "Green Acres", logoUrl: "/uploads/logo.png" },
      descriptionHtml: `<p>Fresh <strong>veg</strong> <a>bad</a> <a href="https://farm.example">good</a></p>`,
      gallery: FULL_CONTENT.gallery,
      theme: { ...DEFAULT_CONTENT.theme, primary: "#112233", selection: "#abc", primaryText: "#ffffffcc", footerButtonBg: "#000" },
      social: { facebook: "https://facebook.com/greenacres", instagram: "", twitter: "", youtube: "", tiktok: "http://tiktok.com/@ga" },
      faqs: [{ q: "When?", a: "<p>Mondays</p>" }],
      fulfillment: { pickup: true, shipping: true, delivery: false, pickupAddress: "1 Farm Rd", shippingText: "", deliveryArea: "" },
      tax: { enabled: true, ratePercent: 7.25, rateBps: 725 },
      billingDay: 5,
      subscriptionCutoffDay: 31,
      boxReadyDay: 28,
      skipWindow: { startDay: 3, endDay: 10 },
      changeWindow: { startDay: 1, endDay: 28 },
      addonLimit: 2,
      addonSectionTitle: "Extras",
    });

    // The unlisted plan is not on the public page.
    expect(business.plans.edges).toHaveLength(1);
    const small = business.plans.edges[0].node;
    expect(small).toMatchObject({ name: "Small box", description: "Veg for two", listed: true, position: 0, priceCents: 2500, currency: "USD" });
    expect(small.ref).toMatch(/^item_\d+/);
    expect(small.variations).toEqual([
      { id: `${small.ref}_pickup`, mode: "PICKUP", name: "Pickup", ordinal: 0, amountCents: 2500, currency: "USD" },
      { id: `${small.ref}_shipping`, mode: "SHIPPING", name: "Shipping", ordinal: 1, amountCents: 3000, currency: "USD" },
    ]);
    expect(business.addons.edges.map((e: any) => e.node)).toEqual([
      expect.objectContaining({ name: "Eggs", description: "A dozen", amountCents: 600, currency: "USD", listed: true, position: 0 }),
      expect.objectContaining({ name: "Free sticker", amountCents: 0, position: 1 }),
    ]);
    expect(business.addons.edges[0].node.ref).toMatch(/^addon_\d+/);
  });

  it("matches plans and add-ons by ref, archives those left out and keeps the catalogue when lists are omitted", async () => {
    const b = await staffedBusiness("ref-farm");
    const first = await t.gqlOk(SAVE, {
      input: { businessId: b.id, content: {}, plans: [{ name: "A", pickupCents: 100 }, { name: "B", pickupCents: 200, shippingCents: 250 }], addons: [{ name: "X", amountCents: 1 }] },
    }, { token: b.owner.token });
    const [a, bPlan] = first.saveBusinessPage.data.plans.edges.map((e: any) => e.node.ref);
    const catalog = `query($slug: String!) { business(slug: $slug) {
      plans(first: 10, includeUnlisted: true) { edges { node { ref name position archived variations { mode amountCents } } } }
      addons(first: 10, includeUnlisted: true) { edges { node { ref name } } } } }`;

    // B moves first, loses its shipping price and is renamed; A is dropped; add-ons untouched (omitted).
    await t.gqlOk(SAVE, { input: { businessId: b.id, content: {}, plans: [{ ref: bPlan, name: "B2", pickupCents: 210 }, { name: "C", shippingCents: 300 }] } }, { token: b.owner.token });
    const r = await t.gqlOk(catalog, { slug: b.slug }, { token: b.editor.token });
    expect(r.business.plans.edges.map((e: any) => e.node)).toEqual([
      { ref: bPlan, name: "B2", position: 0, archived: false, variations: [{ mode: "PICKUP", amountCents: 210 }] },
      expect.objectContaining({ name: "C", position: 1, variations: [{ mode: "SHIPPING", amountCents: 300 }] }),
    ]);
    expect(r.business.addons.edges.map((e: any) => e.node.name)).toEqual(["X"]);
    const archived = await t.db.prisma.plan.findFirstOrThrow({ where: { businessId: b.id, ref: a } });
    expect(archived.archivedAt).not.toBeNull();

    // Saving the archived ref again brings it back.
    await t.gqlOk(SAVE, { input: { businessId: b.id, content: {}, plans: [{ ref: a, name: "A", pickupCents: 100 }], addons: [] } }, { token: b.owner.token });
    const back = await t.gqlOk(catalog, { slug: b.slug }, { token: b.editor.token });
    expect(back.business.plans.edges.map((e: any) => e.node.ref)).toEqual([a]);
    expect(back.business.addons.edges).toEqual([]);
    expect(await t.db.prisma.addon.count({ where: { businessId: b.id } })).toBe(1);
  });

  it("keeps pickup points and delivery areas as lists whose first entries are the single §3 values", async () => {
    const b = await staffedBusiness("points-farm");
    const read = async () =>
      (await t.gqlOk(`query($slug: String!) { business(slug: $slug) { page { fulfillment { pickupPoints deliveryAreas pickupAddress deliveryArea } } } }`, { slug: b.slug })).business.page
        .fulfillment;
    const save = (fulfillment: object) => t.gqlOk(SAVE, { input: { businessId: b.id, content: { fulfillment } } }, { token: b.owner.token });

    // The editor sends whole lists: blank rows are dropped, the order is the owner's.
    const saved = await save({ pickup: true, delivery: true, pickupPoints: ["Farm stand", " ", "Market, 2 Main St"], deliveryAreas: ["North", "South"] });
    expect(saved.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");
    expect(await read()).toEqual({ pickupPoints: ["Farm stand", "Market, 2 Main St"], deliveryAreas: ["North", "South"], pickupAddress: "Farm stand", deliveryArea: "North" });

    // A client that knows one address replaces the first entry and keeps the others; an empty one removes it.
    await save({ pickupAddress: "Barn door", deliveryArea: "" });
    expect(await read()).toMatchObject({ pickupPoints: ["Barn door", "Market, 2 Main St"], deliveryAreas: ["South"] });

    // Two points of the same name (ignoring case), or too many, are refused and nothing changes.
    const twice = await save({ pickupPoints: ["Barn door", "barn door"] });
    expect(twice.saveBusinessPage.issues).toEqual([{ path: "content.fulfillment.pickupPoints", message: "Pickup points must each have a different name" }]);
    const many = await save({ deliveryAreas: Array.from({ length: 51 }, (_, i) => `Area ${i}`) });
    expect(many.saveBusinessPage.issues).toEqual([{ path: "content.fulfillment.deliveryAreas", message: "At most 50 delivery areas" }]);
    expect(await read()).toMatchObject({ pickupPoints: ["Barn door", "Market, 2 Main St"], deliveryAreas: ["South"] });
  });

  it("refuses bad input listing every issue, and saves nothing", async () => {
    const b = await staffedBusiness("strict-farm");
    const before = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: b.id } });
    const input = {
      businessId: b.id,
      content: {
        brand: { name: "Changed", logoUrl: "javascript:alert(1)" },
        gallery: [{ url: "//evil.example/x.png" }],
        theme: { primary: "red", pageBg: "#12345" },
        social: { facebook: "javascript:alert(1)" },
        tax: { enabled: true, ratePercent: 5.755 },
        billingDay: 0,
        boxReadyDay: 29,
        subscriptionCutoffDay: 32,
        skipWindow: { startDay: 10, endDay: 5 },
        changeWindow: { startDay: 1, endDay: 29 },
        addonLimit: -1,
      },
      plans: [{ name: " ", pickupCents: 100 }, { name: "No price" }, { name: "Fractional", pickupCents: -5 }],
      addons: [{ name: "", amountCents: 5 }, { name: "Priceless" }],
    };
    const r = await t.gqlOk(SAVE, { input }, { token: b.owner.token });
    expect(r.saveBusinessPage.__typename).toBe("ValidationError");
    const messages = r.saveBusinessPage.issues.map((i: any) => `${i.path}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^content\.brand\.logoUrl: /),
        expect.stringMatching(/^content\.gallery\.0\.url: /),
        expect.stringMatching(/^content\.theme\.primary: /),
        expect.stringMatching(/^content\.theme\.pageBg: /),
        "content.social.facebook: Social links must start with http:// or https://",
        "content.tax.ratePercent: Tax rate may have at most 2 decimals",
        "content.billingDay: Billing day must be at least 1",
        "content.boxReadyDay: Box ready day cannot exceed 28 (to account for February)",
        "content.subscriptionCutoffDay: Subscription cutoff day cannot exceed 31",
        "content.skipWindow.endDay: Skip window start day must not be after its end day",
        "content.changeWindow.endDay: Change window end day cannot exceed 28 (to account for February)",
        "content.addonLimit: Add-on limit cannot be negative",
        "plans.0.name: Please enter a package name.",
        "plans.1.pickupCents: Enter at least one price (pickup, shipping, and/or delivery).",
        expect.stringMatching(/^plans\.2\.pickupCents: /),
        "addons.0.name: Please enter an add-on name.",
        "addons.1.amountCents: Please enter a valid price.",
      ]),
    );
    const after = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: b.id } });
    expect(after).toEqual(before);
    expect(await t.db.prisma.plan.count({ where: { businessId: b.id } })).toBe(0);

    const tax = await t.gqlOk(SAVE, { input: { businessId: b.id, content: { tax: { ratePercent: 100.01 } } } }, { token: b.owner.token });
    expect(tax.saveBusinessPage.__typename).toBe("ValidationError");
    const edge = await t.gqlOk(SAVE, { input: { businessId: b.id, content: { tax: { ratePercent: 0 }, billingDay: 28 } } }, { token: b.owner.token });
    expect(edge.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");
  });

  it("is refused to anonymous visitors, viewers, members and owners of another business", async () => {
    const a = await staffedBusiness("guarded-a");
    const other = await staffedBusiness("guarded-b");
    const member = await person("member");
    const input = { businessId: a.id, content: { brand: { name: "Hacked" } } };
    expect((await t.gqlOk(SAVE, { input })).saveBusinessPage.__typename).toBe("UnauthenticatedError");
    for (const who of [a.viewer, member, other.owner]) {
      expect((await t.gqlOk(SAVE, { input }, { token: who.token })).saveBusinessPage.__typename).toBe("ForbiddenError");
    }
    const admin = await person("admin", { admin: true });
    expect((await t.gqlOk(SAVE, { input: { ...input, businessId: 999_999 } }, { token: admin.token })).saveBusinessPage.__typename).toBe("NotFoundError");
    expect((await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: a.id } })).brandName).toBe("guarded-a");
    const ok = await t.gqlOk(SAVE, { input: { ...input, content: { brand: { name: "By admin" } } } }, { token: admin.token });
    expect(ok.saveBusinessPage.data.page.brand.name).toBe("By admin");
  });

  it("shows unlisted catalogue rows only to editors", async () => {
    const b = await staffedBusiness("hidden-farm");
    const q = `query($slug: String!) { business(slug: $slug) { plans(first: 5, includeUnlisted: true) { edges { node { name } } } } }`;
    const anon = await t.gql(q, { slug: b.slug });
    expect(anon.errors?.[0].message).toBe("Please log in to continue.");
    const viewer = await t.gql(q, { slug: b.slug }, { token: b.viewer.token });
    expect(viewer.errors?.[0].message).toBe("You do not have permission to do this.");
    expect((await t.gqlOk(q, { slug: b.slug }, { token: b.editor.token })).business.plans.edges).toEqual([]);
  });
});

describe("next box", () => {
  it("editors save sanitised content that everyone can read; viewers and strangers cannot", async () => {
    const b = await staffedBusiness("box-farm");
    const other = await staffedBusiness("box-farm-b");
    const input = { businessId: b.id, contentHtml: `<h2>March box</h2><p>Carrots<script>steal()</script><img src="data:text/html;base64,PHNjcmlwdD4="></p>` };
    const r = await t.gqlOk(SAVE_NEXT_BOX, { input }, { token: b.editor.token });
    expect(r.saveNextBox).toMatchObject({ __typename: "SaveNextBoxSuccess", data: { contentHtml: "<h2>March box</h2><p>Carrots</p>" } });
    const pub = await t.gqlOk(`query($slug: String!) { business(slug: $slug) { nextBox { contentHtml updatedAt } } }`, { slug: b.slug });
    expect(pub.business.nextBox.contentHtml).toBe("<h2>March box</h2><p>Carrots</p>");
    expect((await t.gqlOk(SAVE_NEXT_BOX, { input })).saveNextBox.__typename).toBe("UnauthenticatedError");
    for (const who of [b.viewer, other.owner]) {
      expect((await t.gqlOk(SAVE_NEXT_BOX, { input }, { token: who.token })).saveNextBox.__typename).toBe("ForbiddenError");
    }
    const stored = await t.db.prisma.nextBox.findUniqueOrThrow({ where: { businessId: b.id } });
    expect(stored.updatedById).toBe(b.editor.id);
  });
});
