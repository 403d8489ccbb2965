import type { PrismaClient } from "../../../db.ts";
import { Prisma } from "../../../generated/prisma/client.ts";
import type { AccountBalance, BalanceTransactionInfo, PayoutInfo, PayoutStatus } from "../provider.ts";
import { isoDay, pageLimit } from "../provider.ts";
import { bankAccountOf, loadAccount } from "./accounts.ts";
import { SandboxCardError } from "./cards.ts";
import { rid, type SandboxStore } from "./store.ts";

/**
 * The sandbox's balances and payouts, as Stripe keeps them for destination charges, derived from what
 * sandbox_objects already holds (the succeeded payment intents with their route, the refunds, the payouts): no
 * row is written when a charge is made, so the renewal path is unchanged. Every balance transaction comes from one
 * statement (`transactions`):
 *
 * - on the platform's account, a charge is `charge` (+amount, the simulated Stripe fee of 2.9 % + 30¢ rounded half
 *   up, available two days later), and when routed `transfer` (−amount, to the business) and `application_fee`
 *   (+the application fee, taken back from it); a refund is `refund` (−amount), and when it reverses the transfer
 *   `transfer_reversal` (+amount) and `application_fee_refund` (−the application fee in proportion, half up on the
 *   running refunded total, as the ledger: a full refund gives the whole fee back);
 * - on a connected account, a routed charge is `payment` (+amount − application fee, available two days after the
 *   charge on the domain clock), a reversing refund `payment_refund` (−what it takes back, at once), a payout
 *   `payout` (−amount, when made) and a failed payout `payout_failure` (+amount, when it failed).
 *
 * Ids are derived from the objects' own: a charge's transaction is `txn_pi_sbx_…` with the payment intent as its
 * source; its transfer is `tr_sbx_…` and its application fee `fee_sbx_…` (the intent's suffix), a refund's
 * reversal `trr_sbx_…` and fee refund `fr_sbx_…` (the refund's suffix); each names the intent or refund it follows
 * (`origin`). A payout never takes more than is
 * available (one at a time per account); a refund after a payout may leave the balance below zero, as on Stripe.
 */

/** How long a charge's money is pending before it may be paid out (Stripe's standard US schedule). */
const HOLD = Prisma.raw("interval '2 days'");
/** How long a payout is in transit before it arrives (settlePayouts): the demo seed settles its payouts at their arrival. */
export const PAYOUT_TRANSIT_MS = 2 * 86_400_000;

/** Stripe's test bank account numbers whose payouts fail, with the failure Stripe reports. */
const FAILING_BANK_ACCOUNTS: Record<string, { failureCode: string; failureMessage: string }> = {
  "000111111116": { failureCode: "no_account", failureMessage: "The bank account details on file are probably incorrect. No bank account could be located with those details." },
  "000111111113": { failureCode: "account_closed", failureMessage: "The bank account has been closed." },
};

/** A payout as sandbox_objects keeps it (kind "payout"). */
interface StoredPayout {
  accountId: string;
  amountCents: number;
  currency: string;
  status: PayoutStatus;
  /** Where it goes: the account's bank account number when it was made. */
  bankAccountNumber: string;
  /** ISO instants on the domain clock. */
  createdAt: string;
  arrivalAt: string;
  arrivalDate: string;
  failureCode: string | null;
  failureMessage: string | null;
  failedAt?: string;
  paidAt?: string;
}

const payoutInfo = (id: string, p: StoredPayout): PayoutInfo => ({
  id,
  amountCents: p.amountCents,
  status: p.status,
  arrivalDate: p.arrivalDate,
  failureCode: p.failureCode,
  failureMessage: p.failureMessage,
  createdAt: new Date(p.createdAt),
});

/** An instant as the statements compare it: timestamps here are UTC without a zone, as Prisma keeps them. */
const ts = (at: Date) => Prisma.sql`${at.toISOString()}::timestamp`;

/** An id's part after its prefix: pi_sbx_abc → sbx_abc. */
const suffix = (column: Prisma.Sql) => Prisma.sql`substr(${column}, strpos(${column}, '_') + 1)`;

/**
 * Every balance transaction (a WITH clause naming `txns`: account (null: the platform's), id, type, amount, fee,
 * source, created, available_on), of one connected account's, or of every account when `account` is null.
 */
function transactions(account: string | null): Prisma.Sql {
  const routedTo = account === null ? Prisma.empty : Prisma.sql`AND o.data->'route'->>'destination' = ${account}`;
  const payoutsOf = account === null ? Prisma.empty : Prisma.sql`AND o.data->>'accountId' = ${account}`;
  return Prisma.sql`
    WITH intents AS (
      SELECT o.id, (o.data->>'amountCents')::bigint AS amount, o.data->'route'->>'destination' AS destination,
             COALESCE((o.data->'route'->>'applicationFeeCents')::bigint, 0) AS app_fee,
             COALESCE((o.data->>'succeededAt')::timestamp, o.updated_at) AS at
        FROM sandbox_objects o
       WHERE o.kind = 'payment_intent' AND o.data->>'status' = 'succeeded' ${routedTo}
    ),
    refunds AS (
      SELECT o.id, i.id AS intent, i.destination, i.amount AS charged, i.app_fee, (o.data->>'amountCents')::bigint AS amount,
             i.destination IS NOT NULL AND COALESCE((o.data->>'reverseTransfer')::boolean, false) AS reverses,
             COALESCE((o.data->>'createdAt')::timestamp, o.created_at) AS at, o.created_at AS stored
        FROM sandbox_objects o JOIN intents i ON i.id = o.data->>'paymentIntentId'
       WHERE o.kind = 'refund'
    ),
    reversals AS (
      SELECT r.id, r.destination, r.amount, r.at,
             (r.app_fee * r.total * 2 + r.charged) / (r.charged * 2) - (r.app_fee * (r.total - r.amount) * 2 + r.charged) / (r.charged * 2) AS fee_refund
        FROM (SELECT refunds.*, (sum(amount) OVER (PARTITION BY intent ORDER BY at, stored, id))::bigint AS total FROM refunds WHERE reverses AND charged > 0) r
    ),
    payouts AS (
      SELECT o.id, o.data->>'accountId' AS account, (o.data->>'amountCents')::bigint AS amount, o.data->>'status' AS status,
             (o.data->>'createdAt')::timestamp AS at, (o.data->>'failedAt')::timestamp AS failed_at
        FROM sandbox_objects o
       WHERE o.kind = 'payout' ${payoutsOf}
    ),
    txns (account, id, type, amount, fee, source, created, available_on, origin) AS (
      SELECT NULL::text, 'txn_' || id, 'charge', amount, (amount * 29 + 500) / 1000 + 30, id, at, at + ${HOLD}, NULL::text FROM intents
      UNION ALL
      SELECT NULL, 'txn_fee_' || ${suffix(Prisma.sql`id`)}, 'application_fee', app_fee, 0, 'fee_' || ${suffix(Prisma.sql`id`)}, at, at + ${HOLD}, id
        FROM intents WHERE destination IS NOT NULL AND app_fee > 0
      UNION ALL
      SELECT NULL, 'txn_tr_' || ${suffix(Prisma.sql`id`)}, 'transfer', -amount, 0, 'tr_' || ${suffix(Prisma.sql`id`)}, at, at, id FROM intents WHERE destination IS NOT NULL
      UNION ALL
      SELECT NULL, 'txn_' || id, 'refund', -amount, 0, id, at, at, intent FROM refunds
      UNION ALL
      SELECT NULL, 'txn_trr_' || ${suffix(Prisma.sql`id`)}, 'transfer_reversal', amount, 0, 'trr_' || ${suffix(Prisma.sql`id`)}, at, at, id FROM reversals
      UNION ALL
      SELECT NULL, 'txn_fr_' || ${suffix(Prisma.sql`id`)}, 'application_fee_refund', -fee_refund, 0, 'fr_' || ${suffix(Prisma.sql`id`)}, at, at, id FROM reversals WHERE fee_refund > 0
      UNION ALL
      SELECT destination, 'txn_py_' || ${suffix(Prisma.sql`id`)}, 'payment', amount - app_fee, 0, 'py_' || ${suffix(Prisma.sql`id`)}, at, at + ${HOLD}, id
        FROM intents WHERE destination IS NOT NULL
      UNION ALL
      SELECT destination, 'txn_pyr_' || ${suffix(Prisma.sql`id`)}, 'payment_refund', -(amount - fee_refund), 0, 'pyr_' || ${suffix(Prisma.sql`id`)}, at, at, id FROM reversals
      UNION ALL
      SELECT account, 'txn_' || id, 'payout', -amount, 0, id, at, at, NULL FROM payouts WHERE status <> 'canceled'
      UNION ALL
      SELECT account, 'txn_pof_' || ${suffix(Prisma.sql`id`)}, 'payout_failure', amount, 0, id, failed_at, failed_at, NULL FROM payouts WHERE status = 'failed'
    )`;
}

/** Timestamps out of the statements as ISO text, read the same on either database. */
const iso = (column: Prisma.Sql) => Prisma.sql`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

type Db = Pick<PrismaClient, "$queryRaw">;

/** A connected account's balance at `now`: what is available (may be below zero) and what is still pending. */
async function balanceAt(db: Db, accountId: string, now: Date): Promise<AccountBalance> {
  const [row] = await db.$queryRaw<{ available: bigint; pending: bigint }[]>`
    ${transactions(accountId)}
    SELECT COALESCE(sum(amount - fee) FILTER (WHERE available_on <= ${ts(now)}), 0)::bigint AS available,
           COALESCE(sum(amount - fee) FILTER (WHERE available_on > ${ts(now)}), 0)::bigint AS pending
      FROM txns WHERE account = ${accountId}`;
  return { availableCents: Number(row.available), pendingCents: Number(row.pending) };
}

export async function retrieveBalance(store: SandboxStore, db: PrismaClient, accountId: string, now: Date): Promise<AccountBalance> {
  await loadAccount(store, accountId);
  return balanceAt(db, accountId, now);
}

/** The platform's balance transactions created in [from, to), newest first (ties by id), paged by id. */
export async function listBalanceTransactions(
  db: PrismaClient,
  opts: { from: Date; to: Date; after?: string; limit?: number },
): Promise<{ transactions: BalanceTransactionInfo[]; hasMore: boolean }> {
  const limit = pageLimit(opts.limit);
  const after = opts.after ?? null;
  const rows = await db.$queryRaw<{ id: string; type: string; amount: number; fee: number; source: string; origin: string | null; created: string; available_on: string }[]>`
    ${transactions(null)},
    platform AS (SELECT * FROM txns WHERE account IS NULL AND created >= ${ts(opts.from)} AND created < ${ts(opts.to)})
    SELECT id, type, amount::int AS amount, fee::int AS fee, source, origin, ${iso(Prisma.sql`created`)} AS created, ${iso(Prisma.sql`available_on`)} AS available_on
      FROM platform
     WHERE ${after}::text IS NULL OR (created, id) < (SELECT created, id FROM platform WHERE id = ${after}::text)
     ORDER BY created DESC, id DESC
     LIMIT ${limit + 1}::int`;
  return {
    transactions: rows.slice(0, limit).map((r) => ({
      id: r.id,
      type: r.type,
      amountCents: r.amount,
      feeCents: r.fee,
      netCents: r.amount - r.fee,
      source: r.source,
      origin: r.origin,
      availableOn: new Date(r.available_on),
      createdAt: new Date(r.created),
    })),
    hasMore: rows.length > limit,
  };
}

export async function listPayouts(store: SandboxStore, db: PrismaClient, accountId: string, opts: { after?: string; limit?: number }): Promise<{ payouts: PayoutInfo[]; hasMore: boolean }> {
  await loadAccount(store, accountId);
  const limit = pageLimit(opts.limit);
  const after = opts.after ?? null;
  const rows = await db.$queryRaw<{ id: string; data: StoredPayout }[]>`
    WITH mine AS (
      SELECT id, data, (data->>'createdAt')::timestamp AS created FROM sandbox_objects WHERE kind = 'payout' AND data->>'accountId' = ${accountId}
    )
    SELECT id, data FROM mine
     WHERE ${after}::text IS NULL OR (created, id) < (SELECT created, id FROM mine WHERE id = ${after}::text)
     ORDER BY created DESC, id DESC
     LIMIT ${limit + 1}::int`;
  return { payouts: rows.slice(0, limit).map((r) => payoutInfo(r.id, r.data)), hasMore: rows.length > limit };
}

/**
 * A payout of `amountCents` from the account's available balance at `at` to its bank account: in transit, arriving
 * two days later (settlePayouts). Refused above what is available (`balance_insufficient`), or when the account
 * cannot send payouts; payouts of one account are made one at a time, so two cannot both take the same money.
 */
export async function createPayout(store: SandboxStore, db: PrismaClient, accountId: string, amountCents: number, at: Date): Promise<PayoutInfo> {
  if (!Number.isInteger(amountCents) || amountCents <= 0) throw new SandboxCardError("amount_too_small", "A payout is a whole number of cents, above zero.");
  const account = await loadAccount(store, accountId);
  if (!account.payoutsEnabled) throw new SandboxCardError("payouts_not_allowed", "This account cannot send payouts yet.");
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`sandbox-payout:${accountId}`}))`;
    const { availableCents } = await balanceAt(tx, accountId, at);
    if (amountCents > availableCents) {
      throw new SandboxCardError("balance_insufficient", `The account has ${availableCents} cents available; a payout cannot take ${amountCents}.`);
    }
    const id = rid("po");
    const arrival = new Date(at.getTime() + PAYOUT_TRANSIT_MS);
    const payout: StoredPayout = {
      accountId,
      amountCents,
      currency: "usd",
      status: "in_transit",
      bankAccountNumber: bankAccountOf(account),
      createdAt: at.toISOString(),
      arrivalAt: arrival.toISOString(),
      arrivalDate: isoDay(arrival),
      failureCode: null,
      failureMessage: null,
    };
    await store.save(id, "payout", payout, tx);
    return payoutInfo(id, payout);
  });
}

/**
 * The banks' answer for every payout in transit whose arrival has come by `now`, in one statement: paid, or failed
 * when its bank account is one of Stripe's failing test numbers (000111111116: `no_account`), its amount back in
 * the account's balance (a `payout_failure`). Answers the payouts it settled, with their accounts.
 */
export async function settlePayouts(db: PrismaClient, now: Date): Promise<{ accountId: string; payout: PayoutInfo }[]> {
  const rows = await db.$queryRaw<{ id: string; data: StoredPayout }[]>`
    UPDATE sandbox_objects
       SET data = data || COALESCE(
             (${JSON.stringify(FAILING_BANK_ACCOUNTS)}::jsonb -> (data->>'bankAccountNumber')) || jsonb_build_object('status', 'failed', 'failedAt', ${now.toISOString()}::text),
             jsonb_build_object('status', 'paid', 'paidAt', ${now.toISOString()}::text)),
           updated_at = ${ts(now)}
     WHERE kind = 'payout' AND data->>'status' = 'in_transit' AND (data->>'arrivalAt')::timestamp <= ${ts(now)}
    RETURNING id, data`;
  return rows.map((r) => ({ accountId: r.data.accountId, payout: payoutInfo(r.id, r.data) })).sort((a, b) => a.payout.createdAt.getTime() - b.payout.createdAt.getTime() || (a.payout.id < b.payout.id ? -1 : 1));
}
