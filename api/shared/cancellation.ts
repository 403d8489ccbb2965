/**
 * The bounds of a member's own cancel (docs/payments.md, "Pause and cancel") that the web app shows as the server
 * checks them: the cancel dialog's note counter and the page editor's discount field. Dependency-free (`@shared`).
 */

/** The member's note with a cancel request: at most this many characters. */
export const CANCELLATION_NOTE_MAX = 500;

/** The retention discount (the DISCOUNT offer): a whole percent from min to max off the next charge, once. */
export const RETENTION_DISCOUNT_PERCENT = { min: 5, max: 50 } as const;
