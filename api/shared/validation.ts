import type { z } from "zod";
import { ValidationError } from "./errors.ts";

/** Parse service input with a zod schema; failures become a ValidationError listing every field issue. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  throw new ValidationError(issues[0]?.message ?? "Invalid input", issues);
}
