import type { CancellationReason } from "./__generated__/CancelFlowDialogRequestMutation.graphql.ts";

/** The cancel dialog's reasons, in the order it lists them (GraphQL CancellationReason). */
export const CANCELLATION_REASONS: readonly { value: Exclude<CancellationReason, "%future added value">; label: string }[] = [
  { value: "TOO_EXPENSIVE", label: "It's too expensive" },
  { value: "TOO_MUCH", label: "Too much food" },
  { value: "MOVING", label: "I'm moving" },
  { value: "QUALITY", label: "Quality" },
  { value: "DELIVERY", label: "Delivery or pickup problems" },
  { value: "TAKING_A_BREAK", label: "Taking a break" },
  { value: "OTHER", label: "Other" },
];

/** How a member of a business cancels (GraphQL CancellationPolicy): PHONE, the spec's, unless the page says otherwise. */
export const selfService = (policy: string | null | undefined) => policy === "SELF_SERVICE";

/**
 * The portal footer's line on cancelling, from the current memberships it speaks for (whether each may be canceled
 * from its card): the spec's "Cancellation is by phone only." while none may; otherwise where to cancel.
 */
export function cancellationNote(fromCard: readonly boolean[]): string {
  if (!fromCard.some(Boolean)) return "Cancellation is by phone only.";
  if (fromCard.every(Boolean)) return "You can cancel from your membership card (Subscriptions tab).";
  return "Cancellation is by phone unless the membership's card offers Cancel membership.";
}
