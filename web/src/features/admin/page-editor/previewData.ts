import { readItem, STORAGE_KEYS } from "../../../lib/storage.ts";
import type { PageDraft } from "./draft.ts";

/** What the editor hands to the preview tab through page_preview_data. */
interface PreviewData {
  tenant: string;
  draft: PageDraft;
  createdAt: string;
}

export function storePreviewData(tenant: string, draft: PageDraft): void {
  // The preview shows the HTML; without the documents an embedded image is stored once, not twice.
  const previewed: PageDraft = { ...draft, descriptionDoc: null, faqs: draft.faqs.map((f) => ({ ...f, aDoc: null })) };
  const payload: PreviewData = { tenant, draft: previewed, createdAt: new Date().toISOString() };
  localStorage.setItem(STORAGE_KEYS.pagePreviewData, JSON.stringify(payload));
  if (readItem(STORAGE_KEYS.pagePreviewData) === null) throw new Error("storage unavailable");
}

export type PreviewAccess = { ok: true; data: PreviewData } | { ok: false; message: string };

/**
 * Spec §5 preview access: a stored user and token are required; admins may preview any business, others only
 * their current tenant (case-insensitive). Then the stored preview data must exist and parse.
 */
export function readPreviewAccess(slug: string, store: Pick<Storage, "getItem"> = localStorage): PreviewAccess {
  const token = store.getItem(STORAGE_KEYS.authToken);
  const rawUser = store.getItem(STORAGE_KEYS.authUser);
  if (!token || !rawUser) return { ok: false, message: "Access denied. Please log in." };
  let user: { is_admin?: boolean; isAdmin?: boolean };
  try {
    user = JSON.parse(rawUser);
  } catch {
    return { ok: false, message: "Authentication error." };
  }
  const raw = store.getItem(STORAGE_KEYS.pagePreviewData);
  let data: PreviewData | null = null;
  let parseFailed = false;
  if (raw) {
    try {
      data = JSON.parse(raw) as PreviewData;
      if (!data?.draft) parseFailed = true;
    } catch {
      parseFailed = true;
    }
  }
  const isAdmin = Boolean(user?.is_admin ?? user?.isAdmin);
  // The current tenant: the browsed business, else the session's, else the business the editor handed over.
  const tenant = store.getItem(STORAGE_KEYS.currentTenant) || store.getItem(STORAGE_KEYS.authTenant) || data?.tenant || "";
  if (!isAdmin && tenant.toLowerCase() !== slug.toLowerCase()) return { ok: false, message: "Access denied. You do not have permission to preview this business page." };
  if (!raw) return { ok: false, message: "No preview data found. Please go back to the edit page and click Preview again." };
  if (parseFailed || !data) return { ok: false, message: "Failed to load preview data." };
  return { ok: true, data };
}
