/** A business's monthly statement: Business.statement(month) (owners and administrators: managePayouts). */
import { resolveCursorConnection } from "@pothos/plugin-relay";
import { builder } from "../builder.ts";
import { CURSOR_DECODER } from "../cursors.ts";
import { MAX_ROW_ID } from "../ids.ts";
import { LedgerKindEnum } from "./payouts.ts";
import type { ServiceContext } from "../../context.ts";
import { globalId } from "../../shared/global-id.ts";
import { ValidationError } from "../../shared/errors.ts";
import * as statements from "../../payouts/statements.ts";

/** An entry's cursor: its place in the statement's order (occurred_at in ms, id), opaque to clients. */
const CURSOR_PREFIX = "StatementEntry:";
/** 9999-12-31T23:59:59.999Z: the last instant a cursor may name. */
const MAX_MS = 253_402_300_799_999;
const entryCursor = (e: statements.StatementEntry) => Buffer.from(CURSOR_PREFIX + JSON.stringify([e.occurredAt.getTime(), e.id])).toString("base64url");

function entryKeyOfCursor(cursor: string | undefined, arg: string): statements.EntryKey | null {
  if (cursor === undefined) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  let key: unknown;
  try {
    key = text.startsWith(CURSOR_PREFIX) ? JSON.parse(text.slice(CURSOR_PREFIX.length)) : null;
  } catch {
    key = null;
  }
  if (Array.isArray(key) && key.length === 2) {
    const [ms, id] = key as unknown[];
    const inRange = (v: unknown, max: number, min: number): v is number => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
    if (inRange(ms, MAX_MS, 0) && inRange(id, MAX_ROW_ID, 1)) return { occurredAt: new Date(ms), id };
  }
  throw new ValidationError("Not a cursor of these entries.", [{ path: arg, message: "Not a cursor of these entries." }]);
}

const StatementEntryRef = builder.objectRef<statements.StatementEntry>("StatementEntry").implement({
  description: "One charge or refund in a statement: gross = platform fee + processing fee + net (a refund's are negative).",
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "The ledger entry's id." }),
    date: t.exposeString("date", { description: "The day it happened (YYYY-MM-DD, the business's time zone)." }),
    occurredAt: t.expose("occurredAt", { type: "DateTime" }),
    memberName: t.exposeString("memberName", { nullable: true, description: "The payment's member (name, else username); null once the payment is gone." }),
    membershipId: t.id({
      nullable: true,
      description: "The membership's Relay id; null when the payment has none.",
      resolve: (e) => (e.membershipId === null ? null : globalId("Membership", e.membershipId)),
    }),
    period: t.exposeString("period", { description: "The month the charge paid for (YYYY-MM)." }),
    kind: t.field({ type: LedgerKindEnum, resolve: (e) => e.kind }),
    providerId: t.exposeString("providerId", { description: "The charge's or refund's id at the provider." }),
    grossCents: t.exposeInt("grossCents"),
    platformFeeCents: t.exposeInt("platformFeeCents"),
    processingFeeCents: t.exposeInt("processingFeeCents"),
    netCents: t.exposeInt("netCents"),
  }),
});

/** One of the month's totals, read once per request (one statement for all of them). */
const totalOf = async (ctx: ServiceContext, s: statements.Statement, key: keyof statements.StatementTotals) =>
  (await statements.statementTotals(ctx, s))[key];

const PayoutStatementRef = builder.objectRef<statements.Statement>("PayoutStatement").implement({
  description: "A month of the business's books: its charges and refunds by the date they happened in the business's time zone.",
  fields: (t) => ({
    month: t.exposeString("month", { description: "YYYY-MM." }),
    timeZone: t.exposeString("timeZone"),
    grossCents: t.int({ description: "The charges' gross.", resolve: (s, _a, ctx) => totalOf(ctx, s, "grossCents") }),
    refundsCents: t.int({ description: "The refunds' gross (zero or negative).", resolve: (s, _a, ctx) => totalOf(ctx, s, "refundsCents") }),
    platformFeeCents: t.int({ description: "Platform fees, less those refunded.", resolve: (s, _a, ctx) => totalOf(ctx, s, "platformFeeCents") }),
    processingFeeCents: t.int({ description: "Processing fees, less those refunded.", resolve: (s, _a, ctx) => totalOf(ctx, s, "processingFeeCents") }),
    netCents: t.int({ description: "What the month leaves the business: gross + refunds − both fees.", resolve: (s, _a, ctx) => totalOf(ctx, s, "netCents") }),
    entryCount: t.int({ description: "Charges and refunds in the month.", resolve: (s, _a, ctx) => totalOf(ctx, s, "entryCount") }),
    paidOutCents: t.int({
      description: "Payouts made to the business's bank in the month (by the day they were made), failed and canceled ones left out.",
      resolve: (s, _a, ctx) => totalOf(ctx, s, "paidOutCents"),
    }),
    entries: t.connection({
      type: StatementEntryRef,
      description: "The month's charges and refunds, oldest first (by when they happened, then id).",
      extensions: { [CURSOR_DECODER]: entryKeyOfCursor },
      resolve: (s, args, ctx) =>
        resolveCursorConnection<Promise<statements.StatementEntry[]>>({ args, toCursor: entryCursor, ...statements.STATEMENT_PAGE }, ({ before, after, limit, inverted }) =>
          statements.entryPage(ctx, s, { after: entryKeyOfCursor(after, "after"), before: entryKeyOfCursor(before, "before"), take: limit, reverse: inverted }),
        ),
    }),
  }),
});

builder.prismaObjectFields("Business", (t) => ({
  statement: t.field({
    type: PayoutStatementRef,
    nullable: true,
    description: "The statement of a month (YYYY-MM): its charges and refunds and their totals (owners and administrators).",
    authScopes: (b) => ({ business: { id: b.id, permission: "managePayouts" } }),
    args: { month: t.arg.string({ required: true, description: "YYYY-MM, in the business's time zone." }) },
    resolve: (business, { month }, ctx) => statements.statementOf(ctx, business.id, month),
  }),
}));
