import type { AdminSession } from "./session.ts";

export type GuardDecision =
  | { kind: "allow" }
  | { kind: "redirect"; to: string }
  /** A non-admin opened /admin without a stored owner home path: look up their first business. */
  | { kind: "resolve-owner-home" };

const NON_ADMIN_PATHS = /^\/admin\/(my|change-password|mail)\/?$|^\/admin\/business\//;

/**
 * Spec §6 admin route guard, as navigation only (the server refuses the same operations). No token: to
 * /membership with the wanted path as r. Admins: anywhere. Others: /admin/my, /admin/change-password,
 * /admin/mail (Sent mail: owners see their businesses') and /admin/business/*; /admin itself goes to the stored
 * owner home path; every other admin path to /admin/my.
 */
export function adminGuard(pathname: string, search: string, session: Pick<AdminSession, "token" | "isAdmin" | "ownerHomePath">): GuardDecision {
  if (!session.token) return { kind: "redirect", to: `/membership?r=${encodeURIComponent(pathname + search)}` };
  if (session.isAdmin) return { kind: "allow" };
  if (pathname === "/admin" || pathname === "/admin/") {
    return session.ownerHomePath ? { kind: "redirect", to: session.ownerHomePath } : { kind: "resolve-owner-home" };
  }
  if (NON_ADMIN_PATHS.test(pathname)) return { kind: "allow" };
  return { kind: "redirect", to: "/admin/my" };
}

/** Spec §6: an owner's home is the first of their businesses, else My Businesses. */
export function ownerHomePath(businessIds: number[]): string {
  return businessIds.length ? `/admin/business/${businessIds[0]}` : "/admin/my";
}
