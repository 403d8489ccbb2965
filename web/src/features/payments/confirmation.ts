/** The outcome of confirming a card with the provider (spec §4 card outcome). */
export type ConfirmResult = { ok: true } | { ok: false; message: string };

/** How a provider form (Stripe Elements or the sandbox form) confirms a client secret with the card it holds. */
export type CardConfirmer = (clientSecret: string) => Promise<ConfirmResult>;
