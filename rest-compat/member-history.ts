/** Spec §7 member history: the order history and the skipped months (the X-Tenant business only when one is named). */
import { z } from "zod";
import type { Prisma } from "../api/generated/prisma/client.ts";
import * as reads from "../api/subscriptions/member-reads.ts";
import type { Router } from "./router.ts";
import { orderJson, orderSelect, OrderShape } from "./rows.ts";

const skipSelect = { yearMonth: true, subscription: { select: { business: { select: { slug: true } } } } } as const satisfies Prisma.SkipSelect;

export function memberHistoryRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/my/orders",
    tag: "member",
    summary: "The member's order history, newest first (the X-Tenant business only when one is named)",
    access: "member",
    response: z.object({ orders: z.array(OrderShape) }),
    handler: async (ctx) => {
      const rows = await reads.orders<Prisma.OrderGetPayload<{ select: typeof orderSelect }>>(ctx, {}, { select: orderSelect });
      return { orders: rows.map(orderJson) };
    },
  });

  r.add({
    method: "GET",
    path: "/my/skips",
    tag: "member",
    summary: "Months the member skipped",
    access: "member",
    response: z.object({ items: z.array(z.object({ business_slug: z.string(), year_month: z.string().describe("YYYY-MM") })) }),
    handler: async (ctx) => {
      const rows = await reads.skips<Prisma.SkipGetPayload<{ select: typeof skipSelect }>>(ctx, {}, { select: skipSelect });
      return { items: rows.map((s) => ({ business_slug: s.subscription.business.slug, year_month: s.yearMonth })) };
    },
  });
}
