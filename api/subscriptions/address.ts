/**
 * Where a membership's box goes: the delivery address of a shipping or delivery membership, which the
 * member changes on its card or, with a Profile address change, for the memberships they tick.
 *
 * Which boxes: a month not yet frozen is packed at the new address (the cycle's preview reads the membership's
 * address); a frozen month keeps what was packed, the change shows in its differences (CHANGED) and applies from
 * the next month. Orders keep the address they were made with.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";
import { cycleState, nextBoxPeriod } from "../packing/cycle.ts";
import { addMonths, parseYearMonth, yearMonthOf } from "../shared/calendar.ts";
import { RuleViolationError, ValidationError } from "../shared/errors.ts";
import { parseInput } from "../shared/validation.ts";
import { addressSchema, enteredAddressSchema, updateProfile, type Address, type ProfileInput } from "../users/service.ts";
import { choosePoint, type OfferedPoints } from "../rules/fulfillment-point.ts";
import { firstChargedPeriod } from "../rules/dates.ts";
import { membershipEvent, ownSubscription, type SubscriptionForRules } from "./service.ts";

type Tx = Prisma.TransactionClient;

const ChangeAddressInput = z.object({
  subscriptionId: z.number().int().positive("Missing subscription id"),
  address: enteredAddressSchema,
  /** The delivery area chosen with the new address (DELIVERY); omitted: the current one when still offered. */
  fulfillmentPoint: z.string().max(500).optional(),
});

/** A box needs somewhere to go: at least the street (as checkout's step 1), the city and the zip code. */
function requireDeliverable(address: Address, path = "address"): void {
  const missing = (["street", "city", "zip"] as const).filter((k) => address[k].trim() === "");
  if (missing.length) {
    throw new ValidationError(
      "Please enter the street, city and zip code the box goes to.",
      missing.map((k) => ({ path: `${path}.${k}`, message: "Required" })),
    );
  }
}

/** Only shipping and delivery boxes travel to an address; a pickup membership has none to change. */
function requireAddressable(sub: { status: string; mode: string }): void {
  if (!(MEMBER_STATUSES as readonly string[]).includes(sub.status)) {
    throw new RuleViolationError("Only a current membership's delivery address can be changed.", "not_active");
  }
  if (sub.mode === "PICKUP") throw new RuleViolationError("A pickup membership has no delivery address: its box is collected.", "pickup_mode");
}

/** The delivery area a membership takes with its new address: the one chosen now, else its own while still offered. */
function areaFor(sub: SubscriptionForRules, given: string | undefined): string {
  const page: OfferedPoints = sub.business.page ?? { pickupPoints: [], deliveryAreas: [] };
  const chosen = given?.trim() || (sub.mode === "DELIVERY" && page.deliveryAreas.includes(sub.fulfillmentPoint) ? sub.fulfillmentPoint : undefined);
  return choosePoint(page, sub.mode, chosen);
}

/**
 * The first month whose box goes to an address written now: the month of the next box, or the one after when that
 * month's packing list is already frozen (by its freeze time, or a snapshot taken), past the months the member skipped.
 */
export async function addressAppliesFrom(
  db: Pick<Tx, "packingSnapshot" | "skip">,
  now: Date,
  sub: { id: number; businessId: number; business: { timeZone: string; page: { billingDay: number; cutoffDay: number | null; boxReadyDay: number | null } | null } },
): Promise<string> {
  const next = nextBoxPeriod(sub.business, now);
  const frozen =
    cycleState(sub.business, next, now) === "frozen" ||
    (await db.packingSnapshot.count({ where: { businessId: sub.businessId, period: next } })) > 0;
  const from = frozen ? yearMonthOf(addMonths(parseYearMonth(next), 1)) : next;
  const skips = await db.skip.findMany({ where: { subscriptionId: sub.id, yearMonth: { gte: from } }, select: { yearMonth: true } });
  return firstChargedPeriod(from, skips.map((s) => s.yearMonth));
}

export interface AddressChange {
  subscriptionId: number;
  fulfillmentPoint: string;
  /** The first month (YYYY-MM) whose box goes to the new address. */
  appliesFrom: string;
}

/** Writes one membership's new address (and area) with its event, in the caller's transaction. */
async function writeAddress(ctx: ServiceContext, tx: Tx, sub: SubscriptionForRules, address: Address, fulfillmentPoint: string): Promise<AddressChange> {
  await tx.subscription.update({ where: { id: sub.id }, data: { address, fulfillmentPoint } });
  await membershipEvent(ctx, tx, sub, { type: "membership.address_changed.v1", payload: { membershipId: sub.id, userId: sub.userId } });
  return { subscriptionId: sub.id, fulfillmentPoint, appliesFrom: await addressAppliesFrom(tx, ctx.clock.now(), sub) };
}

/**
 * The member sends a membership's boxes to a new address (its card's "Delivery address"). For delivery the area is
 * confirmed or chosen again from the page's list with it (an area is a name, not a map: the fulfillment-point rule
 * decides). The member's own current shipping or delivery membership only.
 */
export async function changeMembershipAddress(ctx: ServiceContext, input: z.input<typeof ChangeAddressInput>): Promise<AddressChange> {
  const data = parseInput(ChangeAddressInput, input);
  const sub = await ownSubscription(ctx, data.subscriptionId);
  requireAddressable(sub);
  requireDeliverable(data.address);
  const point = areaFor(sub, data.fulfillmentPoint);
  return ctx.db.$transaction((tx) => writeAddress(ctx, tx, sub, data.address, point));
}

const MoveInput = z.array(z.number().int().positive()).max(100).default([]);

/**
 * A Profile save that also sends the ticked memberships' boxes to the new address, in one transaction: every ticked
 * membership is checked first (the member's own, shipping or delivery, its area still offered or the only one), so a
 * refusal saves nothing. Without ticks it is the plain profile save (REST's `POST /api/my/profile` never moves one).
 */
export async function saveProfileAndMoveBoxes(ctx: ServiceContext, profile: ProfileInput, moveMembershipIds: number[] = []) {
  const ids = [...new Set(parseInput(MoveInput, moveMembershipIds))];
  if (ids.length && !profile.address) {
    throw new ValidationError("Enter the new address to send your boxes there.", [{ path: "address", message: "Required to move memberships" }]);
  }
  const subs = await Promise.all(ids.map((id) => ownSubscription(ctx, id)));
  subs.forEach(requireAddressable);
  const points = new Map(subs.map((s) => [s.id, areaFor(s, undefined)]));
  return updateProfile(ctx, profile, async (tx, user) => {
    if (!subs.length) return;
    const address = addressSchema.parse(user.address ?? {});
    requireDeliverable(address);
    for (const sub of subs) await writeAddress(ctx, tx, sub, address, points.get(sub.id)!);
  });
}
