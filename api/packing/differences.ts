/**
 * What changed month M after its packing snapshot was frozen: the snapshot compared with M as it stands now (the
 * same preview read). Nothing here writes: the snapshot stays as frozen, and the packing team reads the list.
 */
import type { Prisma } from "../generated/prisma/client.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import type { Box, BoxAddon, Outlook, PreviewMember } from "./preview.ts";

/**
 * - ADDED: a box of M that the snapshot lacks (a late checkout or restart paid for M, a charge that went through late);
 * - REMOVED: a frozen box that M no longer has (canceled, its order refunded, skipped);
 * - CHANGED: the plan, mode, point, add-ons, address or gift of a box changed;
 * - PAYMENT: a box on hold whose charge is now paid, or whose retry failed for good (canceled for payment).
 */
type DifferenceKind = "ADDED" | "REMOVED" | "CHANGED" | "PAYMENT";

export interface Difference {
  kind: DifferenceKind;
  membershipId: number;
  memberName: string;
  /** What changed, in words ("Plan: Small Box → Family Box", "Canceled", "Hold — payment failed → paid"). */
  changes: string[];
}

const addonNames = (addons: BoxAddon[]): string => addons.map((a) => a.name).join(", ");

const addressLine = (address: Prisma.JsonValue | null): string => {
  if (!address || typeof address !== "object" || Array.isArray(address)) return "";
  const a = address as Record<string, unknown>;
  return ["fullName", "street", "apt", "city", "state", "zip", "country", "phone", "instructions"].map((k) => (typeof a[k] === "string" ? a[k] : "")).filter(Boolean).join(", ");
};

const WHY_GONE: Partial<Record<Outlook, string>> = { REFUNDED: "Order refunded", SKIPPED: "Month skipped" };

/** Compares the snapshot's boxes with the current members of M. `gone`: why frozen members are no longer current (canceled …). */
export function differencesOf(frozen: Box[], current: PreviewMember[], gone: Map<number, string>): Difference[] {
  const now = new Map(current.map((m) => [m.membershipId, m]));
  const out: Difference[] = [];
  const seen = new Set<number>();
  for (const f of frozen) {
    seen.add(f.membershipId);
    const m = now.get(f.membershipId);
    const box = m && (m.outlook === "PAID" || m.outlook === "RETRY") ? m.box : null;
    if (f.hold) {
      if (m?.outlook === "PAID") out.push({ kind: "PAYMENT", membershipId: f.membershipId, memberName: f.memberName, changes: ["Hold — payment failed → paid"] });
      else if (!m) out.push({ kind: "PAYMENT", membershipId: f.membershipId, memberName: f.memberName, changes: [gone.get(f.membershipId) ?? "No longer a member"] });
      if (!m) continue;
    } else if (!box) {
      const why = m ? (WHY_GONE[m.outlook] ?? (m.outlook === "RETRY" ? "Payment failed" : "Not paid")) : (gone.get(f.membershipId) ?? "No longer a member");
      out.push({ kind: m?.outlook === "RETRY" ? "PAYMENT" : "REMOVED", membershipId: f.membershipId, memberName: f.memberName, changes: [why] });
      continue;
    }
    if (!box) continue;
    const changes: string[] = [];
    const compare = (label: string, was: string, is: string) => {
      if (was !== is) changes.push(`${label}: ${was || "none"} → ${is || "none"}`);
    };
    compare("Plan", f.planName, box.planName);
    compare("Mode", MODE_NAMES[f.mode], MODE_NAMES[box.mode]);
    compare("Point", f.fulfillmentPoint, box.fulfillmentPoint);
    compare("Add-ons", addonNames(f.addons), addonNames(box.addons));
    compare("Address", addressLine(f.address), addressLine(box.address));
    compare("Gift message", f.giftMessage, box.giftMessage);
    if (changes.length) out.push({ kind: "CHANGED", membershipId: f.membershipId, memberName: box.memberName, changes });
  }
  for (const m of current) {
    if (seen.has(m.membershipId) || !m.box || m.outlook !== "PAID") continue;
    out.push({ kind: "ADDED", membershipId: m.membershipId, memberName: m.memberName, changes: ["Paid for the month after the freeze"] });
  }
  return out.sort((a, b) => a.memberName.localeCompare(b.memberName) || a.membershipId - b.membershipId);
}
