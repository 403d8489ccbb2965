import { decodeGlobalID } from "@pothos/plugin-relay";
import { ValidationError } from "../shared/errors.ts";

/** Largest value of the integer id columns (PostgreSQL `integer`): every row id lies in 1..MAX_ROW_ID. */
export const MAX_ROW_ID = 2 ** 31 - 1;

/** The row id a decimal string names (no sign, no leading zero, 1..MAX_ROW_ID), or null. */
export function rowIdOf(digits: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(digits)) return null;
  const id = Number(digits);
  return id <= MAX_ROW_ID ? id : null;
}

/**
 * Mutation inputs take a Relay global id of `typename` or the numeric databaseId: the row id, or a
 * ValidationError at `path` for anything else (another type's global id, a malformed one, a number outside
 * 1..MAX_ROW_ID), so no id reaches the database that its integer columns cannot hold.
 */
export function numericId(value: string | number, typename: string, path: string): number {
  const raw = String(value).trim();
  let id = rowIdOf(raw);
  if (id === null && !/^\d+$/.test(raw)) {
    try {
      const decoded = decodeGlobalID(raw);
      if (decoded.typename === typename) id = rowIdOf(decoded.id);
    } catch {
      // fall through to the validation error
    }
  }
  if (id !== null) return id;
  throw new ValidationError(`Invalid ${typename} id`, [{ path, message: `Invalid ${typename} id` }]);
}
