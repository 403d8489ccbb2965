import { addressLines } from "@shared/address.ts";
import { MODE_LABELS, type FulfillmentModeName } from "@shared/fulfillment.ts";
import { monthYear } from "../../lib/dates.ts";
import type { SelectionAddress } from "../../lib/selection.ts";
import type { AddressFieldErrors } from "../../ui/AddressFields.tsx";

/**
 * Where a membership's boxes go. Its card shows and changes the delivery address of a current shipping or
 * delivery membership; a Profile address change offers to send the boxes of the ones the member ticks there too.
 */

/** Whether a membership's card has a "Delivery address": a current (active or past due) shipping or delivery one. */
export function showsDeliveryAddress(status: string, mode: string): boolean {
  return (status === "ACTIVE" || status === "PAST_DUE") && (mode === "SHIPPING" || mode === "DELIVERY");
}

/** The card's confirmation once the address is changed: from the month the server says ("YYYY-MM"). */
export function appliesFromMessage(appliesFrom: string): string {
  return `Your boxes go to the new address from ${monthYear(appliesFrom)}.`;
}

const ADDRESS_PARTS = ["fullName", "phone", "street", "apt", "city", "state", "zip", "country", "instructions"] as const;

/**
 * The server's refusal (ValidationError issues, paths such as "address.street" or "fulfillmentPoint") by field of
 * the dialog: the address parts, and the delivery area.
 */
export function issuesByField(issues: readonly { path: string; message: string }[]): { fields: AddressFieldErrors; area: string | null } {
  const fields: AddressFieldErrors = {};
  let area: string | null = null;
  for (const issue of issues) {
    const key = issue.path.replace(/^(input\.)?address\./, "");
    if (issue.path.endsWith("fulfillmentPoint")) area ??= issue.message;
    else if ((ADDRESS_PARTS as readonly string[]).includes(key)) fields[key as (typeof ADDRESS_PARTS)[number]] ??= issue.message;
  }
  return { fields, area };
}

/** The parts of an address the Profile form edits, compared as a person reads them (surrounding spaces aside). */
const PROFILE_PARTS = ["fullName", "street", "apt", "city", "state", "zip", "country"] as const;

/** Whether the Profile form's address differs from the saved one (what makes "Also send my boxes here?" worth asking). */
export function addressChanged(saved: SelectionAddress | null, edited: SelectionAddress): boolean {
  return PROFILE_PARTS.some((k) => (saved?.[k] ?? "").trim() !== (edited[k] ?? "").trim());
}

/** How the prompt and the status line name a membership: "Ember & Oak Coffee · Whole Bean Box · Shipping". */
export function membershipLabel(businessName: string, planName: string, mode: FulfillmentModeName): string {
  return [businessName, planName, MODE_LABELS[mode] ?? mode].join(" · ");
}

/** The first lines of where a membership's boxes go now ("Maya Patel, 215 Maple Ave, Akron, OH 44303"). */
export function addressSummary(address: SelectionAddress | null): string {
  const lines = addressLines(address).slice(0, 3);
  return lines.length ? lines.join(", ") : "No address on file";
}

/** The Profile's status line after a save: which memberships' boxes now go to the new address, if any. */
export function profileSavedText(moved: readonly string[]): string {
  if (moved.length === 0) return "Profile saved.";
  return `Profile saved. Boxes now going to the new address: ${moved.join("; ")}.`;
}
