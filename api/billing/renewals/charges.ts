import { settleEach, type PaymentIntentInfo, type SavedCardCharge } from "../providers/provider.ts";
import { renewalKey } from "./attempts.ts";
import type { BillingContext, Renewal, RenewalSubscription } from "./types.ts";
import { providerFor } from "../service.ts";
import { routedRequest } from "../routing.ts";
import { chargeRouting, periodRoutings, type ChargeRouting } from "../../payouts/accounts.ts";

/**
 * Charging a renewal batch: a provider customer and a card for each member, the saved cards charged in one
 * provider call, members without a saved card sent an on-session payment; each charge's outcome, nothing written
 * but new customers' ids (records.ts writes the rest).
 */

/** Provider calls made one by one (new customers, members without a saved card: rare) in flight at once. */
const SINGLE_CALL_CONCURRENCY = 4;

/** What one renewal's charge came to. */
export type Charge =
  /** `intent` null: nothing to charge (fully discounted), the period is still delivered. */
  | { kind: "paid"; intent: PaymentIntentInfo | null }
  | { kind: "unpaid"; intent: PaymentIntentInfo; outcome: "requires_action" | "failed" }
  | { kind: "error"; error: unknown }
  /** Not attempted: the business cannot take charges for the period (api/payouts/routing.ts); left due. */
  | { kind: "blocked" };

/** Charges each renewal's period: saved cards in one provider batch, the rare rest one by one. */
export async function chargeRenewals(ctx: BillingContext, renewals: Renewal[], period: string): Promise<Charge[]> {
  const provider = providerFor(ctx);
  const charges: Charge[] = renewals.map(() => ({ kind: "paid", intent: null }));
  // Where each business's charges of the period go: one read for the batch. A business that cannot take them
  // (its account restricted) is not charged at all: no decline, no past due, tried again on the next run.
  const routings = await periodRoutings(ctx.db, renewals.map((r) => r.sub.businessId), period);
  const routingOf = (r: Renewal) => {
    const routing = routings.get(r.sub.businessId);
    return routing ? chargeRouting(routing, r.sub.totalCents) : ({ kind: "NOT_READY" } as const);
  };
  const billable: (Renewal & { i: number; routing: Exclude<ChargeRouting, { kind: "NOT_READY" }> })[] = [];
  renewals.forEach((r, i) => {
    if (r.sub.totalCents === 0) return;
    const routing = routingOf(r);
    if (routing.kind === "NOT_READY") charges[i] = { kind: "blocked" };
    else billable.push({ ...r, i, routing });
  });

  // A provider customer per member (checkout creates it; older memberships may lack one).
  const customerOf = new Map(billable.filter((r) => r.sub.user.paymentCustomerId).map((r) => [r.sub.userId, r.sub.user.paymentCustomerId!]));
  const newCustomers = [...new Map(billable.filter((r) => !customerOf.has(r.sub.userId)).map((r) => [r.sub.userId, r.sub.user])).values()];
  const created = await settleEach(newCustomers, SINGLE_CALL_CONCURRENCY, async (user) => {
    const id = await provider.ensureCustomer({ userId: user.id, email: user.email, name: user.name });
    await ctx.db.user.update({ where: { id: user.id }, data: { paymentCustomerId: id } });
    return id;
  });
  const customerError = new Map<number, unknown>();
  newCustomers.forEach((user, i) => {
    const result = created[i];
    if (result.status === "fulfilled") customerOf.set(user.id, result.value);
    else customerError.set(user.id, result.reason);
  });

  // The membership's card, else the member's newest default card.
  const withoutCard = [...new Set(billable.filter((r) => !r.sub.providerPaymentMethodId).map((r) => r.sub.userId))];
  const defaultCard = new Map<number, string>();
  if (withoutCard.length) {
    const cards = await ctx.db.paymentMethod.findMany({
      where: { userId: { in: withoutCard }, provider: provider.name, isDefault: true },
      orderBy: { createdAt: "desc" },
      select: { userId: true, providerPaymentMethodId: true },
    });
    for (const c of cards) if (!defaultCard.has(c.userId)) defaultCard.set(c.userId, c.providerPaymentMethodId);
  }

  const saved: { i: number; request: SavedCardCharge }[] = [];
  const onSession: { i: number; customerId: string; r: (typeof billable)[number] }[] = [];
  for (const r of billable) {
    const customerId = customerOf.get(r.sub.userId);
    if (!customerId) {
      charges[r.i] = { kind: "error", error: customerError.get(r.sub.userId) };
      continue;
    }
    const card = r.sub.providerPaymentMethodId ?? defaultCard.get(r.sub.userId);
    if (!card) {
      onSession.push({ i: r.i, customerId, r });
      continue;
    }
    saved.push({
      i: r.i,
      request: {
        customerId,
        paymentMethodId: card,
        amountCents: r.sub.totalCents,
        currency: "usd",
        idempotencyKey: renewalKey(r.sub.id, period, r.attempt),
        ...routedRequest(r.routing, metadataOf(r.sub, period)),
      },
    });
  }

  const savedResults = await provider
    .chargeSavedCards(saved.map((s) => s.request))
    .catch((reason: unknown) => saved.map((): PromiseSettledResult<PaymentIntentInfo> => ({ status: "rejected", reason })));
  saved.forEach((s, k) => (charges[s.i] = chargeOf(savedResults[k], true)));

  // No saved card: an on-session payment the member can confirm in the card form; until then the membership is past due.
  const onSessionResults = await settleEach(onSession, SINGLE_CALL_CONCURRENCY, ({ customerId, r }) =>
    provider.createPaymentIntent({
      customerId,
      amountCents: r.sub.totalCents,
      currency: "usd",
      idempotencyKey: renewalKey(r.sub.id, period, r.attempt),
      ...routedRequest(r.routing, metadataOf(r.sub, period)),
      saveForFuture: true,
    }),
  );
  onSession.forEach((s, k) => (charges[s.i] = chargeOf(onSessionResults[k], false)));
  return charges;
}

const metadataOf = (sub: RenewalSubscription, period: string) => ({
  subscription_id: String(sub.id),
  period,
  kind: "RENEWAL",
  business_id: String(sub.businessId),
});

/** Same outcomes as chargeForPeriod: paid, waiting for the member (3-D Secure, no saved card), or declined. */
function chargeOf(result: PromiseSettledResult<PaymentIntentInfo>, savedCard: boolean): Charge {
  if (result.status === "rejected") return { kind: "error", error: result.reason };
  const intent = result.value;
  if (intent.status === "succeeded") return { kind: "paid", intent };
  const needsMember = intent.status === "requires_action" || (!savedCard && intent.status === "requires_payment_method" && !intent.lastError);
  return { kind: "unpaid", intent, outcome: needsMember ? "requires_action" : "failed" };
}
