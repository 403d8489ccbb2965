import { openSession } from "../../api/auth/sessions.ts";
import { hashToken, newToken, PARTNER_TOKEN_PREFIX } from "../../api/auth/tokens.ts";
import type { BusinessRole, CouponType, FulfillmentMode, OrderKind, Prisma, SubscriptionStatus } from "../../api/generated/prisma/client.ts";
import type { TestApp } from "./app.ts";

/** Small row builders for integration tests: data straight into the database, sessions without passwords. */
export function factories(t: TestApp) {
  const db = t.db.prisma;
  let seq = 0;
  const next = () => ++seq;

  return {
    db,

    async user(o: { username?: string; isAdmin?: boolean; name?: string; email?: string } = {}) {
      const n = next();
      return db.user.create({
        data: {
          username: o.username ?? `user${n}`,
          passwordHash: "not-a-real-hash",
          isAdmin: o.isAdmin ?? false,
          name: o.name ?? null,
          email: o.email ?? null,
        },
      });
    },

    /** A bearer session token; `tenant` binds it to a business slug like a tenant login does. */
    async session(user: { id: number }, tenant: string | null = null) {
      const { token } = await openSession({ db, clock: t.clock, config: t.config }, user.id, { tenantSlug: tenant });
      return token;
    },

    /** A read-only partner API token of a business. */
    /** `scopes` left out: the column's default, what a token from before scopes was given (memberships and orders). */
    async partnerToken(business: { id: number }, createdBy: { id: number }, scopes?: string[]) {
      const token = newToken(PARTNER_TOKEN_PREFIX);
      await db.apiToken.create({
        data: { name: "partner", tokenHash: hashToken(token), prefix: token.slice(0, 8), businessId: business.id, createdById: createdBy.id, ...(scopes ? { scopes } : {}) },
      });
      return token;
    },

    /**
     * A business. `payouts`: "connected" (default) takes charges into its own enabled account from any month;
     * "legacy" collects on the platform's account as before payouts; "none" has no account (new, not taking members).
     */
    async business(o: { slug?: string; name?: string; timeZone?: string; page?: Prisma.PageCreateWithoutBusinessInput; payouts?: "connected" | "legacy" | "none" } = {}) {
      const n = next();
      const slug = o.slug ?? `biz-${n}`;
      const payouts = o.payouts ?? "connected";
      const provider = t.config.paymentProvider;
      const accountId = `acct_${provider === "sandbox" ? "sbx_" : ""}test${n}_${slug}`;
      const business = await db.business.create({
        data: {
          slug,
          name: o.name ?? `Business ${n}`,
          timeZone: o.timeZone ?? "America/New_York",
          collectsOnPlatform: payouts === "legacy",
          connectFromPeriod: payouts === "connected" ? "2000-01" : null,
          ...(payouts === "connected"
            ? { paymentAccount: { create: { provider, accountId, status: "ENABLED", chargesEnabled: true, payoutsEnabled: true } } }
            : {}),
          ...(o.page ? { page: { create: { brandName: o.name ?? slug, ...o.page } } } : {}),
        },
      });
      if (payouts === "connected" && provider === "sandbox") {
        // The sandbox's own record of the account (what retrieveAccount reads), onboarded.
        const data = { businessId: business.id, name: business.name, email: null, detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true, requirementsDue: [] };
        await db.sandboxObject.create({ data: { id: accountId, kind: "account", data } });
      }
      return business;
    },

    async attach(business: { id: number }, user: { id: number }, role: BusinessRole) {
      return db.businessUser.create({ data: { businessId: business.id, userId: user.id, role } });
    },

    async plan(business: { id: number }, o: { name?: string; prices?: Partial<Record<FulfillmentMode, number>>; listed?: boolean; archived?: boolean } = {}) {
      const n = next();
      const prices = o.prices ?? { PICKUP: 3000 };
      return db.plan.create({
        data: {
          businessId: business.id,
          ref: `item_${n}`,
          name: o.name ?? `Plan ${n}`,
          listed: o.listed ?? true,
          archivedAt: o.archived ? new Date("2026-01-01T00:00:00Z") : null,
          variations: { create: Object.entries(prices).map(([mode, amountCents]) => ({ mode: mode as FulfillmentMode, amountCents: amountCents })) },
        },
      });
    },

    async addon(business: { id: number }, o: { name?: string; amountCents?: number; listed?: boolean } = {}) {
      const n = next();
      return db.addon.create({
        data: { businessId: business.id, ref: `addon_${n}`, name: o.name ?? `Addon ${n}`, amountCents: o.amountCents ?? 500, listed: o.listed ?? true },
      });
    },

    async subscription(o: {
      user: { id: number };
      business: { id: number };
      plan: { id: number };
      status?: SubscriptionStatus;
      mode?: FulfillmentMode;
      planAmountCents?: number;
      addons?: { id: number; amountCents: number }[];
      totalCents?: number;
      startedAt?: string;
      canceledAt?: string | null;
      paidThroughPeriod?: string | null;
      providerSubscriptionId?: string | null;
      email?: string;
    }) {
      const planAmountCents = o.planAmountCents ?? 3000;
      const addonsAmountCents = (o.addons ?? []).reduce((s, a) => s + a.amountCents, 0);
      return db.subscription.create({
        data: {
          userId: o.user.id,
          businessId: o.business.id,
          planId: o.plan.id,
          status: o.status ?? "ACTIVE",
          mode: o.mode ?? "PICKUP",
          planAmountCents,
          addonsAmountCents,
          totalCents: o.totalCents ?? planAmountCents + addonsAmountCents,
          startedAt: new Date(o.startedAt ?? "2026-01-10T15:00:00Z"),
          canceledAt: o.canceledAt ? new Date(o.canceledAt) : null,
          paidThroughPeriod: o.paidThroughPeriod === undefined ? "2026-03" : o.paidThroughPeriod,
          providerSubscriptionId: o.providerSubscriptionId ?? null,
          email: o.email ?? null,
          addons: { create: (o.addons ?? []).map((a) => ({ addonId: a.id, amountCents: a.amountCents })) },
        },
      });
    },

    async order(o: {
      subscription: { id: number; userId: number; businessId: number; mode: FulfillmentMode };
      period: string;
      totalCents: number;
      refundedCents?: number;
      kind?: OrderKind;
      createdAt?: string;
      selection?: Prisma.InputJsonValue;
    }) {
      return db.order.create({
        data: {
          subscriptionId: o.subscription.id,
          userId: o.subscription.userId,
          businessId: o.subscription.businessId,
          kind: o.kind ?? "RENEWAL",
          period: o.period,
          mode: o.subscription.mode,
          selection: o.selection ?? { chosenItemName: "Plan", chosenVariationName: "Pickup", mode: "pickup", chosenAddons: [] },
          subtotalCents: o.totalCents,
          totalCents: o.totalCents,
          refundedCents: o.refundedCents ?? 0,
          createdAt: o.createdAt ? new Date(o.createdAt) : undefined,
        },
      });
    },

    async coupon(o: { code: string; type?: CouponType; value?: number; active?: boolean }) {
      return db.coupon.create({ data: { code: o.code, type: o.type ?? "PERCENT", value: o.value ?? 10, active: o.active ?? true } });
    },
  };
}

export type Factories = ReturnType<typeof factories>;
