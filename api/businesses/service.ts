import type { ServiceContext } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { NotFoundError } from "../shared/errors.ts";

/** Public business list: every business is listed (spec §2 /businesses). */
export function publicBusinessesWhere(): Prisma.BusinessWhereInput {
  return {};
}

/** Members counted on business cards: active (and past-due, still members) subscriptions. */
export const MEMBER_STATUSES = ["ACTIVE", "PAST_DUE"] as const;

export async function businessBySlug(ctx: ServiceContext, slug: string) {
  const business = await ctx.db.business.findUnique({ where: { slug: slug.toLowerCase() } });
  if (!business) throw new NotFoundError("Business");
  return business;
}
