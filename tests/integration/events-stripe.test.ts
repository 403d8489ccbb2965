/**
 * Memberships imported with a Stripe Billing subscription are invoiced by Stripe: its signed invoice webhooks
 * change their status and announce it in the same transaction (api/billing/webhooks.ts), once per event
 * however often Stripe delivers it. Runs on both databases.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents, type StoredEvent } from "../../api/events/outbox.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

const WEBHOOK_SECRET = "whsec_events_secret";
let t: TestApp;
let f: Factories;
let businessId: number;
let memberId: number;
let membershipId: number;

let eventSeq = 0;
const stripeEvent = (type: string, object: object) => ({ id: `evt_inv_${++eventSeq}`, object: "event", type, data: { object }, api_version: "2025-01-01", created: 1 });
/** An invoice of the subscription for the month starting at `periodStart` (ISO). */
const invoice = (o: { id: string; subscription: string; periodStart: string; amountDue: number; amountPaid: number; attempt: number }) => ({
  id: o.id,
  object: "invoice",
  subscription: o.subscription,
  amount_due: o.amountDue,
  amount_paid: o.amountPaid,
  attempt_count: o.attempt,
  created: Date.parse(o.periodStart) / 1000,
  lines: { object: "list", data: [{ period: { start: Date.parse(o.periodStart) / 1000, end: Date.parse(o.periodStart) / 1000 + 30 * 86_400 } }] },
});

/** Posts an event to the webhook exactly as Stripe would: JSON body signed with the endpoint secret. */
async function deliver(event: object): Promise<string> {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const res = await t.app.inject({ method: "POST", url: "/api/webhooks/stripe", headers: { "content-type": "application/json", "stripe-signature": signature }, payload });
  expect(res.statusCode).toBe(200);
  return res.json<{ result: string }>().result;
}
const lastSequence = async () => (await readEvents(t.db.prisma, { after: 0, limit: 10_000 })).at(-1)?.sequence ?? 0;
async function eventsOf(action: () => Promise<unknown>): Promise<StoredEvent[]> {
  const mark = await lastSequence();
  await action();
  return readEvents(t.db.prisma, { after: mark, limit: 1000 });
}
const status = async () => (await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: membershipId } })).status;

beforeAll(async () => {
  t = await createTestApp({
    now: "2026-03-05T15:00:00Z",
    config: { paymentProvider: "stripe", stripe: { secretKey: "sk_test_unused", webhookSecret: WEBHOOK_SECRET, publishableKey: "pk_test_unused" } },
  });
  f = factories(t);
  // Los Angeles: an invoice period starting 2026-04-01 05:00 UTC is still March there.
  const business = await f.business({ slug: "imported", timeZone: "America/Los_Angeles" });
  businessId = business.id;
  const plan = await f.plan(business);
  memberId = (await f.user({ username: "imported-member" })).id;
  membershipId = (await f.subscription({ user: { id: memberId }, business, plan, providerSubscriptionId: "sub_imported" })).id;
});
afterAll(() => t.close());

describe("Stripe invoices of imported subscriptions", () => {
  it("a failed invoice makes the membership past due and announces the failed payment and the past due, once", async () => {
    const failed = stripeEvent("invoice.payment_failed", invoice({ id: "in_1", subscription: "sub_imported", periodStart: "2026-04-01T05:00:00Z", amountDue: 3000, amountPaid: 0, attempt: 2 }));
    const events = await eventsOf(async () => expect(await deliver(failed)).toBe("processed"));
    expect(await status()).toBe("PAST_DUE");
    const common = { businessId, actor: { type: "system", id: null }, objectId: globalId("Membership", membershipId) };
    expect(events).toEqual([
      expect.objectContaining({ ...common, type: "payment.failed.v1", payload: { paymentId: null, membershipId, userId: memberId, amountCents: 3000, period: "2026-03", code: null } }),
      expect.objectContaining({ ...common, type: "membership.past_due.v1", payload: { membershipId, userId: memberId, period: "2026-03", attempt: 2 } }),
    ]);
    // Redelivered: nothing changes, nothing is announced again.
    expect(await eventsOf(async () => expect(await deliver(failed)).toBe("duplicate"))).toEqual([]);
  });

  it("a paid invoice makes it active and announces the paid invoice (no order of ours), once", async () => {
    const paid = stripeEvent("invoice.paid", invoice({ id: "in_1", subscription: "sub_imported", periodStart: "2026-04-01T05:00:00Z", amountDue: 3000, amountPaid: 3000, attempt: 3 }));
    const events = await eventsOf(async () => expect(await deliver(paid)).toBe("processed"));
    expect(await status()).toBe("ACTIVE");
    expect(events).toEqual([
      expect.objectContaining({
        type: "membership.invoice_paid.v1",
        businessId,
        objectId: globalId("Membership", membershipId),
        payload: { membershipId, userId: memberId, invoiceId: "in_1", amountCents: 3000, period: "2026-03", previousStatus: "PAST_DUE" },
      }),
    ]);
    expect(await t.db.prisma.order.count({ where: { subscriptionId: membershipId } })).toBe(0);
    expect(await eventsOf(async () => expect(await deliver(paid)).toBe("duplicate"))).toEqual([]);
  });

  it("an invoice of no membership of ours, or of a canceled one, changes and announces nothing", async () => {
    const unknown = stripeEvent("invoice.paid", invoice({ id: "in_2", subscription: "sub_elsewhere", periodStart: "2026-04-01T05:00:00Z", amountDue: 100, amountPaid: 100, attempt: 1 }));
    expect(await eventsOf(async () => expect(await deliver(unknown)).toBe("ignored"))).toEqual([]);
    await t.db.prisma.subscription.update({ where: { id: membershipId }, data: { status: "CANCELED" } });
    const late = stripeEvent("invoice.payment_failed", invoice({ id: "in_3", subscription: "sub_imported", periodStart: "2026-05-01T05:00:00Z", amountDue: 3000, amountPaid: 0, attempt: 1 }));
    expect(await eventsOf(async () => expect(await deliver(late)).toBe("ignored"))).toEqual([]);
    expect(await status()).toBe("CANCELED");
    // Ignored events are still recorded: a redelivery is a duplicate.
    expect(await deliver(late)).toBe("duplicate");
  });
});
