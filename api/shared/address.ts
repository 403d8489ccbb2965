/**
 * A postal address as people write it on an envelope, from the stored JSON ({fullName, street, apt, city, state,
 * zip, country}): "Rita Receipt" / "9 Ledger Rd, Apt 2" / "Hudson, OH 44236" / "US". Empty parts are left out.
 * Dependency-free: the server's mail and the web app's cards use this one copy.
 */
export function addressLines(address: unknown): string[] {
  if (!address || typeof address !== "object" || Array.isArray(address)) return [];
  const a = address as Record<string, unknown>;
  const part = (k: string) => (typeof a[k] === "string" ? a[k].trim() : "");
  const cityLine = [part("city"), [part("state"), part("zip")].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [part("fullName"), [part("street"), part("apt")].filter(Boolean).join(", "), cityLine, part("country")].filter(Boolean);
}
