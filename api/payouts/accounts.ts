/**
 * Where the charges of one billing period go, read from what is stored: each business's connected account, the
 * month its charges start going there, and the fee schedules. The charge paths in billing ask here (one read for a
 * whole renewal batch) and send what they get to the provider; nothing here calls the provider.
 */
import type { Prisma } from "../generated/prisma/client.ts";
import { feesFor, ratesFor, type FeeRates, type Fees, type FeeSchedule } from "./fees.ts";
import { routeFor, type PayoutAccountStatus, type Route } from "./routing.ts";

type Db = Prisma.TransactionClient;

/** How one charge is made: to the business's account with the platform's fees, on the platform's own, or not at all. */
export type ChargeRouting =
  | { kind: "CONNECTED"; destination: string; fees: Fees; descriptorSuffix: string }
  | { kind: "PLATFORM" }
  | { kind: "NOT_READY" };

/** A business's routing for one period: every charge of that period is routed alike, whatever its amount. */
export interface PeriodRouting {
  businessId: number;
  name: string;
  route: Route;
  rates: FeeRates;
}

/**
 * The routing of each business's charges for `period`: one statement (the businesses, their accounts and the
 * schedules begun by then), whatever the number of businesses; a renewal batch makes it once.
 */
export async function periodRoutings(db: Db, businessIds: readonly number[], period: string): Promise<Map<number, PeriodRouting>> {
  const ids = [...new Set(businessIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<
    { id: number; name: string; collects_on_platform: boolean; connect_from_period: string | null; account_id: string | null; status: PayoutAccountStatus | null; schedules: FeeSchedule[] | null }[]
  >`
    SELECT b.id, b.name, b.collects_on_platform, b.connect_from_period, a.account_id, a.status::text AS status,
           (SELECT json_agg(json_build_object('businessId', f.business_id, 'effectivePeriod', f.effective_period, 'platformBps', f.platform_bps,
                                              'platformCents', f.platform_cents, 'processingBps', f.processing_bps, 'processingCents', f.processing_cents))
              FROM fee_schedules f
             WHERE (f.business_id = b.id OR f.business_id IS NULL) AND f.effective_period <= ${period}) AS schedules
      FROM businesses b
      LEFT JOIN payment_accounts a ON a.business_id = b.id
     WHERE b.id = ANY(${ids}::int[])`;
  return new Map(
    rows.map((b) => [
      b.id,
      {
        businessId: b.id,
        name: b.name,
        route: routeFor(
          { collectsOnPlatform: b.collects_on_platform, connectFromPeriod: b.connect_from_period, account: b.account_id && b.status ? { accountId: b.account_id, status: b.status } : null },
          period,
        ),
        rates: ratesFor(b.schedules ?? [], b.id, period),
      },
    ]),
  );
}

/** One charge of `grossCents` under a period's routing. */
export function chargeRouting(routing: PeriodRouting, grossCents: number): ChargeRouting {
  const { route } = routing;
  if (route.kind !== "CONNECTED") return route;
  return { kind: "CONNECTED", destination: route.destination, fees: feesFor(grossCents, routing.rates), descriptorSuffix: descriptorSuffix(routing.name) };
}

/** The routing of one business's charge for `period`. */
export async function routingFor(db: Db, businessId: number, period: string, grossCents: number): Promise<ChargeRouting> {
  const routing = (await periodRoutings(db, [businessId], period)).get(businessId);
  return routing ? chargeRouting(routing, grossCents) : { kind: "NOT_READY" };
}

/**
 * The business's name after the platform's on a card statement: Stripe allows 22 characters of Latin letters,
 * digits, spaces and a few marks, at least one letter (`statement_descriptor_suffix`).
 */
function descriptorSuffix(name: string): string {
  const cleaned = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9 .,-]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 22)
    .trim();
  return /[A-Za-z]/.test(cleaned) ? cleaned : "Membership";
}

/** The fees a routed charge carries in its provider metadata, so whoever sees the charge succeed writes the ledger from it. */
export const FEE_METADATA = { platform: "platform_fee_cents", processing: "processing_fee_cents" } as const;

export function feeMetadata(fees: Fees): Record<string, string> {
  return { [FEE_METADATA.platform]: String(fees.platformFeeCents), [FEE_METADATA.processing]: String(fees.processingFeeCents) };
}

/** Whether the business can take a charge for `period` (its public page's Checkout, Business.acceptingMembers). */
export async function takesCharges(db: Db, businessId: number, period: string): Promise<boolean> {
  const routing = (await periodRoutings(db, [businessId], period)).get(businessId);
  return routing !== undefined && routing.route.kind !== "NOT_READY";
}
