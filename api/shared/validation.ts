import { z } from "zod";
import { ValidationError } from "./errors.ts";

/** Parse service input with a zod schema; failures become a ValidationError listing every field issue. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  throw new ValidationError(issues[0]?.message ?? "Invalid input", issues);
}

/**
 * Tabs and line breaks (also vertical tab, form feed, NEL and the Unicode line and paragraph separators).
 * Other control characters never get this far: the edge refuses them in any text (api/http/input-limits.ts).
 */
const LINE_BREAK_OR_TAB = /[\t\n\r\v\f\u0085\u2028\u2029]/;

const SINGLE_LINE_MESSAGE = "must be a single line (no tabs or line breaks)";

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): invisible, they reorder
 * what follows them as it is displayed (a right-to-left override turns "Main St 12" on a packing slip into
 * something else than what was stored). The directional marks (U+200E LRM, U+200F RLM, U+061C ALM) stay
 * allowed: they reorder nothing on their own beyond the neutral characters around them, and right-to-left
 * writers type them to place digits and punctuation correctly.
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

const BIDI_MESSAGE = "must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069)";

/** True when the text has no bidirectional embedding, override or isolate character. */
const withoutBidiControls = (s: string) => !BIDI_CONTROL.test(s);

/**
 * A multi-line text that is printed for someone else to read (gift messages, delivery instructions): line
 * breaks are fine, bidirectional controls are refused (`label` starts the message).
 */
export function noBidiControls(label = "This field", params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(withoutBidiControls, `${label} ${BIDI_MESSAGE}`);
}

/**
 * A single-line text (names, usernames, slugs, codes, emails, titles, search terms): tabs, line breaks and
 * bidirectional controls (see BIDI_CONTROL) are refused, checked before any `.trim()` that follows, so a trailing tab is refused too rather than trimmed
 * away. Multi-line text (descriptions, rich text, FAQ answers) keeps a plain z.string(). `label` starts the
 * message ("Business name must be a single line …"); `params` are z.string()'s (e.g. its required message).
 */
export function singleLine(label = "This field", params?: Parameters<typeof z.string>[0]) {
  return z
    .string(params)
    .refine((s) => !LINE_BREAK_OR_TAB.test(s), `${label} ${SINGLE_LINE_MESSAGE}`)
    .refine(withoutBidiControls, `${label} ${BIDI_MESSAGE}`);
}

/** A search term as typed: single-line (else a ValidationError), trimmed; "" when there is none. */
export function searchTerm(q: string | null | undefined): string {
  return q == null ? "" : parseInput(singleLine("Search"), q).trim();
}
