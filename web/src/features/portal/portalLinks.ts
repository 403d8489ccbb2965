/**
 * The portal's deep links: the emails link to `/membership?tab=subscriptions&membership=<databaseId>&open=skip`
 * (or `open=change`), which opens the portal on that tab with that membership's Skip dialog, or its change flow.
 * Parsed here so the portal only decides what the membership allows (an unknown membership, or one whose skip is
 * not allowed, shows its card as usual).
 */

/** The `?tab=` values of the links in emails. */
const PORTAL_TABS = ["next-box", "subscriptions", "orders", "profile"] as const;
export type PortalTabParam = (typeof PORTAL_TABS)[number];

/** What a link asks the portal to open for one membership. */
export type PortalAction = "skip" | "change";

interface PortalLink {
  /** The tab to show; null when the link names none (the portal's default). */
  tab: PortalTabParam | null;
  /** The membership's and the action's request, or null when the link makes none (or half of one). */
  action: { membershipId: number; open: PortalAction } | null;
}

const isTab = (v: string | null): v is PortalTabParam => (PORTAL_TABS as readonly (string | null)[]).includes(v);
const isAction = (v: string | null): v is PortalAction => v === "skip" || v === "change";

/** A membership's databaseId as written in a link: a positive whole number, nothing else ("12abc", "1.5", "-3" are not). */
function membershipIdOf(v: string | null): number | null {
  if (!v || !/^\d{1,9}$/.test(v.trim())) return null;
  const n = Number(v.trim());
  return n > 0 ? n : null;
}

/**
 * Reads a portal URL's query. `orderId` (after checkout) opens Subscriptions, as does an action on a membership
 * (its card is there); an unknown tab or action is ignored (never an error).
 */
export function parsePortalLink(params: URLSearchParams): PortalLink {
  const tabParam = params.get("tab");
  const membershipId = membershipIdOf(params.get("membership"));
  const open = params.get("open");
  const action = membershipId !== null && isAction(open) ? { membershipId, open } : null;
  // The Skip dialog and Change box live on the membership's card: an action opens Subscriptions whatever the tab says.
  const tab = action || params.get("orderId") ? "subscriptions" : isTab(tabParam) ? tabParam : null;
  return { tab, action };
}

/**
 * The same query without the one-time request (`membership`, `open`): the portal replaces its URL with it once the
 * request is taken, so a reload or a refresh after a restart does not open the dialog again. null when there is
 * nothing to take away.
 */
export function withoutPortalAction(params: URLSearchParams): URLSearchParams | null {
  if (!params.has("open") && !params.has("membership")) return null;
  const next = new URLSearchParams(params);
  next.delete("open");
  next.delete("membership");
  return next;
}

/** Where "Change box" goes for a membership: its business's page in change mode (spec §2). */
export function changeBoxPath(businessSlug: string): string {
  return `/b/${businessSlug}?change=true`;
}
