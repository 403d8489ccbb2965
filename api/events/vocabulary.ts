/**
 * The event vocabulary: every type an event row may carry and the payload it carries (README "Events").
 * Types are versioned: a payload never changes shape under a published type; a new shape is a new `.vN`.
 * Amounts are integer cents, periods "YYYY-MM", ids numeric database ids (the row's objectId is the Relay id).
 */
export interface EventPayloads {
  /** A checkout's first payment settled: the membership is ACTIVE. */
  "membership.started.v1": { membershipId: number; userId: number; orderId: number; period: string; planId: number; mode: string; totalCents: number };
  /** A renewal paid a new period (billing run, or a past-due payment confirmed by the member). */
  "membership.renewed.v1": { membershipId: number; userId: number; orderId: number; period: string; totalCents: number };
  /** A canceled membership is ACTIVE again: charged for the current period (`orderId`), or reactivated free when it was paid through it. */
  "membership.restarted.v1": { membershipId: number; userId: number; orderId: number | null; period: string; chargedCents: number };
  /** A renewal charge was declined and attempts remain: the membership is PAST_DUE. */
  "membership.past_due.v1": { membershipId: number; userId: number; period: string; attempt: number };
  /** The membership ended: by its business ("business") or after the last declined renewal attempt ("payment_failed"). */
  "membership.canceled.v1": { membershipId: number; userId: number; reason: "business" | "payment_failed" };
  /** The member skipped a month: no box and no charge that month. */
  "membership.skipped.v1": { membershipId: number; userId: number; month: string; resumeDate: string };
  /** The member scheduled a new selection from `effectivePeriod`. */
  "membership.changed.v1": { membershipId: number; userId: number; planId: number; mode: string; addonIds: number[]; effectivePeriod: string };
  /** A renewal applied the scheduled change from `period`: the membership now holds it at `totalCents` a month. */
  "membership.change_applied.v1": { membershipId: number; userId: number; planId: number; mode: string; addonIds: number[]; period: string; totalCents: number };
  /** The member withdrew a scheduled change (chose the current selection again). */
  "membership.change_withdrawn.v1": { membershipId: number; userId: number };
  /** A payment was declined, once per payment: a renewal charge (`code`: the decline code, or the intent's status, e.g. requires_action, when the member must act), or a checkout or restart card. */
  "payment.failed.v1": { paymentId: number | null; membershipId: number | null; userId: number; amountCents: number; period: string | null; code: string | null };
  /** A payment was given back in full because it could not be matched to what it was made for (settlement's `reason`). */
  "payment.refunded.v1": { paymentId: number; membershipId: number | null; userId: number; amountCents: number; reason: string };
  /** A period's order was made (every paid period: first, renewal, restart). */
  "order.created.v1": { orderId: number; membershipId: number; userId: number; period: string; kind: string; totalCents: number };
  /** A member saved a new default card. */
  "card.updated.v1": { userId: number; brand: string; last4: string; expMonth: number; expYear: number };
  /** An account was registered (`tenant`: the business site it registered on, null on the main site). */
  "user.registered.v1": { userId: number; username: string; tenant: string | null };
  /** An account's password was changed (by its holder). */
  "user.password_changed.v1": { userId: number };
  /** A business's page was published (made visible to the public). */
  "page.published.v1": { businessId: number; slug: string };
  /** A business published its Next Box note (what members get in the coming box; shown on its page and in the portal). */
  "next_box.published.v1": { businessId: number; slug: string; nextBoxId: number };
}

export type EventType = keyof EventPayloads;
