import type { RecordSourceSelectorProxy } from "relay-runtime";

/** The optional messages a user may turn off (api/mail: receipts, payment and security messages always go). */
export interface MailPreferencesPatch {
  readonly reminders?: boolean | null;
  readonly prechargeNotice?: boolean | null;
  readonly digest?: boolean | null;
}

/**
 * Writes saved (or, optimistically, asked-for) preferences onto the user's own record. MailPreferences has no id,
 * so Relay cannot merge a save's answer by itself; without this the Profile tab and the Sent mail page would
 * show the old switches after a tab change.
 */
export function writeMailPreferences(store: RecordSourceSelectorProxy, userId: string, patch: MailPreferencesPatch): void {
  const prefs = store.get(userId)?.getLinkedRecord("mailPreferences");
  if (!prefs) return;
  for (const key of ["reminders", "prechargeNotice", "digest"] as const) {
    const value = patch[key];
    if (typeof value === "boolean") prefs.setValue(value, key);
  }
}
