/** Browser storage keys of spec §3, in one place. */
export const STORAGE_KEYS = {
  authToken: "auth_token",
  /** The logged-in user as JSON, including is_admin. */
  authUser: "auth_user",
  /** Tenant the session was created for. */
  authTenant: "auth_tenant",
  /** Slug of the business being browsed, lower-cased. */
  currentTenant: "current_tenant",
  ownerHomePath: "owner_home_path",
  membershipSelection: "membership_selection",
  pagePreviewData: "page_preview_data",
  pendingSetupIntentSecret: "pending_setup_intent_client_secret",
} as const;

export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** The part of the Storage API we use, so tests can pass a plain object. */
export type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function browserStorage(): KeyValueStore | null {
  try {
    return typeof window !== "undefined" ? window.localStorage : null;
  } catch {
    // Storage can throw when disabled (privacy modes); the app then behaves as logged out.
    return null;
  }
}

export function readItem(key: StorageKey, store: KeyValueStore | null = browserStorage()): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: StorageKey, value: string | null, store: KeyValueStore | null = browserStorage()): void {
  try {
    if (value === null) store?.removeItem(key);
    else store?.setItem(key, value);
  } catch {
    // Quota or disabled storage: nothing sensible to do.
  }
}

export function readJson<T>(key: StorageKey, store: KeyValueStore | null = browserStorage()): T | null {
  const raw = readItem(key, store);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}
