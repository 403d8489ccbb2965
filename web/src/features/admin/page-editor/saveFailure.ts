/** An Error for a refused save: the server's message with its field issues, else the spec's fallback. */
export function saveFailure(result: { readonly message?: string; readonly issues?: ReadonlyArray<{ readonly path: string; readonly message: string }> }): Error {
  const issues = result.issues?.map((i) => `${i.path}: ${i.message}`).join("; ");
  const message = [result.message, issues].filter(Boolean).join(" — ");
  return new Error(message || "Failed to save changes. Please ensure the backend is running.");
}
