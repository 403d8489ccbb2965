/**
 * Typed reading of an order's selection snapshot (spec §3 Order.selection, written by billing's
 * selectionSnapshot). Older or hand-made snapshots may lack fields, so every field is optional here.
 */
export interface OrderSelectionView {
  planName: string | null;
  variationName: string | null;
  addons: { id: string | null; name: string; amountCents: number }[];
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const cents = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) ? v : null);

export function orderSelectionView(selection: unknown): OrderSelectionView {
  const s = (selection && typeof selection === "object" ? selection : {}) as Record<string, unknown>;
  const rawAddons = Array.isArray(s.chosenAddons) ? s.chosenAddons : Array.isArray(s.addons) ? s.addons : [];
  const addons = rawAddons.flatMap((a) => {
    if (!a || typeof a !== "object") return [];
    const r = a as Record<string, unknown>;
    const name = str(r.name);
    if (!name) return [];
    return [{ id: str(r.id), name, amountCents: cents(r.amountCents) ?? cents(r.amount) ?? 0 }];
  });
  return { planName: str(s.chosenItemName), variationName: str(s.chosenVariationName), addons };
}

/** Orders exist only for paid periods; a refund since (in part or in full) is what changes their status. */
export type OrderStatus = "PAID" | "PARTLY_REFUNDED" | "REFUNDED";

export function orderStatus(o: { refundedCents: number; totalCents: number }): OrderStatus {
  if (o.refundedCents <= 0) return "PAID";
  return o.refundedCents >= o.totalCents ? "REFUNDED" : "PARTLY_REFUNDED";
}
