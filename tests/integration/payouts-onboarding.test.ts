/**
 * Payouts, part 1: a business connects its own account. In the sandbox the owner's onboarding page goes through
 * the same handler as Stripe's `account.updated` on the Connect webhook (tested here through the local Stripe
 * double). The first enable fixes the month charges start going to the account; the business page takes members
 * from then on; each change is announced once. Administrators schedule fees from a month no business has begun.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { deliverConnectEvent } from "../support/connect-events.ts";
import { factories, type Factories } from "../support/factories.ts";
import { startStripeDouble, type StripeDouble } from "../support/stripe-double.ts";
import { PAY } from "../support/payments.ts";
import { providerFor } from "../../api/billing/service.ts";

const START = `mutation($b: ID!) { startPayoutOnboarding(input: { businessId: $b }) { __typename ... on StartPayoutOnboardingSuccess { data { url } } ... on Error { message reason } } }`;
const LINK = `query($link: String!) { sandboxOnboardingLink(link: $link) { businessName usable } }`;
const COMPLETE = `mutation($link: String!, $due: Boolean) { completeSandboxOnboarding(link: $link, leaveRequirementsDue: $due) {
  __typename ... on CompleteSandboxOnboardingSuccess { data } ... on Error { message } } }`;
const REFRESH = `mutation($b: ID!) { refreshPayoutAccount(input: { businessId: $b }) { __typename ... on RefreshPayoutAccountSuccess { data { status requirementsDue } } ... on Error { message } } }`;
const PAGE = `query($slug: String!) { business(slug: $slug) { acceptingMembers connectFromPeriod payoutAccount { status chargesEnabled requirementsDue } } }`;
const SCHEDULE = `mutation($input: ScheduleFeeInput!) { scheduleFee(input: $input) { __typename ... on ScheduleFeeSuccess { data { effectivePeriod platformBps } } ... on Error { message } } }`;

let t: TestApp;
let f: Factories;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
});
afterAll(() => t?.close());

async function newBusiness(payouts: "none" | "legacy" = "none") {
  const slug = `connect-${++seq}`;
  const business = await f.business({ slug, name: `Connect Farm ${seq}`, payouts, page: { billingDay: 3, pickupEnabled: true } });
  const owner = await f.user({ username: `owner${seq}`, email: `owner${seq}@example.com` });
  await f.attach(business, owner, "OWNER");
  return { business, slug, token: await f.session(owner) };
}

const linkOf = (url: string) => new URL(url).pathname.split("/").at(-1)!;
const eventsOf = (businessId: number) => t.db.prisma.event.findMany({ where: { businessId, type: "payout_account.updated.v1" }, orderBy: { sequence: "asc" } });

describe("sandbox onboarding", () => {
  it("connects a new business: the owner's visit enables the account, fixes this month, and opens the page to members", async () => {
    const { business, slug, token } = await newBusiness();
    expect((await t.gqlOk(PAGE, { slug }, { token })).business).toEqual({ acceptingMembers: false, connectFromPeriod: null, payoutAccount: null });

    const started = (await t.gqlOk(START, { b: business.id }, { token })).startPayoutOnboarding;
    expect(started.__typename).toBe("StartPayoutOnboardingSuccess");
    expect(started.data.url).toMatch(/^http:\/\/[^/]+\/sandbox\/connect\/link_/);
    // The account is made once, whatever the number of links.
    const again = (await t.gqlOk(START, { b: business.id }, { token })).startPayoutOnboarding;
    expect(again.data.url).not.toBe(started.data.url);
    expect(await t.db.prisma.paymentAccount.count({ where: { businessId: business.id } })).toBe(1);
    expect((await t.gqlOk(PAGE, { slug }, { token })).business.payoutAccount).toMatchObject({ status: "ONBOARDING", chargesEnabled: false });

    const link = linkOf(again.data.url);
    expect((await t.gqlOk(LINK, { link })).sandboxOnboardingLink).toEqual({ businessName: business.name, usable: true });
    const done = (await t.gqlOk(COMPLETE, { link })).completeSandboxOnboarding;
    expect(done.data).toMatch(new RegExp(`/admin/business/${business.id}/payouts\\?onboarding=return$`));
    expect((await t.gqlOk(PAGE, { slug }, { token })).business).toEqual({
      acceptingMembers: true,
      connectFromPeriod: "2026-03",
      payoutAccount: { status: "ENABLED", chargesEnabled: true, requirementsDue: [] },
    });
    expect((await eventsOf(business.id)).map((e) => e.payload)).toEqual([
      { businessId: business.id, status: "ENABLED", chargesEnabled: true, payoutsEnabled: true, requirementsDue: [] },
    ]);

    // A spent link is refused; the owner's return reads the same state and announces nothing new.
    expect((await t.gqlOk(LINK, { link })).sandboxOnboardingLink.usable).toBe(false);
    expect((await t.gqlOk(COMPLETE, { link })).completeSandboxOnboarding).toMatchObject({ __typename: "ValidationError", message: expect.stringMatching(/expired/) });
    expect((await t.gqlOk(REFRESH, { b: business.id }, { token })).refreshPayoutAccount.data.status).toBe("ENABLED");
    expect(await eventsOf(business.id)).toHaveLength(1);
  });

  it("can leave requirements due: the account is restricted and the page still takes no members", async () => {
    const { business, slug, token } = await newBusiness();
    const started = (await t.gqlOk(START, { b: business.id }, { token })).startPayoutOnboarding;
    await t.gqlOk(COMPLETE, { link: linkOf(started.data.url), due: true });
    expect((await t.gqlOk(PAGE, { slug }, { token })).business).toEqual({
      acceptingMembers: false,
      connectFromPeriod: null,
      payoutAccount: { status: "RESTRICTED", chargesEnabled: false, requirementsDue: ["external_account"] },
    });
  });

  it("a business that already took this month's payments on the platform connects from next month", async () => {
    const { business, slug, token } = await newBusiness("legacy");
    const member = await f.user();
    await t.db.prisma.payment.create({
      data: { userId: member.id, businessId: business.id, provider: "sandbox", providerPaymentId: `pi_legacy_${seq}`, amountCents: 1000, status: "SUCCEEDED", createdAt: new Date("2026-03-03T15:00:00Z") },
    });
    const started = (await t.gqlOk(START, { b: business.id }, { token })).startPayoutOnboarding;
    await t.gqlOk(COMPLETE, { link: linkOf(started.data.url) });
    expect((await t.gqlOk(PAGE, { slug }, { token })).business).toMatchObject({ acceptingMembers: true, connectFromPeriod: "2026-04" });
  });

  it("is the owner's and administrators' only: an editor is refused", async () => {
    const { business } = await newBusiness();
    const editor = await f.user();
    await f.attach(business, editor, "EDITOR");
    const res = (await t.gqlOk(START, { b: business.id }, { token: await f.session(editor) })).startPayoutOnboarding;
    expect(res.__typename).toBe("ForbiddenError");
    expect(await t.db.prisma.paymentAccount.count({ where: { businessId: business.id } })).toBe(0);
  });
});

describe("fee schedules", () => {
  it("start at a month no business has begun, and the charges of that month carry them", async () => {
    const admin = await f.user({ isAdmin: true });
    const token = await f.session(admin);
    const shop = await f.business({ slug: `fees-${++seq}`, page: { billingDay: 3, pickupEnabled: true } });
    const plan = await f.plan(shop, { prices: { PICKUP: 2000 } });

    const begun = (await t.gqlOk(SCHEDULE, { input: { businessId: shop.id, effectivePeriod: "2026-03", platformBps: 1000, platformCents: 0, processingBps: 290, processingCents: 30 } }, { token })).scheduleFee;
    expect(begun).toEqual({ __typename: "ValidationError", message: "Fees can change from 2026-04 on: a month that has begun keeps its fees." });
    const next = (await t.gqlOk(SCHEDULE, { input: { businessId: shop.id, effectivePeriod: "2026-04", platformBps: 1000, platformCents: 0, processingBps: 290, processingCents: 30 } }, { token })).scheduleFee;
    expect(next.data).toEqual({ effectivePeriod: "2026-04", platformBps: 1000 });
    const announced = await t.db.prisma.event.findMany({ where: { type: "platform_fee.scheduled.v1", businessId: shop.id } });
    expect(announced.map((e) => e.payload)).toEqual([{ businessId: shop.id, effectivePeriod: "2026-04", rates: { platformBps: 1000, platformCents: 0, processingBps: 290, processingCents: 30 } }]);

    // March's checkout keeps March's (default) fees: 5 % + 2.9 % + 30¢ of $20.00 = $1.00 + $0.88.
    const buyer = await f.user({ email: "fees@example.com" });
    const opts = { token: await f.session(buyer, shop.slug), tenant: shop.slug };
    const started = (await t.gqlOk(PAY.START, { input: { selection: { businessSlug: shop.slug, planRef: plan.ref, mode: "PICKUP" }, email: "fees@example.com", idempotencyKey: `fees-${seq}-key` } }, opts)).startCheckout;
    const intent = await providerFor({ db: t.db.prisma, clock: t.clock, config: t.config }).retrievePaymentIntent(started.data.paymentIntentId);
    expect(intent.route?.applicationFeeCents).toBe(188);
    expect(intent.metadata).toMatchObject({ platform_fee_cents: "100", processing_fee_cents: "88" });
  });
});

describe("the Connect webhook (Stripe)", () => {
  const SECRET = "whsec_connect_test";
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

  const deliver = (event: object, secret = SECRET) => deliverConnectEvent(s, event, secret);

  it("records account.updated once, enables the business, and refuses a bad signature", async () => {
    const g = factories(s);
    const business = await g.business({ slug: "webhook-farm", payouts: "none", page: { pickupEnabled: true } });
    const owner = await g.user({ email: "hook@example.com" });
    await g.attach(business, owner, "OWNER");
    const started = (await s.gqlOk(START, { b: business.id }, { token: await g.session(owner) })).startPayoutOnboarding;
    expect(started.data.url).toMatch(/^https:\/\/connect\.stripe\.test\/setup\/acct_/);
    const account = await s.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: business.id } });
    const event = { id: "evt_connect_1", object: "event", type: "account.updated", account: account.accountId, data: { object: stripe.onboard(account.accountId) }, api_version: "2025-01-01", created: 1 };

    expect((await deliver(event, "whsec_wrong")).statusCode).toBe(400);
    expect((await s.db.prisma.paymentAccount.findUniqueOrThrow({ where: { id: account.id } })).status).toBe("ONBOARDING");
    expect((await deliver(event)).json()).toEqual({ received: true, result: "processed" });
    expect((await deliver(event)).json()).toEqual({ received: true, result: "duplicate" });
    expect(await s.db.prisma.paymentAccount.findUniqueOrThrow({ where: { id: account.id } })).toMatchObject({ status: "ENABLED", chargesEnabled: true, payoutsEnabled: true });
    expect((await s.db.prisma.business.findUniqueOrThrow({ where: { id: business.id } })).connectFromPeriod).toBe("2026-03");
    expect(await s.db.prisma.event.count({ where: { type: "payout_account.updated.v1", businessId: business.id } })).toBe(1);
  });
});
