/** The error half of the API's mutation result unions (every error type implements Error { message }). */
export interface MutationResult {
  readonly __typename: string;
  readonly message?: string;
}

/** The refusal's message, or null on success (success types end in "Success"). */
export function resultError(result: MutationResult | null | undefined, fallback = "Request failed"): string | null {
  if (!result) return fallback;
  if (result.__typename.endsWith("Success")) return null;
  return result.message || fallback;
}
