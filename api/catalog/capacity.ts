/**
 * Capacity: an optional maximum of memberships per plan (`plans.capacity`, all modes together) and per
 * plan and mode (`plan_variations.capacity`); null is no limit. Both may be set and both apply.
 *
 * Who holds a place: a membership whose status is ACTIVE or PAST_DUE. That covers paused ones (a skipped month
 * leaves the membership ACTIVE with a skip row) and gifts (a gift is a membership with isGift and the same
 * statuses; it holds its place until it is canceled). A scheduled change also holds a place in its new plan and
 * mode from the moment it is scheduled, so the renewal that applies it never overfills. CANCELED memberships
 * free their place; INCOMPLETE ones (a checkout not paid yet, the buyer's own included) hold none: the place is
 * taken when the payment settles, under the lock below, and a payment that finds it gone is refunded
 * (`sold_out`, api/billing/checkout/settlement.ts).
 *
 * Every write that takes a place (checkout settlement, restart, change) checks inside the transaction of the
 * membership write, after taking a transaction-scoped advisory lock on the business, so two processes cannot
 * both fill the last place. Lock order: the member's row (settlement.lockMember) first, then this lock, then the
 * outbox's; never the other way round.
 */
import type { FulfillmentMode, Prisma } from "../generated/prisma/client.ts";
import { RuleViolationError } from "../shared/errors.ts";
import { FULFILLMENT_MODES } from "./service.ts";

type Tx = Prisma.TransactionClient;

/** The statuses that hold a place (see above). */
const PLACE_STATUSES = ["ACTIVE", "PAST_DUE"] as const;

/** First key of the two-int advisory lock (pg_advisory_xact_lock(class, businessId)): the capacity namespace. */
const CAPACITY_LOCK_CLASS = 20_200_401;

export const SOLD_OUT_MESSAGE = "This box is sold out.";

/** The refusal when no place is left (REST 409, reason sold_out; GraphQL RuleViolationError). */
export class SoldOutError extends RuleViolationError {
  override readonly httpStatus = 409;
  constructor(message = SOLD_OUT_MESSAGE) {
    super(message, "sold_out");
  }
}

/** A plan and mode a membership holds or asks for. */
export interface PlaceSelection {
  planId: number;
  mode: FulfillmentMode;
}

/** Places held per plan (all modes) and per plan and mode (`${planId}:${mode}`). */
export interface PlacesTaken {
  byPlan: Map<number, number>;
  byVariation: Map<string, number>;
}

const variationKey = (planId: number, mode: FulfillmentMode) => `${planId}:${mode}`;

/**
 * Places held in a business's plans (`planIds` empty: all of them), not counting membership `exceptId`. A
 * membership whose current selection and scheduled change are both in one scope counts once there.
 */
export async function placesTaken(db: Tx, businessId: number, planIds: number[] = [], exceptId = 0): Promise<PlacesTaken> {
  const statuses = [...PLACE_STATUSES];
  const rows = await db.$queryRaw<{ plan_id: number; mode: FulfillmentMode | null; taken: number }[]>`
    WITH held AS (
      SELECT s.id, s.plan_id, s.mode FROM subscriptions s
       WHERE s.business_id = ${businessId} AND s.status::text = ANY(${statuses}::text[]) AND s.id <> ${exceptId}
         AND (cardinality(${planIds}::int[]) = 0 OR s.plan_id = ANY(${planIds}::int[]))
      UNION
      SELECT s.id, c.plan_id, c.mode FROM subscription_changes c JOIN subscriptions s ON s.id = c.subscription_id
       WHERE s.business_id = ${businessId} AND s.status::text = ANY(${statuses}::text[]) AND s.id <> ${exceptId}
         AND (cardinality(${planIds}::int[]) = 0 OR c.plan_id = ANY(${planIds}::int[]))
    )
    SELECT plan_id, mode::text AS mode, count(DISTINCT id)::int AS taken FROM held GROUP BY GROUPING SETS ((plan_id, mode), (plan_id))`;
  const taken: PlacesTaken = { byPlan: new Map(), byVariation: new Map() };
  for (const r of rows) {
    if (r.mode === null) taken.byPlan.set(r.plan_id, r.taken);
    else taken.byVariation.set(variationKey(r.plan_id, r.mode), r.taken);
  }
  return taken;
}

/** Whether a plan or one of its modes has a capacity at all (if not, nothing needs counting). */
export function hasCapacity(plan: { capacity: number | null; variations: { capacity: number | null }[] }): boolean {
  return plan.capacity !== null || plan.variations.some((v) => v.capacity !== null);
}

/**
 * Whether a plan (mode null) or a plan in one mode has no place left. A mode is sold out when its plan is.
 */
function isSoldOut(plan: { id: number; capacity: number | null }, variation: { mode: FulfillmentMode; capacity: number | null } | null, taken: PlacesTaken): boolean {
  if (plan.capacity !== null && (taken.byPlan.get(plan.id) ?? 0) >= plan.capacity) return true;
  if (!variation || variation.capacity === null) return false;
  return (taken.byVariation.get(variationKey(plan.id, variation.mode)) ?? 0) >= variation.capacity;
}

type CapacityPlan = { id: number; capacity: number | null; variations: { mode: FulfillmentMode; capacity: number | null }[] };

/** What a plan has no place left in: the plan as a whole, and each offered mode (in the modes' order). */
export interface SoldOut {
  plan: boolean;
  modes: FulfillmentMode[];
}

/**
 * What `plan` has no place left in for whoever holds `holds` (none: a visitor). A selection a membership already
 * holds a place in needs none again: a plan it holds is not full for it (the plan's count includes it), so in
 * another mode of that plan only the mode's own capacity can refuse, and its own plan and mode never does. The
 * one rule of every check: the business page's fields, a member's change choices, and assertPlaceAvailable.
 */
export function soldOutOf(plan: CapacityPlan, taken: PlacesTaken, holds: readonly PlaceSelection[] = []): SoldOut {
  const holdsPlan = holds.some((h) => h.planId === plan.id);
  const planFull = !holdsPlan && isSoldOut(plan, null, taken);
  const modes = FULFILLMENT_MODES.filter((mode) => {
    const variation = plan.variations.find((v) => v.mode === mode);
    if (!variation) return false;
    if (planFull) return true;
    const held = holds.some((h) => h.planId === plan.id && h.mode === mode);
    return !held && isSoldOut({ id: plan.id, capacity: null }, variation, taken);
  });
  return { plan: planFull, modes };
}

async function capacitiesOf(db: Tx, selection: PlaceSelection) {
  return db.plan.findUnique({
    where: { id: selection.planId },
    select: { id: true, businessId: true, capacity: true, variations: { where: { mode: selection.mode }, select: { mode: true, capacity: true } } },
  });
}

/**
 * Refuses with SoldOutError when `selection` needs a place that its plan, or its plan in that mode, no longer
 * has (soldOutOf). `membership`: the one taking the place (null: none yet, a quote) and the selections it
 * already holds a place in (its current one while ACTIVE or PAST_DUE, its scheduled change).
 *
 * With `lock` (inside the transaction that writes the membership), takes the business's capacity lock first, so
 * the count and the write are one step for every process; without it (a quote) the answer is advisory.
 */
export async function assertPlaceAvailable(
  db: Tx,
  selection: PlaceSelection,
  membership: { id: number; holds: PlaceSelection[] } | null,
  { lock }: { lock: boolean },
): Promise<void> {
  const holds = membership?.holds ?? [];
  // Nothing to count when no capacity applies, or the selection's places are held already.
  const needsCount = (plan: CapacityPlan) =>
    (plan.capacity !== null && !holds.some((h) => h.planId === plan.id)) ||
    (plan.variations[0]?.capacity != null && !holds.some((h) => h.planId === plan.id && h.mode === selection.mode));
  let plan = await capacitiesOf(db, selection);
  if (!plan || !needsCount(plan)) return;
  if (lock) {
    await db.$executeRaw`SELECT pg_advisory_xact_lock(${CAPACITY_LOCK_CLASS}::int, ${plan.businessId}::int)`;
    // Read again under the lock: an owner's edit may have committed meanwhile.
    plan = await capacitiesOf(db, selection);
    if (!plan || !needsCount(plan)) return;
  }
  const taken = await placesTaken(db, plan.businessId, [selection.planId], membership?.id ?? 0);
  const soldOut = soldOutOf(plan, taken, holds);
  // A mode the plan does not offer is refused elsewhere (pricing); here only its plan's capacity applies.
  if (plan.variations.length ? soldOut.modes.includes(selection.mode) : soldOut.plan) throw new SoldOutError();
}

/**
 * For a member changing their box: what each plan of the membership's business has no place left in for them
 * (soldOutOf with the places the membership holds), by plan ref. Advisory, as a quote: the change itself is
 * checked again under the lock.
 */
export async function soldOutForChange(
  db: Tx,
  membership: { id: number; businessId: number; status: string; planId: number; mode: FulfillmentMode; pendingChange?: PlaceSelection | null },
): Promise<(SoldOut & { planRef: string })[]> {
  const plans = await db.plan.findMany({
    where: { businessId: membership.businessId, archivedAt: null },
    select: { id: true, ref: true, capacity: true, variations: { select: { mode: true, capacity: true } } },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  if (!plans.some(hasCapacity)) return plans.map((p) => ({ planRef: p.ref, plan: false, modes: [] }));
  const taken = await placesTaken(db, membership.businessId, [], membership.id);
  const holds = heldSelections(membership);
  return plans.map((p) => ({ planRef: p.ref, ...soldOutOf(p, taken, holds) }));
}

/** The selections an existing membership already holds a place in (see assertPlaceAvailable). */
export function heldSelections(sub: {
  status: string;
  planId: number;
  mode: FulfillmentMode;
  pendingChange?: PlaceSelection | null;
}): PlaceSelection[] {
  if (!(PLACE_STATUSES as readonly string[]).includes(sub.status)) return [];
  return [{ planId: sub.planId, mode: sub.mode }, ...(sub.pendingChange ? [{ planId: sub.pendingChange.planId, mode: sub.pendingChange.mode }] : [])];
}
