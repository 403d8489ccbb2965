/** BusinessRole of the schema. */
export type BusinessRole = "OWNER" | "EDITOR" | "VIEWER";

export const ROLE_LABELS: Record<string, string> = { OWNER: "Owner", EDITOR: "Editor", VIEWER: "Viewer" };

export interface PendingAttachment<U> {
  user: U;
  role: BusinessRole;
}

/** Spec §5: at most one owner among the attachments; choosing owner demotes the others to editor. */
export function withRole<U>(attachments: PendingAttachment<U>[], index: number, role: BusinessRole): PendingAttachment<U>[] {
  return attachments.map((a, i) => {
    if (i === index) return { ...a, role };
    if (role === "OWNER" && a.role === "OWNER") return { ...a, role: "EDITOR" };
    return a;
  });
}

export function addAttachment<U>(attachments: PendingAttachment<U>[], user: U, role: BusinessRole): PendingAttachment<U>[] {
  return withRole([...attachments, { user, role }], attachments.length, role);
}
