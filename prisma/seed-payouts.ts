/**
 * The demo's money at the sandbox provider (seed-data.ts runs this once its businesses' accounts are enabled): the
 * seeded months replayed in order of time, through the provider's own calls on a clock set to each moment.
 *
 * - Every seeded payment becomes the charge the app would have made at its time: a first order as checkout makes
 *   it (a payment intent confirmed with a test card), a renewal as the billing clock does (a batch of saved-card
 *   charges), each routed to the business's account with its period's fees; its row then names the intent, and its
 *   CHARGE row is in the books.
 * - On each Monday from the business's first payment to now, the `payouts-sandbox` job's pass
 *   (api/billing/sandbox-payouts.ts) is made as it would have run that day: at the Monday's first instant in the
 *   business's time zone the account's whole available balance is paid out, and each payout is settled at its
 *   arrival, two days later, when that has come by now (the latest may still be in transit). The payouts are then
 *   copied into the mirror.
 *
 * So the demo owner's Payouts page has a balance, paid payouts and statements that agree with the provider, and a
 * seeded day reconciles (api/billing/reconcile-run.ts) like any other.
 */
import type { PrismaClient } from "../api/db.ts";
import type { PaymentIntentInfo, PayoutInfo, SavedCardCharge } from "../api/billing/providers/provider.ts";
import { PAYOUT_TRANSIT_MS } from "../api/billing/providers/sandbox/balances.ts";
import { SandboxProvider } from "../api/billing/providers/sandbox/provider.ts";
import { renewalKey } from "../api/billing/renewals/attempts.ts";
import { routedRequest } from "../api/billing/routing.ts";
import { chargeFactsOf } from "../api/billing/service.ts";
import { chargeRouting, periodRoutings } from "../api/payouts/accounts.ts";
import { chargeEntry, writeLedger, type LedgerRow } from "../api/payouts/ledger.ts";
import { isPayoutDay, payoutStatusOf } from "../api/payouts/payouts.ts";
import { addDays, dayNumber, localDate, startOfLocalDay } from "../api/shared/calendar.ts";
import { FixedClock, type Clock } from "../api/shared/clock.ts";

/** What seed-data.ts writes as a seeded payment's provider id until it is charged here (none is left after). */
const PLACEHOLDER = "pi_seed_";
export const placeholderPaymentId = (n: number) => `${PLACEHOLDER}${String(n).padStart(4, "0")}`;

/** The test card a first order is paid with at checkout (the members' saved card is the same Visa). */
const testCard = (at: Date) => ({ number: "4242424242424242", expMonth: 12, expYear: at.getUTCFullYear() + 4, cvc: "123" });

interface Seeded {
  id: number;
  userId: number;
  businessId: number;
  subscriptionId: number;
  kind: "INITIAL" | "RENEWAL";
  period: string;
  amountCents: number;
  createdAt: Date;
}

interface Account {
  businessId: number;
  accountId: string;
  timeZone: string;
}

/** Replays the seeded months at the sandbox (see above). */
export async function seedDemoPayouts(db: PrismaClient, seedClock: Clock): Promise<void> {
  const now = seedClock.now();
  const rows = await db.payment.findMany({
    where: { providerPaymentId: { startsWith: PLACEHOLDER } },
    select: { id: true, userId: true, businessId: true, subscriptionId: true, amountCents: true, createdAt: true, order: { select: { kind: true, period: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const seeded: Seeded[] = rows.map((p) => ({ ...p, businessId: p.businessId!, subscriptionId: p.subscriptionId!, kind: p.order!.kind === "INITIAL" ? "INITIAL" : "RENEWAL", period: p.order!.period }));
  const clock = new FixedClock(now);
  const sandbox = new SandboxProvider(db, clock);
  const charge = await chargerOf(db, sandbox, seeded);
  const accounts = (
    await db.paymentAccount.findMany({
      where: { provider: sandbox.name, status: "ENABLED", payoutsEnabled: true, businessId: { in: [...new Set(seeded.map((p) => p.businessId))] } },
      select: { businessId: true, accountId: true, business: { select: { timeZone: true } } },
      orderBy: { id: "asc" },
    })
  ).map((a) => ({ businessId: a.businessId, accountId: a.accountId, timeZone: a.business.timeZone }));
  const passes = payoutPasses(sandbox, clock, accounts, seeded);

  // The moments, oldest first: payments (several at one moment are one renewal batch) and Mondays' passes.
  const moments = new Map<number, { payments: Seeded[]; accounts: Account[] }>();
  const at = (t: number) => moments.get(t) ?? moments.set(t, { payments: [], accounts: [] }).get(t)!;
  for (const p of seeded) at(p.createdAt.getTime()).payments.push(p);
  for (const [t, due] of mondays(accounts, seeded, now)) at(t).accounts.push(...due);
  const intents = new Map<number, PaymentIntentInfo>();
  for (const [t, { payments, accounts: due }] of [...moments].sort(([a], [b]) => a - b)) {
    await passes.settleUntil(t);
    clock.set(new Date(t));
    for (const [id, intent] of await charge(payments)) intents.set(id, intent);
    for (const a of due) await passes.payOut(a);
  }
  await passes.settleUntil(now.getTime());

  await record(db, seeded, intents);
  await mirror(db, sandbox, accounts, passes.settledAt);
}

/** Charges a moment's payments at the sandbox (its clock set to their time); answers their intents, by payment id. */
async function chargerOf(db: PrismaClient, sandbox: SandboxProvider, seeded: Seeded[]): Promise<(payments: Seeded[]) => Promise<Map<number, PaymentIntentInfo>>> {
  const customers = await customersOf(db, sandbox, [...new Set(seeded.map((p) => p.userId))]);
  const cards = await db.paymentMethod.findMany({ where: { provider: sandbox.name, isDefault: true }, orderBy: { createdAt: "asc" }, select: { userId: true, providerPaymentMethodId: true } });
  const cardOf = new Map(cards.map((c) => [c.userId, c.providerPaymentMethodId]));
  const businessIds = [...new Set(seeded.map((p) => p.businessId))];
  const routings = new Map(await Promise.all([...new Set(seeded.map((p) => p.period))].map(async (period) => [period, await periodRoutings(db, businessIds, period)] as const)));
  const requestOf = (p: Seeded) => {
    const routing = chargeRouting(routings.get(p.period)!.get(p.businessId)!, p.amountCents);
    if (routing.kind !== "CONNECTED") throw new Error(`Demo data: business ${p.businessId} takes no routed charge for ${p.period}`);
    const metadata = { subscription_id: String(p.subscriptionId), business_id: String(p.businessId), period: p.period, kind: p.kind };
    return {
      customerId: customers.get(p.userId)!,
      amountCents: p.amountCents,
      currency: "usd",
      idempotencyKey: keyOf(p),
      ...routedRequest(routing, p.kind === "INITIAL" ? { ...metadata, user_id: String(p.userId) } : metadata),
    };
  };
  return async (payments) => {
    const intents = new Map<number, PaymentIntentInfo>();
    const renewals = payments.filter((p) => p.kind === "RENEWAL" && cardOf.has(p.userId));
    const requests: SavedCardCharge[] = renewals.map((p) => ({ ...requestOf(p), paymentMethodId: cardOf.get(p.userId)! }));
    (await sandbox.chargeSavedCards(requests)).forEach((r, i) => {
      if (r.status === "rejected") throw r.reason;
      intents.set(renewals[i].id, r.value);
    });
    for (const p of payments.filter((q) => !renewals.includes(q))) {
      const opened = await sandbox.createPaymentIntent({ ...requestOf(p), saveForFuture: true });
      intents.set(p.id, await sandbox.confirmPaymentIntent(opened.clientSecret, testCard(p.createdAt)));
    }
    return intents;
  };
}

/** A first order's key as checkout makes it (the browser's part a fixed one here); a renewal's, the billing clock's. */
const keyOf = (p: Seeded) => (p.kind === "INITIAL" ? `checkout:${p.userId}:demo-${p.subscriptionId}` : renewalKey(p.subscriptionId, p.period, 1));

/** The members' customers at the sandbox (saveDemoCards made those with a live membership), made for any other. */
async function customersOf(db: PrismaClient, sandbox: SandboxProvider, userIds: number[]): Promise<Map<number, string>> {
  const users = await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true, name: true, paymentCustomerId: true } });
  const customers = new Map<number, string>();
  for (const u of users) {
    const id = u.paymentCustomerId ?? (await sandbox.ensureCustomer({ userId: u.id, email: u.email, name: u.name }));
    if (!u.paymentCustomerId) await db.user.update({ where: { id: u.id }, data: { paymentCustomerId: id } });
    customers.set(u.id, id);
  }
  return customers;
}

/** Each Monday's pass from the business's first payment to now: its first instant in the business's time zone. */
function mondays(accounts: Account[], seeded: Seeded[], now: Date): Map<number, Account[]> {
  const passes = new Map<number, Account[]>();
  for (const a of accounts) {
    const today = localDate(now, a.timeZone);
    const first = seeded.find((p) => p.businessId === a.businessId)!.createdAt;
    for (let d = localDate(first, a.timeZone); dayNumber(d) <= dayNumber(today); d = addDays(d, 1)) {
      const t = startOfLocalDay(d, a.timeZone);
      if (t <= now && isPayoutDay(t, a.timeZone)) passes.set(t.getTime(), [...(passes.get(t.getTime()) ?? []), a]);
    }
  }
  return passes;
}

/**
 * The passes' payouts and the banks' answers. A pass reads an account's balance only when it may have money to pay
 * out: a payment since the balance was last read, money then still pending, or a payout failed back into it;
 * otherwise the last payout took everything and nothing has come in since.
 */
function payoutPasses(sandbox: SandboxProvider, clock: Clock, accounts: Account[], seeded: Seeded[]) {
  const settledAt = new Map<string, Date>();
  const arrivals: number[] = [];
  const lastRead = new Map<string, { at: number; mayHaveMoney: boolean }>();
  const businessOf = new Map(accounts.map((a) => [a.accountId, a.businessId]));
  return {
    /** When each payout was settled (paid or failed). */
    settledAt,
    /** Settles the payouts whose arrival has come by `until`, each at its arrival. */
    async settleUntil(until: number) {
      arrivals.sort((x, y) => x - y);
      while (arrivals.length && arrivals[0] <= until) {
        const at = new Date(arrivals.shift()!);
        for (const s of await sandbox.settlePayouts(at)) {
          settledAt.set(s.payout.id, at);
          if (s.payout.status === "failed") lastRead.set(s.accountId, { at: lastRead.get(s.accountId)?.at ?? -Infinity, mayHaveMoney: true });
        }
      }
    },
    /** The account's pass at the clock's time (the sandbox's): its whole available balance paid out, when above zero. */
    async payOut(a: Account): Promise<PayoutInfo | null> {
      const now = clock.now();
      const last = lastRead.get(a.accountId) ?? { at: -Infinity, mayHaveMoney: false };
      const paidSince = seeded.some((p) => p.businessId === businessOf.get(a.accountId) && p.createdAt.getTime() > last.at && p.createdAt <= now);
      if (!paidSince && !last.mayHaveMoney) return null;
      const { availableCents, pendingCents } = await sandbox.retrieveBalance(a.accountId);
      lastRead.set(a.accountId, { at: now.getTime(), mayHaveMoney: pendingCents !== 0 || availableCents < 0 });
      if (availableCents <= 0) return null;
      const payout = await sandbox.createSandboxPayout(a.accountId, availableCents, { at: now });
      arrivals.push(payout.createdAt.getTime() + PAYOUT_TRANSIT_MS);
      return payout;
    },
  };
}

/** The seeded payments' rows name their intents, destinations and application fees; their CHARGE rows are written. */
async function record(db: PrismaClient, seeded: Seeded[], intents: Map<number, PaymentIntentInfo>): Promise<void> {
  const ledger: LedgerRow[] = [];
  for (const p of seeded) {
    const intent = intents.get(p.id)!;
    if (intent.status !== "succeeded") throw new Error(`Demo data: the sandbox did not take payment ${p.id} (${intent.status})`);
    const entry = chargeEntry(chargeFactsOf(intent), { businessId: p.businessId, paymentId: p.id, period: p.period, at: p.createdAt });
    if (entry) ledger.push(entry);
  }
  const column = <T>(pick: (p: Seeded, intent: PaymentIntentInfo) => T) => seeded.map((p) => pick(p, intents.get(p.id)!));
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`
      UPDATE payments p
         SET provider_payment_id = v.intent, idempotency_key = v.key, destination = v.destination, application_fee_cents = v.fee
        FROM unnest(${column((p) => p.id)}::int[], ${column((_, i) => i.id)}::text[], ${column(keyOf)}::text[],
                    ${column((_, i) => i.route?.destination ?? null)}::text[], ${column((_, i) => i.route?.applicationFeeCents ?? 0)}::int[])
          AS v(id, intent, key, destination, fee)
       WHERE p.id = v.id`;
    await writeLedger(tx, ledger);
  });
}

/**
 * The mirror as the job's passes would have left it (recordPayout's fields, api/payouts/payouts.ts), oldest first,
 * but written without its events: the demo's history announces nothing (its orders sent no receipts either), so a
 * first start does not mail the owner a "Payout sent" for every week of it. A payout still in transit is announced
 * when a pass of the job settles it.
 */
async function mirror(db: PrismaClient, sandbox: SandboxProvider, accounts: Account[], settledAt: Map<string, Date>): Promise<void> {
  for (const a of accounts) {
    const payouts: PayoutInfo[] = [];
    for (let after: string | undefined; ; ) {
      const page = await sandbox.listPayouts(a.accountId, { after, limit: 100 });
      payouts.push(...page.payouts);
      if (!page.hasMore || page.payouts.length === 0) break;
      after = page.payouts.at(-1)!.id;
    }
    await db.payout.createMany({
      data: payouts.reverse().map((p) => ({
        businessId: a.businessId,
        provider: sandbox.name,
        providerPayoutId: p.id,
        amountCents: p.amountCents,
        status: payoutStatusOf(p.status),
        arrivalDate: p.arrivalDate.slice(0, 10),
        failureCode: p.failureCode,
        failureMessage: p.failureMessage,
        createdAt: p.createdAt,
        updatedAt: settledAt.get(p.id) ?? p.createdAt,
      })),
    });
  }
}
