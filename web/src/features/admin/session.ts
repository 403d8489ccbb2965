import { readItem, readJson, STORAGE_KEYS, writeItem, type KeyValueStore } from "../../lib/storage.ts";

/** The stored user (auth_user); the portal writes is_admin, older sessions may carry isAdmin. */
interface StoredUser {
  id?: string | number;
  username?: string;
  is_admin?: boolean;
  isAdmin?: boolean;
}

export interface AdminSession {
  token: string | null;
  user: StoredUser | null;
  isAdmin: boolean;
  ownerHomePath: string | null;
}

export function readAdminSession(store?: KeyValueStore | null): AdminSession {
  const token = readItem(STORAGE_KEYS.authToken, store) || null;
  const user = readJson<StoredUser>(STORAGE_KEYS.authUser, store);
  return {
    token,
    user,
    isAdmin: Boolean(user?.is_admin ?? user?.isAdmin),
    ownerHomePath: readItem(STORAGE_KEYS.ownerHomePath, store) || null,
  };
}

/** Logout: forget the whole stored session (spec §2 admin layout). */
export function clearStoredSession(store?: KeyValueStore | null): void {
  for (const key of [STORAGE_KEYS.authToken, STORAGE_KEYS.authUser, STORAGE_KEYS.authTenant, STORAGE_KEYS.ownerHomePath]) {
    writeItem(key, null, store);
  }
}
