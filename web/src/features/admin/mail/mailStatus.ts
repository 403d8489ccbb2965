import type { MailStatus } from "./__generated__/MailMessagesPanelPaginationQuery.graphql.ts";

/** How the Sent mail page names each delivery status (api/mail: HELD = kept without SMTP_URL). */
export const MAIL_STATUS: Record<MailStatus, { label: string; palette: string }> = {
  QUEUED: { label: "Queued", palette: "blue" },
  SENT: { label: "Sent", palette: "green" },
  FAILED: { label: "Failed", palette: "red" },
  HELD: { label: "Held (no SMTP)", palette: "gray" },
  "%future added value": { label: "Unknown", palette: "gray" },
};

const dateTime = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });

/** "Mar 5, 2026, 3:04 PM" for an ISO date-time. */
export const mailTime = (iso: string) => dateTime.format(new Date(iso));
