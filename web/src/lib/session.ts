import { useSyncExternalStore } from "react";
import { readItem, readJson, STORAGE_KEYS, writeItem } from "./storage.ts";

interface StoredUser {
  id: string;
  username: string;
  email?: string | null;
  is_admin: boolean;
}

export interface Session {
  token: string;
  user: StoredUser | null;
  tenant: string | null;
}

const EVENT = "membership-session";
let version = 0;

function notify() {
  version += 1;
  window.dispatchEvent(new Event(EVENT));
}

/** The stored session (spec §3 auth_token, auth_user, auth_tenant), or null. */
export function readSession(): Session | null {
  const token = readItem(STORAGE_KEYS.authToken);
  if (!token) return null;
  return { token, user: readJson<StoredUser>(STORAGE_KEYS.authUser), tenant: readItem(STORAGE_KEYS.authTenant) };
}

export function saveSession(payload: { token: string; tenant?: string | null; user: { id: string; username: string; email?: string | null; isAdmin: boolean } }): void {
  writeItem(STORAGE_KEYS.authToken, payload.token);
  writeItem(STORAGE_KEYS.authUser, JSON.stringify({ id: payload.user.id, username: payload.user.username, email: payload.user.email ?? null, is_admin: payload.user.isAdmin }));
  writeItem(STORAGE_KEYS.authTenant, payload.tenant ? payload.tenant.toLowerCase() : null);
  notify();
}

export function clearSession(): void {
  writeItem(STORAGE_KEYS.authToken, null);
  writeItem(STORAGE_KEYS.authUser, null);
  writeItem(STORAGE_KEYS.authTenant, null);
  writeItem(STORAGE_KEYS.ownerHomePath, null);
  notify();
}

function subscribe(cb: () => void) {
  window.addEventListener(EVENT, cb);
  window.addEventListener("storage", cb);
  return () => {
    window.removeEventListener(EVENT, cb);
    window.removeEventListener("storage", cb);
  };
}

/** A number that changes whenever the session does: use it as a Relay fetchKey so viewer data refetches. */
export function useSessionVersion(): number {
  return useSyncExternalStore(subscribe, () => version + (readItem(STORAGE_KEYS.authToken) ? 0.5 : 0));
}
