import { describe, expect, it } from "vitest";
import { heldSelections, soldOutOf, type PlacesTaken } from "../../api/catalog/capacity.ts";

/**
 * What a plan has no place left in (soldOutOf), for a visitor and for a member whose membership already
 * holds places: the one rule behind Plan.soldOut / soldOutModes, Membership.soldOutForChange and
 * assertPlaceAvailable (the business page and the change dialog only show its answers).
 */

const A = 1;
const B = 2;
const variations = [
  { mode: "PICKUP" as const, capacity: null as number | null },
  { mode: "SHIPPING" as const, capacity: null as number | null },
];
const taken = (byPlan: [number, number][], byVariation: [string, number][] = []): PlacesTaken => ({ byPlan: new Map(byPlan), byVariation: new Map(byVariation) });

// Plan A's capacity of 2 is reached.
const fullPlan = { plan: { id: A, capacity: 2, variations }, taken: taken([[A, 2]], [[`${A}:PICKUP`, 2]]) };
// Plan A's shipping (capacity 1) is reached; the plan has no limit.
const fullShipping = {
  plan: { id: A, capacity: null, variations: [variations[0], { mode: "SHIPPING" as const, capacity: 1 }] },
  taken: taken([[A, 3]], [[`${A}:PICKUP`, 2], [`${A}:SHIPPING`, 1]]),
};
// Both of plan A's modes are full by their own capacities.
const everyModeFull = {
  plan: { id: A, capacity: null, variations: [{ mode: "PICKUP" as const, capacity: 2 }, { mode: "SHIPPING" as const, capacity: 1 }] },
  taken: taken([[A, 3]], [[`${A}:PICKUP`, 2], [`${A}:SHIPPING`, 1]]),
};
const ownPickup = [{ planId: A, mode: "PICKUP" as const }];

describe("soldOutOf", () => {
  it("for a visitor: the plan when its capacity is reached (then every mode), a mode when its own is", () => {
    expect(soldOutOf(fullPlan.plan, fullPlan.taken)).toEqual({ plan: true, modes: ["PICKUP", "SHIPPING"] });
    expect(soldOutOf(fullShipping.plan, fullShipping.taken)).toEqual({ plan: false, modes: ["SHIPPING"] });
    expect(soldOutOf(everyModeFull.plan, everyModeFull.taken)).toEqual({ plan: false, modes: ["PICKUP", "SHIPPING"] });
    expect(soldOutOf(fullPlan.plan, taken([[A, 1]]))).toEqual({ plan: false, modes: [] });
  });

  it("a member of the plan changing only the mode is not blocked by the plan being full (they hold a place of it)", () => {
    expect(soldOutOf(fullPlan.plan, fullPlan.taken, ownPickup)).toEqual({ plan: false, modes: [] });
  });

  it("a mode full by its own capacity still blocks a member of the plan, except the mode they hold", () => {
    expect(soldOutOf(fullShipping.plan, fullShipping.taken, ownPickup)).toEqual({ plan: false, modes: ["SHIPPING"] });
    expect(soldOutOf(everyModeFull.plan, everyModeFull.taken, ownPickup)).toEqual({ plan: false, modes: ["SHIPPING"] });
  });

  it("a member of another plan is a visitor here", () => {
    const other = [{ planId: B, mode: "PICKUP" as const }];
    expect(soldOutOf(fullPlan.plan, fullPlan.taken, other)).toEqual({ plan: true, modes: ["PICKUP", "SHIPPING"] });
  });

  it("lists only the modes the plan offers", () => {
    expect(soldOutOf({ id: A, capacity: 1, variations: [variations[1]] }, taken([[A, 1]]))).toEqual({ plan: true, modes: ["SHIPPING"] });
  });
});

describe("heldSelections", () => {
  const membership = { status: "ACTIVE", planId: A, mode: "PICKUP" as const, pendingChange: null };

  it("an active or past-due membership holds its plan and mode, and its scheduled change's", () => {
    expect(heldSelections(membership)).toEqual([{ planId: A, mode: "PICKUP" }]);
    expect(heldSelections({ ...membership, status: "PAST_DUE", pendingChange: { planId: B, mode: "SHIPPING" } })).toEqual([
      { planId: A, mode: "PICKUP" },
      { planId: B, mode: "SHIPPING" },
    ]);
  });

  it("a canceled or unpaid membership holds none", () => {
    expect(heldSelections({ ...membership, status: "CANCELED" })).toEqual([]);
    expect(heldSelections({ ...membership, status: "INCOMPLETE" })).toEqual([]);
  });
});
