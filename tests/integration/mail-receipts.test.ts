/**
 * Email about money, through a real SMTP server: receipts show the ORDER's breakdown line by line (plan,
 * surcharge, add-on, coupon, tax with its rate, Subtotal, Total charged) with its number, date in the business's
 * time zone, the card that paid and how to reach the business, and are stored with their order's id; a renewal
 * receipt keeps the order's amounts after the catalogue's prices changed; the change confirmation names its month
 * and new monthly price; the pre-charge notice names the box, amount, date and last days, with deep links that open
 * that membership's skip or change dialog, each on a line of its own in the text part.
 */
import type { ParsedMail } from "mailparser";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { mailJobs } from "../../api/jobs/mail-jobs.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { dispatchEvents } from "../../api/mail/dispatch.ts";
import { planReminders } from "../../api/mail/reminders.ts";
import { smtpTransport } from "../../api/mail/transport.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY, seedSavedCard } from "../support/payments.ts";
import { startTestSmtp, type TestSmtp } from "../support/smtp.ts";

const log = pino({ level: "silent" });
let t: TestApp;
let f: Factories;
let smtp: TestSmtp;
let jobs: JobQueue;
let orchard: { id: number; slug: string };
let veg: { id: number; ref: string };
let fruit: { id: number; ref: string };
let eggs: { id: number; ref: string };

const PORTAL = "http://localhost:3000/b/orchard/membership";
const BRAND = "Orchard Farm Boxes";

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, jobs });
async function settle() {
  await until("queued messages to be delivered", async () => (await t.db.prisma.mailMessage.count({ where: { status: "QUEUED" } })) === 0);
}
async function dispatchAndDeliver() {
  await dispatchEvents(ctx());
  await settle();
}
const to = (address: string) => (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === address));
const inbox = (address: string) => smtp.received.filter(to(address));
function only(address: string, subject: string): ParsedMail {
  const found = inbox(address).filter((m) => m.subject === subject);
  expect(found.map((m) => m.subject), `one "${subject}" to ${address}`).toEqual([subject]);
  return found[0];
}
const textLines = (m: ParsedMail) => (m.text ?? "").split("\n");
/** The HTML part as words: tags and comments become spaces, entities decoded, whitespace collapsed. */
const htmlWords = (m: ParsedMail) =>
  (typeof m.html === "string" ? m.html : "")
    .replace(/<!--.*?-->/gs, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
/** The lines of the text part from `first` (a whole line) through `last`. */
function block(m: ParsedMail, first: string, last: string): string[] {
  const lines = textLines(m);
  const from = lines.indexOf(first);
  expect(from, `"${first}" is a line of the text part`).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf(last, from);
  expect(end, `"${last}" follows it`).toBeGreaterThan(from);
  return lines.slice(from, end + 1);
}

async function checkout(username: string, email: string, selection: Record<string, unknown>, address?: Record<string, string>) {
  const user = await f.user({ username, email });
  const token = await f.session(user, "orchard");
  const started = await t.gqlOk(
    PAY.START,
    { input: { selection: { businessSlug: "orchard", planRef: veg.ref, ...selection }, email, idempotencyKey: `receipt-${username}`, ...(address ? { address } : {}) } },
    { token, tenant: "orchard" },
  );
  expect(started.startCheckout.__typename).toBe("StartCheckoutSuccess");
  const data = started.startCheckout.data;
  await t.gqlOk(PAY.CONFIRM, { s: data.clientSecret });
  const done = await t.gqlOk(PAY.COMPLETE, { id: data.paymentIntentId }, { token });
  expect(done.completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
  return {
    user,
    token,
    membershipId: data.membership.databaseId as number,
    orderId: Number(done.completeCheckout.data.order.databaseId),
    chargedCents: done.completeCheckout.data.chargedCents as number,
  };
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  // 03:00 UTC on March 6th is still March 5th in New York: dates are the business's.
  t = await createTestApp({ now: "2026-03-06T03:00:00Z", config: { smtpUrl: smtp.url, mailFrom: "boxes@example.com" } });
  f = factories(t);
  orchard = await f.business({
    slug: "orchard",
    name: "Orchard Farm",
    page: {
      billingDay: 10,
      // Boxes are packed from the 12th: on April 7th a skip still pauses April, the month the notice charges.
      cutoffDay: 8,
      boxReadyDay: 12,
      skipWindowStart: 1,
      skipWindowEnd: 14,
      changeWindowStart: 1,
      changeWindowEnd: 12,
      pickupEnabled: true,
      shippingEnabled: true,
      taxEnabled: true,
      taxRateBps: 575,
    },
  });
  await t.db.prisma.page.update({ where: { businessId: orchard.id }, data: { brandName: BRAND, mailReplyTo: "hello@orchard.example", supportPhone: "(555) 010-4477" } });
  veg = await f.plan(orchard, { name: "Veg Box", prices: { PICKUP: 2400, SHIPPING: 2900 } });
  fruit = await f.plan(orchard, { name: "Fruit Box", prices: { PICKUP: 2000 } });
  eggs = await f.addon(orchard, { name: "Eggs", amountCents: 500 });
  await f.coupon({ code: "WELCOME10", type: "PERCENT", value: 10 });
  jobs = await startJobQueue({
    db: t.db,
    log,
    definitions: mailJobs({ db: t.db.prisma, clock: t.clock, config: t.config, transport: smtpTransport(smtp.url), jobs: () => jobs }, { send: { retryDelay: 1, retryDelayMax: 2, retryLimit: 5 } }).filter(
      (d) => d.queue.name === "mail-send",
    ),
    schedules: [],
    pollingIntervalSeconds: 0.5,
  });
}, 60_000);
afterAll(async () => {
  await jobs?.stop(2_000);
  await smtp?.close();
  await t?.close();
});

describe("receipts, the change confirmation and the pre-charge notice", () => {
  let ada: Awaited<ReturnType<typeof checkout>>;
  let ben: Awaited<ReturnType<typeof checkout>>;

  it("the welcome receipt itemises the order: plan, shipping, add-on, coupon, tax with its rate, Subtotal and Total charged, with order number, date, card and phone", async () => {
    ada = await checkout(
      "ada",
      "ada@example.com",
      { mode: "SHIPPING", addonRefs: [eggs.ref], couponCode: "welcome10" },
      { fullName: "Ada Lovelace", street: "1 Orchard Lane", city: "Albany", state: "NY", zip: "12207", country: "US" },
    );
    // 2900 (2400 + 500 shipping) + 500 eggs = 3400; 10 % off = 340 → 3060; tax 5.75 % = 175.95 → 176; 3236.
    expect(ada.chargedCents).toBe(3236);
    await dispatchAndDeliver();
    const welcome = only("ada@example.com", `Welcome to ${BRAND}: your receipt`);
    const rows = ["Veg Box: $24.00", "Shipping: $5.00", "Eggs: $5.00", "Subtotal: $34.00", "Coupon WELCOME10: -$3.40", "Tax (5.75%): $1.76", "Total charged: $32.36"];
    expect(block(welcome, "Veg Box: $24.00", "Total charged: $32.36")).toEqual(rows);
    expect(block(welcome, `Order #${ada.orderId}`, "Paid with VISA ending in 4242")).toEqual([`Order #${ada.orderId}`, "Date: March 5, 2026", "Paid with VISA ending in 4242"]);
    expect(textLines(welcome)).toContain("Your membership is active. We charged $32.36 for your March 2026 box.");
    expect(textLines(welcome)).toContain(`Questions about this order? Reply to this email or call ${BRAND} at (555) 010-4477.`);
    expect(textLines(welcome)).toContain(`Open your portal: ${PORTAL}?tab=subscriptions`);
    expect(welcome.text).not.toMatch(/2026-03/);

    const html = htmlWords(welcome);
    expect(html).toContain(
      `Order #${ada.orderId} Date: March 5, 2026 Paid with VISA ending in 4242 Veg Box $24.00 Shipping $5.00 Eggs $5.00 Subtotal $34.00 Coupon WELCOME10 -$3.40 Tax (5.75%) $1.76 Total charged $32.36`,
    );
    expect(html).toContain(`Questions about this order? Reply to this email or call ${BRAND} at (555) 010-4477.`);

    const stored = await t.db.prisma.mailMessage.findFirstOrThrow({ where: { toAddress: "ada@example.com", template: "welcome" } });
    expect(stored.orderId).toBe(ada.orderId);
    expect((await t.db.prisma.order.findUniqueOrThrow({ where: { id: ada.orderId } })).totalCents).toBe(3236);
  });

  it("the change confirmation names the month it takes effect and the new monthly price", async () => {
    ben = await checkout("ben", "ben@example.com", { mode: "PICKUP" });
    // 2400 + 5.75 % tax (138) = 2538.
    expect(ben.chargedCents).toBe(2538);
    const changed = await t.gqlOk(
      `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) { __typename ... on Error { message } } }`,
      { input: { subscriptionId: String(ben.membershipId), planId: String(fruit.id), mode: "PICKUP", addonIds: [] } },
      { token: ben.token, tenant: "orchard" },
    );
    expect(changed.changeSubscription.__typename).toBe("ChangeSubscriptionSuccess");
    await dispatchAndDeliver();
    const mail = only("ben@example.com", `Your ${BRAND} box changes from April 2026`);
    // Fruit Box by pickup: 2000 + 5.75 % tax (115) = 2115.
    expect(textLines(mail)).toContain("From April 2026 your box will be: Fruit Box, pickup.");
    expect(textLines(mail)).toContain("Your new monthly price is $21.15, charged from April 2026 on.");
    expect(htmlWords(mail)).toContain("Your new monthly price is $21.15, charged from April 2026 on.");
    expect((await t.db.prisma.mailMessage.findFirstOrThrow({ where: { toAddress: "ben@example.com", template: "changed" } })).orderId).toBeNull();
  });

  it("the pre-charge notice: the box charged, amount, date, the last days to skip and change, and deep links each on a line of its own", async () => {
    t.clock.set("2026-04-07T15:00:00Z");
    await planReminders(ctx());
    await settle();
    const notice = only("ada@example.com", "Upcoming charge: $32.36 on April 10, 2026");
    const skip = `${PORTAL}?tab=subscriptions&membership=${ada.membershipId}&open=skip`;
    const change = `${PORTAL}?tab=subscriptions&membership=${ada.membershipId}&open=change`;
    const lines = textLines(notice);
    expect(lines).toContain("On April 10, 2026 we'll charge $32.36 for your April 2026 box: Veg Box, shipping.");
    expect(lines).toContain("The last day to skip a month is April 14, 2026.");
    expect(lines).toContain("The last day to change your box is April 12, 2026.");
    expect(lines).toContain(`Skip a month: ${skip}`);
    expect(lines).toContain(`Change your box: ${change}`);
    expect(lines.filter((l) => l.includes("http"))).toEqual([`Skip a month: ${skip}`, `Change your box: ${change}`, `Turn these reminders off in your portal's Profile. You get this message about your account with ${BRAND}: http://localhost:3000/b/orchard`]);
    expect(notice.html).toContain(`href="${skip.replaceAll("&", "&amp;")}"`);
    expect(notice.html).toContain(`href="${change.replaceAll("&", "&amp;")}"`);

    // Ben's change takes effect with April's charge: the notice names the new box at its new price.
    const bens = only("ben@example.com", "Upcoming charge: $21.15 on April 10, 2026");
    expect(textLines(bens)).toContain("On April 10, 2026 we'll charge $21.15 for your April 2026 box: Fruit Box, pickup.");
    expect(textLines(bens)).toContain(`Skip a month: ${PORTAL}?tab=subscriptions&membership=${ben.membershipId}&open=skip`);
  });

  it("the window-closing reminder's button opens the same membership's change dialog", async () => {
    // The change window (days 1–12) closes in 3 days; the skip window (1–14) is reminded on the 11th.
    t.clock.set("2026-04-09T15:00:00Z");
    await planReminders(ctx());
    await settle();
    const [reminder] = inbox("ada@example.com").filter((m) => m.subject?.startsWith("Last days to"));
    expect(reminder.subject).toMatch(/^Last days to change your \w+ 2026 box$/);
    const links = textLines(reminder).filter((l) => l.includes("http") && !l.includes("You get this message"));
    expect(links).toEqual([`Change your box: ${PORTAL}?tab=subscriptions&membership=${ada.membershipId}&open=change`]);
  });

  it("the renewal receipt shows the order's stored amounts after the catalogue's prices went up", async () => {
    await t.db.prisma.planVariation.updateMany({ where: { planId: veg.id, mode: "PICKUP" }, data: { amountCents: 3000 } });
    await t.db.prisma.planVariation.updateMany({ where: { planId: veg.id, mode: "SHIPPING" }, data: { amountCents: 3700 } });
    await t.db.prisma.addon.update({ where: { id: eggs.id }, data: { amountCents: 800 } });
    // 02:00 UTC on April 11th is April 10th, the billing day, in New York.
    t.clock.set("2026-04-11T02:00:00Z");
    await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log });
    await dispatchAndDeliver();
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: ada.membershipId, period: "2026-04" } });
    expect(order.totalCents).toBe(3236);
    const receipt = only("ada@example.com", `Your ${BRAND} receipt for April 2026`);
    expect(block(receipt, "Veg Box: $24.00", "Total charged: $32.36")).toEqual([
      "Veg Box: $24.00",
      "Shipping: $5.00",
      "Eggs: $5.00",
      "Subtotal: $34.00",
      "Coupon WELCOME10: -$3.40",
      "Tax (5.75%): $1.76",
      "Total charged: $32.36",
    ]);
    expect(block(receipt, `Order #${order.id}`, "Paid with VISA ending in 4242")).toEqual([`Order #${order.id}`, "Date: April 10, 2026", "Paid with VISA ending in 4242"]);
    expect(textLines(receipt)).toContain("We charged $32.36 for your April 2026 box.");
    expect(receipt.text).not.toMatch(/\$30\.00|\$37\.00|\$8\.00/);
    expect(htmlWords(receipt)).toContain("Veg Box $24.00 Shipping $5.00 Eggs $5.00 Subtotal $34.00 Coupon WELCOME10 -$3.40 Tax (5.75%) $1.76 Total charged $32.36");
    const stored = await t.db.prisma.mailMessage.findFirstOrThrow({ where: { toAddress: "ada@example.com", template: "renewal_receipt" } });
    expect(stored.orderId).toBe(order.id);
  });

  it("a new delivery address: the member is told where the boxes go and from which month", async () => {
    // April 16th: April's list froze at the end of its cutoff day (the 8th), so the new address applies from May.
    t.clock.set("2026-04-16T15:00:00Z");
    const moved = await t.gqlOk(
      `mutation($input: ChangeMembershipAddressInput!) { changeMembershipAddress(input: $input) { __typename ... on ChangeMembershipAddressSuccess { data { appliesFrom } } ... on Error { message } } }`,
      { input: { subscriptionId: String(ada.membershipId), address: { fullName: "Ada Lovelace", street: "12 River Road", apt: "Unit 4", city: "Troy", state: "NY", zip: "12180", country: "US" } } },
      // A fresh login: the checkout's session has expired by mid-April.
      { token: await f.session(ada.user, "orchard") },
    );
    expect(moved.changeMembershipAddress).toEqual({ __typename: "ChangeMembershipAddressSuccess", data: { appliesFrom: "2026-05" } });
    await dispatchAndDeliver();
    const mail = only("ada@example.com", `Your ${BRAND} boxes go to a new address from May 2026`);
    expect(block(mail, "From your May 2026 box on, your Veg Box, shipping goes to:", "US")).toEqual([
      "From your May 2026 box on, your Veg Box, shipping goes to:",
      "",
      "Ada Lovelace",
      "",
      "12 River Road, Unit 4",
      "",
      "Troy, NY 12180",
      "",
      "US",
    ]);
    const stored = await t.db.prisma.mailMessage.findFirstOrThrow({ where: { toAddress: "ada@example.com", template: "address_changed" } });
    expect(stored.orderId).toBeNull();
  });

  it("a charged restart's receipt: the restart order, the member's default card, its order id stored", async () => {
    t.clock.set("2026-04-15T15:00:00Z");
    const cy = await f.user({ username: "cy", email: "cy@example.com" });
    await seedSavedCard(t.db.prisma, cy);
    const sub = await f.subscription({ user: cy, business: orchard, plan: fruit, status: "CANCELED", planAmountCents: 2000, paidThroughPeriod: "2026-02", canceledAt: "2026-03-01T15:00:00Z" });
    const token = await f.session(cy, "orchard");
    const restarted = await t.gqlOk(PAY.RESTART, { id: String(sub.id) }, { token, tenant: "orchard" });
    expect(restarted.restartSubscription).toMatchObject({ __typename: "RestartSubscriptionSuccess", data: { outcome: "PAID" } });
    await dispatchAndDeliver();
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: sub.id, kind: "RESTART" } });
    const amount = `$${(order.totalCents / 100).toFixed(2)}`;
    const mail = only("cy@example.com", `Your ${BRAND} membership is active again`);
    expect(block(mail, `Order #${order.id}`, "Paid with VISA ending in 4242")).toEqual([`Order #${order.id}`, "Date: April 15, 2026", "Paid with VISA ending in 4242"]);
    expect(textLines(mail).at(textLines(mail).indexOf(`Total charged: ${amount}`) - 1)).toMatch(/^(Subtotal|Tax \(5\.75%\)): /);
    expect(textLines(mail)).toContain("Fruit Box: $20.00");
    expect(textLines(mail)).toContain(`Total charged: ${amount}`);
    expect((await t.db.prisma.mailMessage.findFirstOrThrow({ where: { toAddress: "cy@example.com", template: "restarted" } })).orderId).toBe(order.id);
  });
});
