/**
 * Who a message speaks for: a business (its brand name, logo, colour, sender name, reply-to and public URL), or
 * the platform for account messages that belong to no business (the home page's brand).
 */
import type { Config } from "../config.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { businessUrl } from "../shared/public-urls.ts";
import { timingSelect } from "../subscriptions/timing.ts";
import { emailLogo } from "../uploads/email-png.ts";
import type { Brand } from "./layout.ts";
import type { PortalLinks } from "./templates.ts";

type Db = Prisma.TransactionClient;

/** The orange of the web app's buttons, for a business without a theme colour. */
const DEFAULT_COLOR = "#dd6b20";
const CSS_COLOR = /^#[0-9a-f]{3,8}$/i;

export const businessMailSelect = {
  id: true,
  slug: true,
  name: true,
  timeZone: true,
  page: {
    select: {
      brandName: true,
      logoUrl: true,
      theme: true,
      mailSenderName: true,
      mailReplyTo: true,
      supportPhone: true,
      mailWindowReminder: true,
      mailPrechargeNotice: true,
      ...timingSelect,
    },
  },
} as const satisfies Prisma.BusinessSelect;

export type MailBusiness = Prisma.BusinessGetPayload<{ select: typeof businessMailSelect }>;

/** A message's sender side: the brand it is drawn in, the From name and Reply-To, how to reach it, and the portal links. */
export interface Sender {
  businessId: number | null;
  brand: Brand;
  fromName: string;
  replyTo: string | null;
  /** The business's support phone (page setting), or null. */
  supportPhone: string | null;
  links: PortalLinks;
}

const origin = (config: Config) => `${config.publicScheme}://${config.publicHost}`;

function portalLinks(base: string): PortalLinks {
  const portal = new URL("membership", base.endsWith("/") ? base : `${base}/`);
  const tab = (t: string) => {
    const u = new URL(portal);
    u.searchParams.set("tab", t);
    return u.href;
  };
  return { subscriptions: tab("subscriptions"), profile: tab("profile") };
}

/** The portal dialogs a link can open on one membership (the portal reads `membership` and `open`). */
type MembershipDialog = "skip" | "change";

/**
 * A deep link that opens the portal's Subscriptions tab on one membership's skip or change dialog:
 * `…/membership?tab=subscriptions&membership=<membership database id>&open=skip|change`.
 */
function membershipDialogLink(links: PortalLinks, membershipId: number, open: MembershipDialog): string {
  const u = new URL(links.subscriptions);
  u.searchParams.set("tab", "subscriptions");
  u.searchParams.set("membership", String(membershipId));
  u.searchParams.set("open", open);
  return u.href;
}

/** Both dialog links of one membership (the window reminder's and the pre-charge notice's Skip and Change buttons). */
export function membershipDialogLinks(links: PortalLinks, membershipId: number): Record<MembershipDialog, string> {
  return { skip: membershipDialogLink(links, membershipId, "skip"), change: membershipDialogLink(links, membershipId, "change") };
}

/** The logo of a page, as its emails show it (a PNG rendition), found when a message is rendered. */
const logoOf = (config: Config, logoUrl: string | null | undefined): Brand["logo"] => (logoUrl ? () => emailLogo(config, logoUrl) : null);

function themeColor(theme: unknown): string {
  const primary = theme && typeof theme === "object" ? (theme as Record<string, unknown>).primary : undefined;
  return typeof primary === "string" && CSS_COLOR.test(primary) ? primary : DEFAULT_COLOR;
}

export function businessSender(config: Config, b: MailBusiness): Sender {
  const name = b.page?.brandName.trim() || b.name;
  const url = businessUrl(b.slug, config.publicScheme, config.publicHost);
  return {
    businessId: b.id,
    brand: { name, logo: logoOf(config, b.page?.logoUrl), color: themeColor(b.page?.theme), url },
    // The business's sender name, else MAIL_FROM's name (`Name <address>`), else its brand.
    fromName: b.page?.mailSenderName.trim() || config.mailFromName || name,
    replyTo: b.page?.mailReplyTo.trim() || null,
    supportPhone: b.page?.supportPhone.trim() || null,
    links: portalLinks(url),
  };
}

/** The platform itself (account messages with no business): the home page's brand, the main site's portal. */
export async function platformSender(db: Db, config: Config): Promise<Sender> {
  const home = await db.page.findFirst({ where: { isHome: true }, select: { brandName: true, logoUrl: true, theme: true } });
  const name = home?.brandName.trim() || "Membership Boxes";
  const url = `${origin(config)}/`;
  return {
    businessId: null,
    brand: { name, logo: logoOf(config, home?.logoUrl), color: themeColor(home?.theme), url },
    fromName: config.mailFromName || name,
    replyTo: null,
    supportPhone: null,
    links: portalLinks(url),
  };
}

/** The admin area's address (owners' digest). */
export function adminUrl(config: Config, businessId: number): string {
  return `${origin(config)}/admin/business/${businessId}`;
}

/** The business's Payouts page in the admin area (its payout account and the fees in force). */
export function payoutsUrl(config: Config, businessId: number): string {
  return `${adminUrl(config, businessId)}/payouts`;
}
