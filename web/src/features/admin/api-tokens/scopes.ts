/**
 * The scopes a partner API token may be given (api/auth/policy.ts PARTNER_SCOPES): chosen when it is created, shown
 * in the list. Tokens made before scopes existed hold memberships:read and orders:read.
 */
export interface ScopeOption {
  scope: string;
  label: string;
  help: string;
  /** Ticked when the create form opens. */
  byDefault: boolean;
}

export const SCOPE_OPTIONS: readonly ScopeOption[] = [
  { scope: "memberships:read", label: "Memberships", help: "Members, plans, status and billing dates.", byDefault: true },
  { scope: "orders:read", label: "Orders", help: "Orders and their amounts.", byDefault: true },
  {
    scope: "fulfilment:read",
    label: "Fulfilment",
    help: "Packing lists and their CSV download, with members' delivery addresses, phone numbers and gift messages.",
    byDefault: false,
  },
];

export const DEFAULT_SCOPES: readonly string[] = SCOPE_OPTIONS.filter((o) => o.byDefault).map((o) => o.scope);

/** The message when no scope is ticked (the server refuses it too: ValidationError on `scopes`). */
export const SCOPES_REQUIRED = "Choose at least one scope";

/** `scopes` with `scope` ticked or unticked, in the options' order. */
export function toggleScope(scopes: readonly string[], scope: string, on: boolean): string[] {
  const next = new Set(scopes);
  if (on) next.add(scope);
  else next.delete(scope);
  return SCOPE_OPTIONS.map((o) => o.scope).filter((s) => next.has(s));
}

/** A token's scopes as the list shows them ("Memberships, Orders"); a scope this app does not know by its name. */
export function scopeLabels(scopes: readonly string[]): string {
  if (scopes.length === 0) return "None";
  return scopes.map((s) => SCOPE_OPTIONS.find((o) => o.scope === s)?.label ?? s).join(", ");
}

/** The sentence under a new token: what it reads. */
export function scopeSentence(scopes: readonly string[]): string {
  const words = scopes.map((s) => SCOPE_OPTIONS.find((o) => o.scope === s)?.label.toLowerCase() ?? s);
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
