import { decodeGlobalID } from "@pothos/plugin-relay";
import { ValidationError } from "../shared/errors.ts";

/** Mutation inputs take a Relay global id or the numeric databaseId: the number, or a ValidationError at `path`. */
export function numericId(value: string | number, typename: string, path: string): number {
  const raw = String(value).trim();
  if (/^\d+$/.test(raw)) return Number(raw);
  try {
    const { typename: t, id } = decodeGlobalID(raw);
    if (t === typename && /^\d+$/.test(id)) return Number(id);
  } catch {
    // fall through to the validation error
  }
  throw new ValidationError(`Invalid ${typename} id`, [{ path, message: `Invalid ${typename} id` }]);
}
