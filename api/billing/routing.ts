/**
 * Every charge path (checkout, restart, renewals, a next-month sign-up's first charge) routes its charge the same
 * way: api/payouts decides where a business's charge of a period goes and what the platform keeps; this turns that
 * into the provider's destination charge and the metadata the ledger is written from, or refuses the charge when
 * the business cannot take payments (never holding its money on the platform's account).
 */
import type { Prisma } from "../generated/prisma/client.ts";
import { feeMetadata, routingFor, type ChargeRouting } from "../payouts/accounts.ts";
import { RuleViolationError } from "../shared/errors.ts";
import type { ChargeRoute } from "./providers/provider.ts";

/** The refusal of a charge at a business whose payouts are not set up (or restricted for the month). */
export function paymentsNotReady(businessName: string): RuleViolationError {
  return new RuleViolationError(`${businessName} isn't taking new members yet.`, "payments_not_ready");
}

/** The routing of a charge the member is about to make, refused when the business cannot take it. */
export async function requireRouting(db: Prisma.TransactionClient, business: { id: number; name: string }, period: string, grossCents: number): Promise<ChargeRouting> {
  const routing = await routingFor(db, business.id, period, grossCents);
  if (routing.kind === "NOT_READY") throw paymentsNotReady(business.name);
  return routing;
}

/** What a routed charge adds to its provider request: the destination and fee, and both fees in its metadata. */
export function routedRequest(routing: ChargeRouting, metadata: Record<string, string>): { route?: ChargeRoute; metadata: Record<string, string> } {
  if (routing.kind !== "CONNECTED") return { metadata };
  return {
    route: { destination: routing.destination, applicationFeeCents: routing.fees.applicationFeeCents, descriptorSuffix: routing.descriptorSuffix },
    metadata: { ...metadata, ...feeMetadata(routing.fees) },
  };
}
