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
 * A single-line text (names, usernames, slugs, codes, emails, titles, search terms): tabs and line breaks are
 * refused, checked before any `.trim()` that follows, so a trailing tab is refused too rather than trimmed
 * away. Multi-line text (descriptions, rich text, FAQ answers) keeps a plain z.string(). `label` starts the
 * message ("Business name must be a single line …"); `params` are z.string()'s (e.g. its required message).
 */
export function singleLine(label = "This field", params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine((s) => !LINE_BREAK_OR_TAB.test(s), `${label} ${SINGLE_LINE_MESSAGE}`);
}

/** A search term as typed: single-line (else a ValidationError), trimmed; "" when there is none. */
export function searchTerm(q: string | null | undefined): string {
  return q == null ? "" : parseInput(singleLine("Search"), q).trim();
}
