/**
 * The event vocabulary: every type an event row may carry and the payload it carries (docs/jobs-events-mail.md, "Events").
 * Types are versioned: a payload never changes shape under a published type; a new shape is a new `.vN`.
 * Amounts are integer cents, periods "YYYY-MM", ids numeric database ids (the row's objectId is the Relay id).
 */
export interface EventPayloads {
  /** A checkout's first payment settled: the membership is ACTIVE. */
  "membership.started.v1": { membershipId: number; userId: number; orderId: number; period: string; planId: number; mode: string; totalCents: number };
  /** A sign-up past the cutoff for next month's box: the card is saved, the membership ACTIVE, nothing charged until `firstPeriod`'s billing day. */
  "membership.signed_up.v1": { membershipId: number; userId: number; firstPeriod: string; planId: number; mode: string; totalCents: number };
  /** A renewal paid a new period (billing run, or a past-due payment confirmed by the member). */
  "membership.renewed.v1": { membershipId: number; userId: number; orderId: number; period: string; totalCents: number };
  /** A canceled membership is ACTIVE again: charged for the current period (`orderId`), or reactivated free when it was paid through it. */
  "membership.restarted.v1": { membershipId: number; userId: number; orderId: number | null; period: string; chargedCents: number };
  /** A renewal charge was declined and attempts remain: the membership is PAST_DUE. */
  "membership.past_due.v1": { membershipId: number; userId: number; period: string; attempt: number };
  /** The membership ended: by its business ("business"), after the last declined renewal attempt ("payment_failed"), or on the billing day after the month a member's own cancel ended it with ("member"). */
  "membership.canceled.v1": { membershipId: number; userId: number; reason: "business" | "payment_failed" | "member" };
  /** The member canceled from the membership page: it ends after `afterPeriod` (its paid-through month, whose box still ships), on the next billing day; `reason`: the cancel dialog's (TOO_EXPENSIVE, …, OTHER). */
  "membership.cancel_scheduled.v1": { membershipId: number; userId: number; afterPeriod: string; reason: string };
  /** The member kept a membership whose cancel was scheduled ("Keep my membership"): it renews as before. */
  "membership.cancel_withdrawn.v1": { membershipId: number; userId: number };
  /** The member skipped a month: no box and no charge that month. */
  "membership.skipped.v1": { membershipId: number; userId: number; month: string; resumeDate: string };
  /** The member paused: `fromMonth` through `throughMonth` skipped (no box, no charge; still ACTIVE); `resumeDate`: ISO date of the first box after it. */
  "membership.paused.v1": { membershipId: number; userId: number; fromMonth: string; throughMonth: string; resumeDate: string };
  /** The member took skips back (one month, or the rest of a pause when resuming): each of `months` gets its box and its charge again. */
  "membership.unskipped.v1": { membershipId: number; userId: number; months: string[] };
  /** The member scheduled a new selection from `effectivePeriod` (the first month charged), at `totalCents` a month as priced then (absent on events stored before changes carried their price). */
  "membership.changed.v1": { membershipId: number; userId: number; planId: number; mode: string; addonIds: number[]; effectivePeriod: string; totalCents?: number };
  /** A renewal applied the scheduled change from `period`: the membership now holds it at `totalCents` a month. */
  "membership.change_applied.v1": { membershipId: number; userId: number; planId: number; mode: string; addonIds: number[]; period: string; totalCents: number };
  /** The member sent the membership's boxes to a new address (and, for delivery, area); the address is read from the membership. */
  "membership.address_changed.v1": { membershipId: number; userId: number };
  /** The member withdrew a scheduled change (chose the current selection again). */
  "membership.change_withdrawn.v1": { membershipId: number; userId: number };
  /** Staff of the business (an owner, editor or administrator) added an internal note to the membership; the note's text stays out of the event. */
  "membership.note_added.v1": { noteId: number; membershipId: number; businessId: number; authorId: number };
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

  /** The packing snapshot of `period` was frozen (`trigger`: "cutoff", "renewal_run" or "operator"); `boxes` to pack, `held` on hold (payment failed). */
  "fulfilment.snapshot_frozen.v1": { snapshotId: number; businessId: number; period: string; trigger: string; boxes: number; held: number };

  // Stripe Billing: memberships imported with a Stripe subscription are invoiced by Stripe, not by our billing run.
  /** Stripe reported a paid invoice of an imported subscription: the membership is ACTIVE (no order of ours: Stripe billed it). */
  "membership.invoice_paid.v1": { membershipId: number; userId: number; invoiceId: string; amountCents: number; period: string; previousStatus: string };

  // Administration (an audit view, owners' and partners' feeds).
  /** An administrator created a business (with its page and Next Box; its first users each get business.role_granted.v1). */
  "business.created.v1": { businessId: number; slug: string; name: string };
  /** An administrator deleted a business (it had no paying members and no orders). */
  "business.deleted.v1": { businessId: number; slug: string; name: string };
  /** A user was given a role in a business (attached, or attached at the business's creation). */
  "business.role_granted.v1": { businessId: number; userId: number; role: string };
  /** A user's role in a business changed. */
  "business.role_changed.v1": { businessId: number; userId: number; role: string; previousRole: string };
  /** A user's role in a business was taken away (detached). */
  "business.role_revoked.v1": { businessId: number; userId: number; role: string };
  /** A partner API token was created for a business (its secret is never in an event). */
  "api_token.created.v1": { tokenId: number; businessId: number; name: string; prefix: string };
  /** A partner API token was revoked: it reads as anonymous from now on. */
  "api_token.revoked.v1": { tokenId: number; businessId: number; name: string; prefix: string };
  /**
   * A coupon was created: a business's own by its owner or an editor (`businessId`), or a platform coupon by an
   * administrator (`businessId` null, platform-wide); a business's retention discount is made the first time a member
   * accepts it (at its percent, each year). `value`: percent, or cents for FIXED.
   */
  "coupon.created.v1": { couponId: number; businessId: number | null; code: string; type: string; value: number; active: boolean };
  /** A coupon was switched on or off, or its terms edited (`businessId` null: a platform coupon). */
  "coupon.updated.v1": { couponId: number; businessId: number | null; code: string; active: boolean };
  /** A coupon was deleted: memberships holding it renew without it from their next charge; orders keep their amounts. */
  "coupon.deleted.v1": { couponId: number; businessId: number | null; code: string };
  /** A membership redeemed a coupon (checkout, attached later, or a retention discount the member accepted); `businessId` is the coupon's (null: a platform coupon). */
  "coupon.redeemed.v1": { couponId: number; businessId: number | null; membershipId: number; userId: number };
  /** An administrator saved the platform home page (live at once; businesses without a page show it too). */
  "home_page.published.v1": { pageId: number };
  /** An administrator created an account (`isAdmin`: a platform administrator); platform-wide. */
  "user.created.v1": { userId: number; username: string; isAdmin: boolean };
  /** A member's profile changed: the fields that changed, without their values; platform-wide. */
  "user.profile_updated.v1": { userId: number; changed: ("email" | "name" | "phone" | "address")[] };
  /** An account's email address changed (security: tell the previous address); platform-wide, beside user.profile_updated.v1. */
  "user.email_changed.v1": { userId: number; email: string | null; previousEmail: string | null };
  /** A business's connected payout account changed at the provider (onboarding finished, requirements due, restricted). */
  "payout_account.updated.v1": { businessId: number; status: string; chargesEnabled: boolean; payoutsEnabled: boolean; requirementsDue: string[] };
  /** An administrator scheduled platform fees from a month on: for one business, or the platform's default (`businessId` null, platform-wide). */
  "platform_fee.scheduled.v1": {
    businessId: number | null;
    effectivePeriod: string;
    rates: { platformBps: number; platformCents: number; processingBps: number; processingCents: number };
  };
  /** A payout from the business's account reached its bank (`payoutId`: the mirror's row; `arrivalDate` YYYY-MM-DD). */
  "payout.paid.v1": { payoutId: number; businessId: number; amountCents: number; arrivalDate: string };
  /** A payout from the business's account failed: its amount is back in the balance (`failureCode`: the provider's). */
  "payout.failed.v1": { payoutId: number; businessId: number; amountCents: number; failureCode: string | null };
}

export type EventType = keyof EventPayloads;
