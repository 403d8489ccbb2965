import type { PrismaClient } from "../api/db.ts";
import type { Clock } from "../api/shared/clock.ts";
import type { FulfillmentMode, OrderKind, Prisma } from "../api/generated/prisma/client.ts";
import { hashPassword } from "../api/auth/passwords.ts";
import { saveDefaultCard } from "../api/billing/cards.ts";
import { SandboxProvider } from "../api/billing/providers/sandbox/provider.ts";
import { addMonths, localDate, yearMonthOf } from "../api/shared/calendar.ts";
import { placeholderPaymentId, seedDemoPayouts } from "./seed-payouts.ts";

/**
 * Demo data for a fresh install (`npm start`, `npm run db:seed`): three partner businesses with their pages,
 * plans, add-ons and next boxes; members with active, skipped and canceled memberships and their paid order
 * history; coupons; the home page. Everything is written with Prisma directly (no services), dated relative
 * to the clock, and agrees with itself: delivery members live in a town their area names, and the Next Box
 * notes are of the season of the month their box is for. The money is the sandbox provider's: the paid history
 * is charged there at its own time and the seeded months' payouts are made (seed-payouts.ts). Images are local
 * SVGs under web/public/demo/ (the app must work offline). tests/integration/demo-data.test.ts checks all this
 * on three dates.
 */

const TIME_ZONE = "America/New_York";

type Mode = "pickup" | "shipping" | "delivery";
const MODE_ENUM: Record<Mode, FulfillmentMode> = { pickup: "PICKUP", shipping: "SHIPPING", delivery: "DELIVERY" };
const MODE_LABEL: Record<Mode, string> = { pickup: "Pickup", shipping: "Shipping", delivery: "Delivery" };

interface DemoPlan {
  ref: string;
  name: string;
  description: string;
  prices: Partial<Record<Mode, number>>;
}

interface DemoAddon {
  ref: string;
  name: string;
  description: string;
  amountCents: number;
}

/** Meteorological seasons of the northern hemisphere: the demo businesses are in Ohio. */
type Season = "winter" | "spring" | "summer" | "fall";
const SEASON_OF_MONTH: Season[] = ["winter", "winter", "spring", "spring", "spring", "summer", "summer", "summer", "fall", "fall", "fall", "winter"];

interface DemoBusiness {
  slug: string;
  name: string;
  page: Omit<Prisma.PageCreateWithoutBusinessInput, "isHome">;
  plans: DemoPlan[];
  addons: DemoAddon[];
  /**
   * The Next Box note for each season: the seed picks the one of the next box's month, so a demo seeded in
   * December does not promise strawberries. Generic to the season, naming no date or month, since the note
   * stays as seeded while the clock moves on.
   */
  nextBox: Record<Season, string>;
}

const faq = (q: string, a: string) => ({ q, a: `<p>${a}</p>` });
const gallery = (slug: string) => [1, 2, 3].map((n) => ({ url: `/demo/${slug}-${n}.svg` }));

const BUSINESSES: DemoBusiness[] = [
  {
    slug: "green-acres-farm",
    name: "Green Acres Farm",
    page: {
      brandName: "Green Acres Farm",
      logoUrl: "/demo/green-acres-farm-logo.svg",
      descriptionHtml:
        "<p>A family farm in the Cuyahoga Valley growing forty varieties of vegetables without synthetic sprays.</p>" +
        "<p>Every month our <strong>CSA box</strong> brings you what was picked that week: greens, roots, herbs and fruit in season.</p>",
      gallery: gallery("green-acres-farm"),
      theme: { primary: "#2f855a", selection: "#276749", primaryText: "#ffffff", buttonBorder: "transparent", pageBg: "#f7faf5", footerButtonBg: "", footerButtonText: "", footerButtonBorder: "" },
      social: { facebook: "https://facebook.com/greenacresfarm", instagram: "https://instagram.com/greenacresfarm", twitter: "", youtube: "", tiktok: "" },
      faqs: [
        faq("What is in a box?", "Eight to twelve kinds of seasonal produce, harvested within two days of pickup or delivery."),
        faq("Can I skip a month?", "Yes: skip any month from your membership page while the skip window is open (1st to 14th)."),
        faq("Where do I pick up?", "At the farm stand, Saturdays 9am to 1pm. Bring a bag; we keep the boxes."),
      ],
      pickupEnabled: true,
      shippingEnabled: false,
      deliveryEnabled: true,
      pickupPoints: ["Farm stand, 4120 Riverview Rd, Peninsula, OH 44264", "Hudson farmers market, 27 E Main St, Hudson, OH 44236"],
      deliveryAreas: ["Akron and Cuyahoga Falls", "Hudson and Stow", "Peninsula and Boston Heights"],
      taxEnabled: true,
      taxRateBps: 575,
      billingDay: 1,
      cutoffDay: 25,
      // Past the 25th, sign-ups are taken for next month's box: the card is saved, charged on the 1st.
      afterCutoff: "NEXT_MONTH",
      supportPhone: "(330) 555-0142",
      boxReadyDay: 6,
      skipWindowStart: 1,
      skipWindowEnd: 14,
      changeWindowStart: 1,
      changeWindowEnd: 20,
      addonLimit: 3,
      addonSectionTitle: "Add to your harvest",
    },
    plans: [
      { ref: "item_1767225600101", name: "Small Harvest Box", description: "Produce for one or two: about 8 lb of seasonal vegetables.", prices: { pickup: 3200, delivery: 3800 } },
      { ref: "item_1767225600102", name: "Family Harvest Box", description: "For a household of four: about 15 lb of vegetables and fruit.", prices: { pickup: 5200, delivery: 5900 } },
      { ref: "item_1767225600103", name: "Salad Lover's Box", description: "Lettuces, microgreens, herbs and crunchy extras.", prices: { pickup: 2600, delivery: 3200 } },
    ],
    addons: [
      { ref: "addon_1767225600201", name: "Pasture-raised eggs (dozen)", description: "From our free-ranging flock.", amountCents: 650 },
      { ref: "addon_1767225600202", name: "Wildflower honey (12 oz)", description: "Raw and unfiltered, from the farm's hives.", amountCents: 1100 },
      { ref: "addon_1767225600203", name: "Fresh-cut flowers", description: "A hand-tied bouquet of whatever is blooming.", amountCents: 1500 },
      { ref: "addon_1767225600204", name: "Herb bundle", description: "Basil, parsley, dill and thyme.", amountCents: 450 },
    ],
    nextBox: {
      winter:
        "<h2>Coming up: the winter share</h2><ul><li>Potatoes, onions and garlic from storage</li><li>Butternut and acorn squash</li><li>Hoop-house spinach and kale</li><li>Carrots and beets from the root cellar</li></ul><p>Recipe card: roasted root vegetables with thyme.</p>",
      spring:
        "<h2>Coming up: the spring share</h2><ul><li>Hoop-house salad greens and spinach</li><li>Radishes and green onions</li><li>Overwintered carrots</li><li>The first fresh herbs</li></ul><p>Recipe card: spring greens with radish and lemon.</p>",
      summer:
        "<h2>Coming up: the summer share</h2><ul><li>Zucchini, cucumbers and green beans</li><li>Tomatoes and sweet corn as they ripen</li><li>Berries while they last</li><li>Basil and dill</li></ul><p>Recipe card: cucumber and dill salad.</p>",
      fall: "<h2>Coming up: the fall share</h2><ul><li>Winter squash and pie pumpkins</li><li>Sweet potatoes</li><li>Kale and Brussels sprouts</li><li>Apples from a neighbouring orchard</li></ul><p>Recipe card: roasted squash soup.</p>",
    },
  },
  {
    slug: "ember-oak-coffee",
    name: "Ember & Oak Coffee Roasters",
    page: {
      brandName: "Ember & Oak Coffee",
      logoUrl: "/demo/ember-oak-coffee-logo.svg",
      descriptionHtml:
        "<p>Small-batch coffee roasted on a 1960s drum roaster in Portland, shipped within 48 hours of roasting.</p>" +
        "<p>Each month we pick a single origin and a house blend, with tasting notes and brew guides.</p>",
      gallery: gallery("ember-oak-coffee"),
      theme: { primary: "#9c4221", selection: "#7b341e", primaryText: "#ffffff", buttonBorder: "transparent", pageBg: "#fffaf0", footerButtonBg: "#2d1b12", footerButtonText: "#ffffff", footerButtonBorder: "" },
      social: { facebook: "", instagram: "https://instagram.com/emberoakcoffee", twitter: "https://twitter.com/emberoakcoffee", youtube: "https://youtube.com/@emberoakcoffee", tiktok: "" },
      faqs: [
        faq("Whole bean or ground?", "Whole bean by default; tell us your grind in the order notes and we will grind it for your brewer."),
        faq("When does my coffee ship?", "We roast on the 3rd of the month and ship the same week."),
        faq("Do you ship everywhere?", "Anywhere in the continental US, shipping included in the price."),
      ],
      pickupEnabled: false,
      shippingEnabled: true,
      deliveryEnabled: false,
      shippingText: "Free shipping in the continental US",
      taxEnabled: false,
      taxRateBps: 0,
      billingDay: 1,
      cutoffDay: 28,
      supportPhone: "(503) 555-0187",
      boxReadyDay: 3,
      skipWindowStart: 1,
      skipWindowEnd: 14,
      changeWindowStart: 1,
      changeWindowEnd: 14,
      addonLimit: 0,
      addonSectionTitle: "Available Add-ons",
    },
    plans: [
      { ref: "item_1767225600301", name: "Single Origin (12 oz)", description: "One bag of the month's featured single origin.", prices: { shipping: 1900 } },
      { ref: "item_1767225600302", name: "Roaster's Pair (2 × 12 oz)", description: "The single origin and the house blend.", prices: { shipping: 3400 } },
      { ref: "item_1767225600303", name: "Espresso Club (2 lb)", description: "Two pounds of our Ember espresso blend.", prices: { shipping: 4200 } },
    ],
    addons: [
      { ref: "addon_1767225600401", name: "Decaf bag (12 oz)", description: "Swiss-water decaf, same roast day.", amountCents: 1600 },
      { ref: "addon_1767225600402", name: "Ceramic pour-over dripper", description: "Hand-thrown by a local potter.", amountCents: 2800 },
      { ref: "addon_1767225600403", name: "Chocolate-covered espresso beans", description: "A 4 oz tin.", amountCents: 750 },
    ],
    nextBox: {
      winter: "<h2>Next box: the winter roast</h2><p>A full-bodied single origin with notes of dark chocolate and molasses, paired with our Fireside house blend for slow weekend mornings.</p>",
      spring: "<h2>Next box: the spring roast</h2><p>A bright, washed single origin with floral, tea-like notes, paired with our house blend. Brew guide: pour-over.</p>",
      summer: "<h2>Next box: the summer roast</h2><p>A fruit-forward natural-process single origin that shines over ice, paired with our house blend. Brew guide: overnight cold brew.</p>",
      fall: "<h2>Next box: the fall roast</h2><p>A sweet, round single origin with notes of caramel and baked apple, paired with our house blend. Brew guide: French press.</p>",
    },
  },
  {
    slug: "rise-and-crumb-bakery",
    name: "Rise & Crumb Bakery",
    page: {
      brandName: "Rise & Crumb",
      logoUrl: "/demo/rise-and-crumb-bakery-logo.svg",
      descriptionHtml:
        "<p>Naturally leavened bread and French pastry, baked overnight in Columbus.</p>" +
        "<p>Members get a monthly box of our best loaves and a seasonal pastry, picked up warm or shipped par-baked.</p>",
      gallery: gallery("rise-and-crumb-bakery"),
      theme: { primary: "#c05621", selection: "#9c4221", primaryText: "#ffffff", buttonBorder: "transparent", pageBg: "#fffdf7", footerButtonBg: "", footerButtonText: "", footerButtonBorder: "" },
      social: { facebook: "https://facebook.com/riseandcrumb", instagram: "https://instagram.com/riseandcrumb", twitter: "", youtube: "", tiktok: "https://tiktok.com/@riseandcrumb" },
      faqs: [
        faq("How long does the bread keep?", "Three days on the counter, three months in the freezer. Shipped loaves are par-baked: finish them in 15 minutes."),
        faq("Do you have gluten-free options?", "Not yet: our kitchen handles wheat flour all day."),
        faq("When can I pick up?", "Saturday from 8am to noon at the bakery counter."),
      ],
      pickupEnabled: true,
      shippingEnabled: true,
      deliveryEnabled: false,
      pickupPoints: ["77 N High St, Columbus, OH 43215"],
      shippingText: "Ships par-baked, anywhere in Ohio and neighbouring states",
      taxEnabled: true,
      taxRateBps: 725,
      billingDay: 5,
      cutoffDay: 20,
      supportPhone: "(614) 555-0123",
      boxReadyDay: 12,
      skipWindowStart: 1,
      skipWindowEnd: 10,
      changeWindowStart: 1,
      changeWindowEnd: 10,
      addonLimit: 1,
      addonSectionTitle: "Something sweet on the side",
    },
    plans: [
      { ref: "item_1767225600501", name: "Bread Club", description: "Two sourdough loaves and a seeded rye.", prices: { pickup: 2400, shipping: 3100 } },
      { ref: "item_1767225600502", name: "Pastry Lover", description: "Six croissants, four seasonal danishes and a loaf.", prices: { pickup: 3000, shipping: 3900 } },
    ],
    addons: [
      { ref: "addon_1767225600601", name: "Strawberry jam", description: "Small-batch, 8 oz jar.", amountCents: 800 },
      { ref: "addon_1767225600602", name: "Cookie tin", description: "A dozen brown-butter chocolate chip cookies.", amountCents: 1200 },
    ],
    // Short paragraphs: the Next Box editor test (tests/e2e/admin-operations.spec.ts) types at the end of the last
    // one with the End key, which stops at the end of a wrapped line.
    nextBox: {
      winter: "<h2>This season's bake</h2><p>Country sourdough and a dark caraway rye.</p><p>Pastry: <em>cranberry-orange</em> danish.</p>",
      spring: "<h2>This season's bake</h2><p>Country sourdough and a seeded spelt loaf.</p><p>Pastry: <em>lemon-poppy seed</em> danish.</p>",
      summer: "<h2>This season's bake</h2><p>Country sourdough and an olive and herb loaf.</p><p>Pastry: <em>summer-fruit</em> danish.</p>",
      fall: "<h2>This season's bake</h2><p>Country sourdough and a pumpkin-seed rye.</p><p>Pastry: <em>apple-cinnamon</em> danish.</p>",
    },
  },
];

const HOME_PAGE: Prisma.PageCreateInput = {
  isHome: true,
  brandName: "Harvest & Hearth Memberships",
  descriptionHtml:
    "<p>Monthly membership boxes from independent farms, roasters and bakers. Pick a box, choose pickup, shipping or delivery, and skip or change it whenever life happens.</p>",
  gallery: [],
  faqs: [
    faq("How does billing work?", "Memberships renew monthly on the business's billing day. You are charged once per month, tax included where it applies."),
    faq("Can I pause my membership?", "Yes: skip a month from your membership page while the skip window is open."),
    faq("How do I cancel?", "Cancellation is by phone only: call the business and they will take care of it."),
  ],
};

interface DemoMember {
  username: string;
  name: string;
  email: string;
  phone: string;
  address: { fullName: string; phone: string; street: string; apt: string; city: string; state: string; zip: string; country: string };
}

const member = (username: string, name: string, street: string, city: string, zip: string, phone: string): DemoMember => ({
  username,
  name,
  email: `${username}@example.com`,
  phone,
  address: { fullName: name, phone, street, apt: "", city, state: "OH", zip, country: "US" },
});

/** Each delivery member's town is named by one of the business's delivery areas (see `deliveryAreaOf`). */
const MEMBERS: DemoMember[] = [
  member("member", "Maya Patel", "215 Maple Ave", "Akron", "44303", "330-555-0142"),
  member("jordan", "Jordan Lee", "88 Elm St", "Hudson", "44236", "330-555-0177"),
  member("sofia", "Sofia Romero", "1430 Oak Park Dr", "Stow", "44224", "330-555-0108"),
  member("liam", "Liam O'Brien", "9 Lakeview Ct", "Cuyahoga Falls", "44221", "330-555-0190"),
];

interface DemoMembership {
  username: string;
  business: string;
  plan: string;
  mode: Mode;
  addons: string[];
  /** Months before the current one in which the membership started (its first order). */
  startedMonthsAgo: number;
  coupon?: string;
  skipNextMonth?: boolean;
  /** Canceled this many months ago (its last order is the month before). */
  canceledMonthsAgo?: number;
  isGift?: boolean;
}

const MEMBERSHIPS: DemoMembership[] = [
  { username: "member", business: "green-acres-farm", plan: "item_1767225600102", mode: "pickup", addons: ["addon_1767225600201", "addon_1767225600202"], startedMonthsAgo: 4, coupon: "WELCOME10" },
  { username: "member", business: "ember-oak-coffee", plan: "item_1767225600302", mode: "shipping", addons: ["addon_1767225600403"], startedMonthsAgo: 2, skipNextMonth: true },
  { username: "member", business: "rise-and-crumb-bakery", plan: "item_1767225600501", mode: "pickup", addons: [], startedMonthsAgo: 5, canceledMonthsAgo: 2 },
  { username: "jordan", business: "green-acres-farm", plan: "item_1767225600101", mode: "delivery", addons: ["addon_1767225600204"], startedMonthsAgo: 3 },
  { username: "sofia", business: "rise-and-crumb-bakery", plan: "item_1767225600502", mode: "shipping", addons: ["addon_1767225600602"], startedMonthsAgo: 1, isGift: true },
  { username: "liam", business: "ember-oak-coffee", plan: "item_1767225600303", mode: "shipping", addons: [], startedMonthsAgo: 6 },
  { username: "sofia", business: "green-acres-farm", plan: "item_1767225600103", mode: "delivery", addons: [], startedMonthsAgo: 3, canceledMonthsAgo: 1 },
];

const COUPONS: Prisma.CouponCreateInput[] = [
  { code: "WELCOME10", type: "PERCENT", value: 10, active: true },
  { code: "FIVEOFF", type: "FIXED", value: 500, active: true },
  { code: "OLD20", type: "PERCENT", value: 20, active: false },
];

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Noon UTC on `day` of the month `monthsFromNow` away from now's month in the demo time zone. */
function dateInMonth(now: Date, monthsFromNow: number, day: number): Date {
  const { year, month } = addMonths(localDate(now, TIME_ZONE), monthsFromNow);
  return new Date(Date.UTC(year, month - 1, day, 16, 0, 0));
}

function periodOf(now: Date, monthsFromNow: number): string {
  return yearMonthOf(addMonths(localDate(now, TIME_ZONE), monthsFromNow));
}

/** The season of the next box: this month's until its box-ready day has passed, then next month's. */
function nextBoxSeason(now: Date, boxReadyDay: number): Season {
  const today = localDate(now, TIME_ZONE);
  const { month } = today.day <= boxReadyDay ? today : addMonths(today, 1);
  return SEASON_OF_MONTH[month - 1];
}

/** The delivery area whose name names the member's town; seeding stops rather than deliver to the wrong area. */
function deliveryAreaOf(areas: string[], address: DemoMember["address"], business: string): string {
  const area = areas.find((a) => a.includes(address.city));
  if (!area) throw new Error(`Demo data: no delivery area of ${business} covers ${address.city}`);
  return area;
}

/**
 * Creates the demo data in one transaction. Returns false, changing nothing, when the database already has
 * users or businesses (demo data or real data): safe to run on every start.
 */
/** Arbitrary constant: the advisory lock that serialises demo seeding across processes. */
const SEED_LOCK_ID = 7_283_120_412;

export async function seedDemoData(db: PrismaClient, clock: Clock): Promise<boolean> {
  if ((await db.user.count()) > 0 || (await db.business.count()) > 0) return false;

  const now = clock.now();
  // Hash outside the transaction: argon2 is deliberately slow.
  const [adminHash, ownerHash, memberHash] = await Promise.all(["admin1234", "owner1234", "member1234"].map(hashPassword));

  const created = await db.$transaction(
    async (tx) => {
      // Several processes starting on one empty database each seed it: one at a time (a transaction-scoped lock,
      // safe behind a transaction pooler), and the later ones then find the rows and leave.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_ID}::bigint)`;
      if ((await tx.user.count()) > 0 || (await tx.business.count()) > 0) return false;

      await tx.user.create({ data: { username: "admin", passwordHash: adminHash, name: "Platform Admin", email: "admin@example.com", isAdmin: true } });
      const owner = await tx.user.create({ data: { username: "owner", passwordHash: ownerHash, name: "Hannah Greenfield", email: "owner@example.com", phone: "330-555-0101" } });
      const users = new Map<string, { id: number; email: string; address: DemoMember["address"] }>();
      for (const m of MEMBERS) {
        const u = await tx.user.create({ data: { username: m.username, passwordHash: memberHash, name: m.name, email: m.email, phone: m.phone, address: m.address } });
        users.set(m.username, { id: u.id, email: m.email, address: m.address });
      }

      const coupons = new Map<string, { id: number; code: string; type: "PERCENT" | "FIXED"; value: number }>();
      for (const c of COUPONS) {
        const row = await tx.coupon.create({ data: c });
        coupons.set(row.code, row);
      }

      await tx.page.create({ data: HOME_PAGE });

      type Catalog = { businessId: number; taxRateBps: number; billingDay: number; pickupPoints: string[]; deliveryAreas: string[]; plans: Map<string, { id: number; name: string; prices: DemoPlan["prices"] }>; addons: Map<string, { id: number; name: string; amountCents: number }> };
      const catalogs = new Map<string, Catalog>();
      for (const b of BUSINESSES) {
        const business = await tx.business.create({
          data: {
            slug: b.slug,
            name: b.name,
            timeZone: TIME_ZONE,
            page: { create: b.page },
            nextBox: { create: { contentHtml: b.nextBox[nextBoxSeason(now, b.page.boxReadyDay ?? 1)], updatedById: owner.id } },
          },
        });
        const catalog: Catalog = {
          businessId: business.id,
          taxRateBps: b.page.taxEnabled ? (b.page.taxRateBps ?? 0) : 0,
          billingDay: b.page.billingDay ?? 1,
          pickupPoints: (b.page.pickupPoints as string[] | undefined) ?? [],
          deliveryAreas: (b.page.deliveryAreas as string[] | undefined) ?? [],
          plans: new Map(),
          addons: new Map(),
        };
        for (const [position, p] of b.plans.entries()) {
          const plan = await tx.plan.create({
            data: {
              businessId: business.id,
              ref: p.ref,
              name: p.name,
              description: p.description,
              descriptionHtml: `<p>${p.description}</p>`,
              position,
              variations: { create: Object.entries(p.prices).map(([mode, amountCents]) => ({ mode: MODE_ENUM[mode as Mode], amountCents })) },
            },
          });
          catalog.plans.set(p.ref, { id: plan.id, name: p.name, prices: p.prices });
        }
        for (const [position, a] of b.addons.entries()) {
          const addon = await tx.addon.create({ data: { businessId: business.id, ref: a.ref, name: a.name, description: a.description, amountCents: a.amountCents, position } });
          catalog.addons.set(a.ref, { id: addon.id, name: a.name, amountCents: a.amountCents });
        }
        catalogs.set(b.slug, catalog);
      }
      await tx.businessUser.create({ data: { businessId: catalogs.get("green-acres-farm")!.businessId, userId: owner.id, role: "OWNER" } });

      let paymentNumber = 0;
      for (const [index, m] of MEMBERSHIPS.entries()) {
        const user = users.get(m.username)!;
        const catalog = catalogs.get(m.business)!;
        const plan = catalog.plans.get(m.plan)!;
        const addons = m.addons.map((ref) => catalog.addons.get(ref)!);
        const coupon = m.coupon ? coupons.get(m.coupon)! : undefined;

        const planAmountCents = plan.prices[m.mode]!;
        const addonsAmountCents = addons.reduce((sum, a) => sum + a.amountCents, 0);
        const subtotalCents = planAmountCents + addonsAmountCents;
        const discountCents = !coupon ? 0 : coupon.type === "PERCENT" ? Math.round((subtotalCents * coupon.value) / 100) : Math.min(coupon.value, subtotalCents);
        const taxCents = Math.round(((subtotalCents - discountCents) * catalog.taxRateBps) / 10_000);
        const totalCents = subtotalCents - discountCents + taxCents;

        const canceled = m.canceledMonthsAgo !== undefined;
        const lastPaidMonth = canceled ? -m.canceledMonthsAgo! - 1 : 0;
        const withAddress = m.mode !== "pickup";
        // One paid order per month from the start to the last paid month, skipping a renewal not yet due.
        const billedMonths: { month: number; kind: OrderKind; createdAt: Date }[] = [];
        for (let month = -m.startedMonthsAgo; month <= lastPaidMonth; month++) {
          const kind: OrderKind = month === -m.startedMonthsAgo ? "INITIAL" : "RENEWAL";
          const createdAt = dateInMonth(now, month, kind === "INITIAL" ? 3 : catalog.billingDay);
          if (createdAt <= now) billedMonths.push({ month, kind, createdAt });
        }
        // Pickup members spread over the business's pickup points; delivery goes to the area of the member's town.
        const fulfillmentPoint =
          m.mode === "delivery"
            ? deliveryAreaOf(catalog.deliveryAreas, user.address, m.business)
            : m.mode === "pickup" && catalog.pickupPoints.length
              ? catalog.pickupPoints[index % catalog.pickupPoints.length]
              : "";
        const subscription = await tx.subscription.create({
          data: {
            fulfillmentPoint,
            userId: user.id,
            businessId: catalog.businessId,
            status: canceled ? "CANCELED" : "ACTIVE",
            planId: plan.id,
            mode: MODE_ENUM[m.mode],
            planAmountCents,
            addonsAmountCents,
            discountCents,
            taxCents,
            totalCents,
            taxRateBps: catalog.taxRateBps,
            couponId: coupon?.id,
            billingDay: catalog.billingDay,
            isGift: m.isGift ?? false,
            address: user.address,
            email: user.email,
            paymentProvider: "sandbox",
            providerSubscriptionId: `sub_seed_${index + 1}`,
            paidThroughPeriod: periodOf(now, billedMonths.at(-1)!.month),
            startedAt: dateInMonth(now, -m.startedMonthsAgo, 3),
            canceledAt: canceled ? dateInMonth(now, -m.canceledMonthsAgo!, 2) : null,
            addons: { create: addons.map((a) => ({ addonId: a.id, amountCents: a.amountCents })) },
            skips: m.skipNextMonth ? { create: { yearMonth: periodOf(now, 1), createdAt: now } } : undefined,
          },
        });
        if (coupon) {
          // Redeemed with the first charge (its platform coupons discount every one): each paid month used it.
          await tx.couponRedemption.create({
            data: { couponId: coupon.id, subscriptionId: subscription.id, userId: user.id, businessId: catalog.businessId, redeemedAt: subscription.startedAt, chargesUsed: billedMonths.length },
          });
          await tx.coupon.update({ where: { id: coupon.id }, data: { redemptionCount: { increment: 1 } } });
        }

        const selection = {
          mode: m.mode,
          chosenItemId: m.plan,
          chosenItemName: plan.name,
          chosenVariationName: MODE_LABEL[m.mode],
          chosenItemPrice: dollars(planAmountCents),
          chosenAddons: m.addons.map((ref, i) => ({ id: ref, name: addons[i].name, price: dollars(addons[i].amountCents), amountCents: addons[i].amountCents })),
          ...(m.mode === "pickup" ? { pickupAddress: fulfillmentPoint } : {}),
        };
        for (const { month, kind, createdAt } of billedMonths) {
          paymentNumber++;
          await tx.order.create({
            data: {
              subscriptionId: subscription.id,
              userId: user.id,
              businessId: catalog.businessId,
              kind,
              period: periodOf(now, month),
              mode: MODE_ENUM[m.mode],
              fulfillmentPoint,
              email: user.email,
              address: withAddress ? user.address : undefined,
              selection,
              isGift: m.isGift ?? false,
              couponId: coupon?.id,
              couponCode: coupon?.code,
              subtotalCents,
              discountCents,
              // The rate that made taxCents, stored on the order as checkout and renewals store it: its receipt reads it there.
              taxRateBps: catalog.taxRateBps,
              taxCents,
              totalCents,
              createdAt,
              payments: {
                create: {
                  userId: user.id,
                  businessId: catalog.businessId,
                  subscriptionId: subscription.id,
                  provider: "sandbox",
                  providerPaymentId: placeholderPaymentId(paymentNumber),
                  amountCents: totalCents,
                  status: "SUCCEEDED",
                  createdAt,
                  paidAt: createdAt,
                },
              },
            },
          });
        }
      }
      return true;
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  if (created) {
    await saveDemoCards(db, clock);
    await connectDemoAccounts(db, clock);
    await seedDemoPayouts(db, clock);
  }
  return created;
}

/**
 * Demo businesses take payments into their own sandbox accounts (onboarded, enabled) from their first demo month,
 * so checkout works at once; seed-payouts.ts then charges their paid history there, as the app charges from now on.
 */
async function connectDemoAccounts(db: PrismaClient, clock: Clock): Promise<void> {
  const sandbox = new SandboxProvider(db, clock);
  const thisMonth = periodOf(clock.now(), 0);
  const businesses = await db.business.findMany({ select: { id: true, name: true, orders: { select: { period: true }, orderBy: { period: "asc" }, take: 1 } }, orderBy: { id: "asc" } });
  for (const b of businesses) {
    const created = await sandbox.createConnectedAccount({ businessId: b.id, name: b.name, idempotencyKey: `demo-account:${b.id}` });
    const link = await sandbox.createOnboardingLink({ accountId: created.id, refreshUrl: "http://localhost/", returnUrl: "http://localhost/" });
    const { account } = await sandbox.completeOnboarding(link.url.split("/").at(-1)!);
    const first = b.orders[0]?.period ?? thisMonth;
    await db.$transaction(async (tx) => {
      await tx.paymentAccount.create({ data: { businessId: b.id, provider: sandbox.name, accountId: account.id, status: "ENABLED", chargesEnabled: true, payoutsEnabled: true, requirementsDue: [] } });
      await tx.business.update({ where: { id: b.id }, data: { connectFromPeriod: first } });
    });
  }
}

/**
 * Demo members get a saved sandbox test card (Visa 4242), so their memberships renew on the billing clock like
 * real ones. Only meaningful with the sandbox provider, which is what demo installations use.
 */
async function saveDemoCards(db: PrismaClient, clock: Clock): Promise<void> {
  const sandbox = new SandboxProvider(db, clock);
  const members = await db.user.findMany({
    where: { subscriptions: { some: { status: { in: ["ACTIVE", "PAST_DUE"] } } } },
    select: { id: true, email: true, name: true },
  });
  for (const member of members) {
    const customerId = await sandbox.ensureCustomer({ userId: member.id, email: member.email, name: member.name });
    await db.user.update({ where: { id: member.id }, data: { paymentCustomerId: customerId } });
    const setup = await sandbox.createSetupIntent({ customerId, idempotencyKey: `demo-card:${member.id}` });
    const saved = await sandbox.confirmSetupIntent(setup.clientSecret, { number: "4242424242424242", expMonth: 12, expYear: clock.now().getUTCFullYear() + 4, cvc: "123" });
    await saveDefaultCard({ db, clock }, sandbox.name, member.id, await sandbox.describeCard(saved.paymentMethodId!));
  }
}
