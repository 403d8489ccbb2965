/**
 * Payouts, part 2: balances and payouts. In the sandbox the `payouts-sandbox` job stands in for Stripe's weekly
 * schedule and the banks: over a simulated fortnight a connected business's checkout and renewal become available
 * two days after they are charged, the Monday pass (New York's Monday) pays out exactly what is available, once
 * (a second pass the same Monday pays nothing, though more became available), the payout is in transit, then paid
 * on its arrival day; a failing test bank number (000111111116) fails it, its amount back in the balance. The
 * mirror (`payouts`) announces `payout.paid.v1` / `payout.failed.v1` once each, which mail the owner through a real
 * SMTP server; GraphQL shows the balance, the next payout day and the payouts. With Stripe (the local double) the
 * Connect webhook's payout events, redelivered and out of order, are each applied once. Both databases.
 */
import type { ParsedMail } from "mailparser";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "../../api/context.ts";
import { sandboxFor } from "../../api/billing/service.ts";
import { StripeProvider, createStripeClient } from "../../api/billing/providers/stripe/provider.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { moveDemoClock } from "../../api/jobs/demo-clock.ts";
import { mailJobs } from "../../api/jobs/mail-jobs.ts";
import { PAYOUTS_SANDBOX_QUEUE, payoutsSandboxJob } from "../../api/jobs/payouts-sandbox-job.ts";
import { dispatchEvents, MAIL_CONSUMER } from "../../api/mail/dispatch.ts";
import { smtpTransport } from "../../api/mail/transport.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { deliverConnectEvent } from "../support/connect-events.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY, seedSavedCard } from "../support/payments.ts";
import { startTestSmtp, type TestSmtp } from "../support/smtp.ts";
import { startStripeDouble, type StripeDouble } from "../support/stripe-double.ts";

const log = pino({ level: "silent" });
const FARMER = "farmer@farm.example";
const DAIRY = "dairy@dairy.example";

let t: TestApp;
let f: Factories;
let smtp: TestSmtp;
let seq = 0;
let farm: { id: number; slug: string };
let dairy: { id: number; slug: string };
const tokens: Record<string, string> = {};

const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });
const pass = () => payoutsSandboxJob(ctx()).run({} as never, new AbortController().signal);
const accountOf = async (businessId: number) => (await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId } })).accountId;
const balanceOf = async (businessId: number) => sandboxFor(ctx()).retrieveBalance(await accountOf(businessId));
/** What the business's books say it is owed: every routed charge's net (no refunds here). */
const ledgerNet = async (businessId: number, before?: Date) =>
  (await t.db.prisma.ledgerEntry.aggregate({ where: { businessId, ...(before ? { occurredAt: { lt: before } } : {}) }, _sum: { netCents: true } }))._sum.netCents ?? 0;
const events = (type: string, businessId: number) => t.db.prisma.event.findMany({ where: { type, businessId }, orderBy: { sequence: "asc" } });

const BALANCE = `query($slug: String!) { business(slug: $slug) {
  balance { availableCents pendingCents nextPayoutDate }
  payouts(first: 10) { edges { node { databaseId amountCents status arrivalDate failureCode failureReason createdAt } } pageInfo { hasNextPage } }
} }`;
const payoutsPage = async (slug: string) => (await t.gqlOk(BALANCE, { slug }, { token: tokens[slug] })).business;

async function checkout(business: { slug: string }, plan: { ref: string }) {
  const buyer = await f.user({ username: `buyer${++seq}` });
  const opts = { token: await f.session(buyer, business.slug), tenant: business.slug };
  const selection = { businessSlug: business.slug, planRef: plan.ref, mode: "PICKUP", addonRefs: [] };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `buyer${seq}@example.com`, idempotencyKey: `payouts-mirror-${seq}-key` } }, opts)).startCheckout;
  expect(started.__typename).toBe("StartCheckoutSuccess");
  await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, opts);
  expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
}

async function owner(business: { id: number; slug: string }, email: string) {
  const user = await f.user({ username: business.slug + "-owner", email });
  await f.attach(business, user, "OWNER");
  tokens[business.slug] = await f.session(user);
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  // Monday March 2nd, 2026: the fortnight below runs to Monday the 16th (New York: daylight time from the 8th).
  t = await createTestApp({ now: "2026-03-02T15:00:00Z", config: { smtpUrl: smtp.url, mailFrom: "boxes@example.com" } });
  f = factories(t);
  farm = await f.business({ slug: "farm", name: "Green Farm", page: { billingDay: 5, pickupEnabled: true } });
  dairy = await f.business({ slug: "dairy", name: "Dairy", page: { billingDay: 5, pickupEnabled: true } });
  await owner(farm, FARMER);
  await owner(dairy, DAIRY);
  // The dairy's payouts go to Stripe's test bank number whose payouts fail (no_account).
  const account = await t.db.prisma.sandboxObject.findUniqueOrThrow({ where: { id: await accountOf(dairy.id) } });
  await t.db.prisma.sandboxObject.update({ where: { id: account.id }, data: { data: { ...(account.data as object), bankAccountNumber: "000111111116" } } });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe("the sandbox's payouts over a fortnight", () => {
  let farmPayout: number;

  beforeAll(async () => {
    const farmPlan = await f.plan(farm, { prices: { PICKUP: 2900 } });
    const dairyPlan = await f.plan(dairy, { prices: { PICKUP: 1800 } });
    // Tuesday 3rd: a checkout at each.
    t.clock.set("2026-03-03T15:00:00Z");
    await checkout(farm, farmPlan);
    await checkout(dairy, dairyPlan);
    // Thursday 5th: the farm's billing day renews Cy.
    t.clock.set("2026-03-05T15:00:00Z");
    const cy = await f.user({ username: "cy" });
    const pm = await seedSavedCard(t.db.prisma, cy);
    const sub = await f.subscription({ user: cy, business: farm, plan: farmPlan, planAmountCents: 4550, totalCents: 4550, paidThroughPeriod: "2026-02" });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 5, providerPaymentMethodId: pm } });
    expect(await runRenewals(ctx(), { businessId: farm.id })).toMatchObject({ charged: 1 });
    // Saturday 7th, 18:00 UTC: one more checkout, available Monday at 18:00 UTC.
    t.clock.set("2026-03-07T18:00:00Z");
    await checkout(farm, farmPlan);
  }, 60_000);

  it("pays nothing before Monday, though money is available; the balance and the next payout day say so", async () => {
    t.clock.set("2026-03-07T20:00:00Z");
    const heldSince = new Date("2026-03-07T00:00:00Z");
    expect(await pass()).toEqual({ paid: 0, settled: 0, failed: 0, mirrored: 0 });
    const page = await payoutsPage(farm.slug);
    expect(page.balance).toEqual({ availableCents: await ledgerNet(farm.id, heldSince), pendingCents: (await ledgerNet(farm.id)) - (await ledgerNet(farm.id, heldSince)), nextPayoutDate: "2026-03-09" });
    expect(page.balance.availableCents).toBeGreaterThan(0);
    expect(page.payouts).toEqual({ edges: [], pageInfo: { hasNextPage: false } });
  });

  it("on Monday pays out exactly what is available, in transit for two days, once however many passes run", async () => {
    t.clock.set("2026-03-09T15:00:00Z");
    const available = (await balanceOf(farm.id)).availableCents;
    const dairyAvailable = (await balanceOf(dairy.id)).availableCents;
    expect(await pass()).toEqual({ paid: 2, settled: 0, failed: 0, mirrored: 2 });
    const [made] = (await sandboxFor(ctx()).listPayouts(await accountOf(farm.id))).payouts;
    expect(made).toMatchObject({ amountCents: available, status: "in_transit", arrivalDate: "2026-03-11" });
    // Never more than was available when it was made: the balance is left at zero.
    expect((await balanceOf(farm.id)).availableCents).toBe(0);
    expect((await balanceOf(dairy.id)).availableCents).toBe(0);
    const page = await payoutsPage(farm.slug);
    expect(page.balance).toMatchObject({ availableCents: 0, nextPayoutDate: "2026-03-16" });
    expect(page.payouts.edges.map((e: { node: object }) => e.node)).toEqual([
      expect.objectContaining({ amountCents: available, status: "IN_TRANSIT", arrivalDate: "2026-03-11", failureCode: null, failureReason: null, createdAt: "2026-03-09T15:00:00.000Z" }),
    ]);
    farmPayout = page.payouts.edges[0].node.databaseId;
    expect((await payoutsPage(dairy.slug)).payouts.edges[0].node).toMatchObject({ amountCents: dairyAvailable, status: "IN_TRANSIT" });

    // 16:00 in New York, still Monday: Saturday's checkout is available now, and waits for next Monday.
    t.clock.set("2026-03-09T20:00:00Z");
    expect((await balanceOf(farm.id)).availableCents).toBeGreaterThan(0);
    expect(await pass()).toEqual({ paid: 0, settled: 0, failed: 0, mirrored: 0 });
    expect(await t.db.prisma.payout.count()).toBe(2);
    expect(await events("payout.paid.v1", farm.id)).toEqual([]);
  });

  it("on the arrival day the payout is paid, announced once; the failing bank number fails it back into the balance", async () => {
    t.clock.set("2026-03-11T15:00:00Z");
    const dairyPayout = await t.db.prisma.payout.findFirstOrThrow({ where: { businessId: dairy.id } });
    expect(await pass()).toEqual({ paid: 0, settled: 1, failed: 1, mirrored: 2 });
    expect(await pass()).toEqual({ paid: 0, settled: 0, failed: 0, mirrored: 0 });

    const paid = await t.db.prisma.payout.findUniqueOrThrow({ where: { id: farmPayout } });
    expect(paid).toMatchObject({ status: "PAID", businessId: farm.id, provider: "sandbox", updatedAt: new Date("2026-03-11T15:00:00Z") });
    expect((await events("payout.paid.v1", farm.id)).map((e) => e.payload)).toEqual([{ payoutId: farmPayout, businessId: farm.id, amountCents: paid.amountCents, arrivalDate: "2026-03-11" }]);
    expect(await events("payout.failed.v1", farm.id)).toEqual([]);

    const failed = (await payoutsPage(dairy.slug)).payouts.edges[0].node;
    expect(failed).toMatchObject({ status: "FAILED", failureCode: "no_account", failureReason: "The bank couldn't find an account with the bank details on file." });
    expect((await events("payout.failed.v1", dairy.id)).map((e) => e.payload)).toEqual([{ payoutId: dairyPayout.id, businessId: dairy.id, amountCents: dairyPayout.amountCents, failureCode: "no_account" }]);
    // The amount is back in the balance, for the next Monday.
    expect((await balanceOf(dairy.id)).availableCents).toBe(dairyPayout.amountCents);
    expect((await payoutsPage(farm.slug)).balance.nextPayoutDate).toBe("2026-03-16");
  });

  it("the next Monday's pass comes when the demo clock moves there, and pays what became available since", async () => {
    const ownerSaw = await ledgerNet(farm.id);
    let jobs: JobQueue | undefined;
    try {
      jobs = await startJobQueue({ db: t.db, log, definitions: [payoutsSandboxJob(ctx())], schedules: [], pollingIntervalSeconds: 0.5 });
      const admin = { ...ctx(), actor: { kind: "user", user: { id: 1, publicId: "u1", username: "admin", isAdmin: true }, session: { id: 1, tenantSlug: null } }, tenant: null, jobs, roleCache: new Map() } as unknown as ServiceContext;
      await moveDemoClock(admin, new Date("2026-03-16T15:00:00Z"));
      const deadline = Date.now() + 30_000;
      let output: unknown;
      while (!output && Date.now() < deadline) {
        const [job] = await jobs.boss.findJobs(PAYOUTS_SANDBOX_QUEUE);
        if (job?.state === "completed") output = job.output;
        else await new Promise((r) => setTimeout(r, 200));
      }
      expect(output).toEqual({ paid: 2, settled: 0, failed: 0, mirrored: 2 });
    } finally {
      await jobs?.stop(2_000);
    }
    const farmPayouts = await t.db.prisma.payout.findMany({ where: { businessId: farm.id }, orderBy: { createdAt: "asc" } });
    // Two payouts: together all the farm's books hold, nothing more.
    expect(farmPayouts.reduce((s, p) => s + p.amountCents, 0)).toBe(ownerSaw);
    expect((await payoutsPage(farm.slug)).payouts.edges.map((e: { node: { status: string } }) => e.node.status)).toEqual(["IN_TRANSIT", "PAID"]);
  }, 60_000);

  it("mails the owners: the payout paid with a link to its month's statement, the failed one with the reason and Bank details", async () => {
    let jobs: JobQueue | undefined;
    try {
      jobs = await startJobQueue({
        db: t.db,
        log,
        definitions: mailJobs({ db: t.db.prisma, clock: t.clock, config: t.config, transport: smtpTransport(smtp.url), jobs: () => jobs }).filter((d) => d.queue.name === "mail-send"),
        schedules: [],
        pollingIntervalSeconds: 0.5,
      });
      await dispatchEvents({ db: t.db.prisma, clock: t.clock, config: t.config, jobs });
      const deadline = Date.now() + 20_000;
      while ((await t.db.prisma.mailMessage.count({ where: { status: "QUEUED" } })) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      // A re-read outbox plans nothing twice.
      await t.db.prisma.eventConsumer.update({ where: { name: MAIL_CONSUMER }, data: { position: 0n } });
      expect((await dispatchEvents({ db: t.db.prisma, clock: t.clock, config: t.config, jobs })).messages).toBe(0);
    } finally {
      await jobs?.stop(2_000);
    }
    const to = (address: string) => (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === address));
    const payouts = `http://localhost:3000/admin/business`;
    const paid = await t.db.prisma.payout.findUniqueOrThrow({ where: { id: farmPayout } });
    const [sent] = smtp.received.filter(to(FARMER));
    const amount = `$${(paid.amountCents / 100).toFixed(2)}`;
    expect(sent.subject).toBe(`${amount} paid out to your bank account`);
    expect(sent.text).toContain(`A payout of ${amount} from Green Farm was paid to your bank account on March 11, 2026.`);
    expect(sent.text).toContain(`View statement: ${payouts}/${farm.id}/payouts?month=2026-03`);
    expect(smtp.received.filter(to(FARMER))).toHaveLength(1);

    const dairyPayout = await t.db.prisma.payout.findFirstOrThrow({ where: { businessId: dairy.id, status: "FAILED" } });
    const [failed] = smtp.received.filter(to(DAIRY));
    const lost = `$${(dairyPayout.amountCents / 100).toFixed(2)}`;
    expect(failed.subject).toBe(`A payout of ${lost} from Dairy failed`);
    expect(failed.text).toContain("The bank couldn't find an account with the bank details on file.");
    expect(failed.text).toContain("The money is back in your balance.");
    expect(failed.text).toContain(`Bank details: ${payouts}/${dairy.id}/payouts`);
    expect(await t.db.prisma.mailMessage.findMany({ where: { template: { in: ["payout_sent", "payout_failed"] } }, select: { template: true, businessId: true, status: true } })).toEqual(
      expect.arrayContaining([
        { template: "payout_sent", businessId: farm.id, status: "SENT" },
        { template: "payout_failed", businessId: dairy.id, status: "SENT" },
      ]),
    );
  }, 60_000);

  it("has no balance for a business without a payout account, and hides it from staff who may not manage payouts", async () => {
    const shop = await f.business({ slug: "new-shop", payouts: "none" });
    await owner(shop, "shop@example.com");
    expect(await payoutsPage(shop.slug)).toEqual({ balance: null, payouts: { edges: [], pageInfo: { hasNextPage: false } } });
    const editor = await f.user({ username: "farm-editor" });
    await f.attach(farm, editor, "EDITOR");
    const res = await t.gql(BALANCE, { slug: farm.slug }, { token: await f.session(editor) });
    expect(res.data?.business).toEqual({ balance: null, payouts: null });
    expect(res.errors?.length).toBeGreaterThan(0);
  });
});

describe("Stripe's payout events on the Connect webhook", () => {
  const SECRET = "whsec_connect_payouts";
  let stripe: StripeDouble;
  let s: TestApp;
  beforeAll(async () => {
    stripe = await startStripeDouble();
    s = await createTestApp({
      now: "2026-03-05T15:00:00Z",
      config: { paymentProvider: "stripe", stripe: { secretKey: "sk_test_double", webhookSecret: "whsec_platform", connectWebhookSecret: SECRET, apiBase: stripe.url, publishableKey: "pk_test_double" } },
    });
  });
  afterAll(async () => {
    await s?.close();
    await stripe?.close();
  });

  const deliver = async (event: object) => (await deliverConnectEvent(s, event, SECRET)).json().result as string;

  it("records each payout once, whatever the order and however often Stripe delivers", async () => {
    const g = factories(s);
    const business = await g.business({ slug: "stripe-farm", payouts: "none", page: { pickupEnabled: true } });
    const boss = await g.user({ email: "stripe-farm@example.com" });
    await g.attach(business, boss, "OWNER");
    const START = `mutation($b: ID!) { startPayoutOnboarding(input: { businessId: $b }) { __typename } }`;
    expect((await s.gqlOk(START, { b: business.id }, { token: await g.session(boss) })).startPayoutOnboarding.__typename).toBe("StartPayoutOnboardingSuccess");
    const accountId = (await s.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: business.id } })).accountId;
    expect(await deliver({ id: "evt_acct_1", object: "event", type: "account.updated", account: accountId, data: { object: stripe.onboard(accountId) }, api_version: "2025-01-01", created: 1 })).toBe("processed");

    // Money at the account (a routed charge), and two payouts of it.
    const provider = new StripeProvider(createStripeClient({ secretKey: "sk_test_double", apiBase: stripe.url }));
    const route = { destination: accountId, applicationFeeCents: 259, descriptorSuffix: "FARM" };
    await provider.chargeSavedCard({ customerId: "cus_dbl_member", paymentMethodId: "pm_card_visa", amountCents: 2900, currency: "usd", idempotencyKey: "payout-events-1", metadata: {}, route });
    const client = createStripeClient({ secretKey: "sk_test_double", apiBase: stripe.url });
    const first = await client.payouts.create({ amount: 1500, currency: "usd" }, { stripeAccount: accountId });
    const second = await client.payouts.create({ amount: 1141, currency: "usd" }, { stripeAccount: accountId });
    expect(await provider.retrieveBalance(accountId)).toMatchObject({ availableCents: 0 });

    const created = stripe.payoutEvent(accountId, first.id, "payout.created");
    const paid = stripe.payoutEvent(accountId, first.id, "payout.paid");
    // Paid first, then redelivered, then the late created and an update of it: PAID stays, announced once.
    expect(await deliver(paid)).toBe("processed");
    expect(await deliver(paid)).toBe("duplicate");
    expect(await deliver(created)).toBe("ignored");
    expect(await deliver({ ...created, id: "evt_payout_updated_late", type: "payout.updated" })).toBe("ignored");
    const row = await s.db.prisma.payout.findUniqueOrThrow({ where: { providerPayoutId: first.id } });
    expect(row).toMatchObject({ businessId: business.id, provider: "stripe", amountCents: 1500, status: "PAID", arrivalDate: new Date(first.arrival_date * 1000).toISOString().slice(0, 10) });
    const announced = await s.db.prisma.event.findMany({ where: { type: "payout.paid.v1", businessId: business.id } });
    expect(announced.map((e) => e.payload)).toEqual([{ payoutId: row.id, businessId: business.id, amountCents: 1500, arrivalDate: row.arrivalDate }]);

    // The second: created (PENDING), failed (its amount back at Stripe), the failure redelivered, a late created.
    const secondCreated = stripe.payoutEvent(accountId, second.id, "payout.created");
    expect(await deliver(secondCreated)).toBe("processed");
    expect((await s.db.prisma.payout.findUniqueOrThrow({ where: { providerPayoutId: second.id } })).status).toBe("PENDING");
    const failed = stripe.payoutEvent(accountId, second.id, "payout.failed");
    expect(await deliver(failed)).toBe("processed");
    expect(await deliver(failed)).toBe("duplicate");
    expect(await deliver({ ...secondCreated, id: "evt_payout_created_again" })).toBe("ignored");
    const lost = await s.db.prisma.payout.findUniqueOrThrow({ where: { providerPayoutId: second.id } });
    expect(lost).toMatchObject({ status: "FAILED", failureCode: "no_account" });
    const failures = await s.db.prisma.event.findMany({ where: { type: "payout.failed.v1", businessId: business.id } });
    expect(failures.map((e) => e.payload)).toEqual([{ payoutId: lost.id, businessId: business.id, amountCents: 1141, failureCode: "no_account" }]);

    // The owner's page reads Stripe's balance (the failed amount is back) and the mirror, newest first.
    const page = (await s.gqlOk(BALANCE, { slug: "stripe-farm" }, { token: await g.session(boss) })).business;
    expect(page.balance).toMatchObject({ availableCents: 1141, pendingCents: 0 });
    expect(page.balance.nextPayoutDate).toBe("2026-03-09");
    expect(page.payouts.edges.map((e: { node: { status: string; amountCents: number } }) => [e.node.status, e.node.amountCents])).toEqual([
      ["FAILED", 1141],
      ["PAID", 1500],
    ]);
    // An account we do not know: nothing recorded.
    expect(await deliver({ ...paid, id: "evt_other_account", account: "acct_unknown" })).toBe("ignored");
  });
});
