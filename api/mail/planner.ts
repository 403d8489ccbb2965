/**
 * What to send for an outbox event: which template, to whom, with which words. Planning reads the current rows
 * in the dispatcher's transaction; a message is keyed by (event, template, recipient) so a re-read event plans
 * nothing new (./store.ts inserts with ON CONFLICT DO NOTHING).
 *
 * Events that tell a member nothing new get no message: order.created (the receipt comes with the membership
 * event of the same transaction), payment.failed (the past-due or canceled event beside it says more), and the
 * business-side events, except two the business's owners must hear about from the platform: a payout account
 * that needs them (payout_account.updated), new platform fees (platform_fee.scheduled) and a payout's outcome
 * (payout.paid, payout.failed); see ownerMessages.
 * A renewal decline sends "payment failed" with the retry date; the decline before the last attempt sends the
 * final notice instead; the last decline cancels the membership and sends that notice.
 *
 * Receipts (welcome, renewal, a charged restart) show the ORDER the event names, line by line from its stored
 * amounts (billing/breakdown.ts itemiseOrder), never today's catalogue; each is stored with its order's id
 * (mail_messages.order_id: the member's "View receipt").
 */
import type { Config } from "../config.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { StoredEvent } from "../events/outbox.ts";
import type { EventPayloads } from "../events/vocabulary.ts";
import { itemiseMembership, itemiseOrder, membershipPriceSelect } from "../billing/breakdown.ts";
import { MAX_ATTEMPTS, nextRetryAt, unpaidAttempts } from "../billing/renewals/attempts.ts";
import { addMonths, isoDate, localDate, parseYearMonth, yearMonthOf } from "../shared/calendar.ts";
import { MODE_NAMES, type FulfillmentModeCode } from "../shared/fulfillment.ts";
import { resumeDate } from "../rules/dates.ts";
import { memberAddress } from "../rules/member.ts";
import { addressAppliesFrom } from "../subscriptions/address.ts";
import { addressLines } from "../shared/address.ts";
import { businessMailSelect, businessSender, payoutsUrl, platformSender, type MailBusiness, type Sender } from "./brand.ts";
import type { Letter } from "./layout.ts";
import { letters, type Contact, type ReceiptOrder, type TemplateName } from "./templates.ts";

type Db = Prisma.TransactionClient;

/** One message to store: rendered later, once, by the store. */
export interface PlannedMessage {
  dedupeKey: string;
  template: TemplateName;
  sender: Sender;
  recipientUserId: number | null;
  /** "" when the recipient has no email address: stored as failed, so the Sent mail page shows it. */
  toAddress: string;
  letter: Letter;
  eventSequence: number | null;
  /** The order a receipt is for (stored as mail_messages.order_id); null for every other message. */
  orderId: number | null;
}

const membershipSelect = {
  id: true,
  userId: true,
  billingDay: true,
  email: true,
  totalCents: true,
  paidThroughPeriod: true,
  paymentProvider: true,
  providerPaymentMethodId: true,
  user: { select: { email: true } },
  business: { select: businessMailSelect },
} as const satisfies Prisma.SubscriptionSelect;

type Membership = Prisma.SubscriptionGetPayload<{ select: typeof membershipSelect }>;

/** "Veg Box, pickup": a plan and how the box travels, as messages name a box. */
export const boxLabel = (planName: string, mode: string) => `${planName}, ${(MODE_NAMES[mode as FulfillmentModeCode] ?? mode).toLowerCase()}`;

const nextCharge = (m: Membership, period: string) => isoDate(resumeDate(period, m.billingDay));

function forMember(config: Config, m: Membership, event: StoredEvent, template: TemplateName, letter: (s: Sender) => Letter, orderId: number | null = null): PlannedMessage {
  const sender = businessSender(config, m.business);
  return {
    dedupeKey: `event:${event.sequence}:${template}:${m.userId}`,
    template,
    sender,
    recipientUserId: m.userId,
    toAddress: memberAddress(m),
    letter: letter(sender),
    eventSequence: event.sequence,
    orderId,
  };
}

const orderReceiptSelect = {
  id: true,
  subscriptionId: true,
  kind: true,
  createdAt: true,
  mode: true,
  selection: true,
  subtotalCents: true,
  modeSurchargeCents: true,
  couponCode: true,
  discountCents: true,
  taxRateBps: true,
  taxCents: true,
  totalCents: true,
} as const satisfies Prisma.OrderSelect;

/**
 * The card that paid, as a receipt names it ("VISA ending in 4242"): the saved card the membership charges, else
 * the member's default card at the membership's provider; null when neither is on file.
 */
async function paidWith(db: Db, m: Membership): Promise<string | null> {
  const card =
    (m.providerPaymentMethodId
      ? await db.paymentMethod.findFirst({ where: { providerPaymentMethodId: m.providerPaymentMethodId, userId: m.userId }, select: { brand: true, last4: true } })
      : null) ??
    (await db.paymentMethod.findFirst({
      where: { userId: m.userId, provider: m.paymentProvider, isDefault: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { brand: true, last4: true },
    }));
  return card ? `${card.brand.toUpperCase()} ending in ${card.last4}` : null;
}

/**
 * The order an event paid, as its receipt shows it, with its kind (a membership's first charge or a renewal);
 * null when the event names none (or not this membership's).
 */
async function receiptOrder(db: Db, m: Membership, orderId: number | null): Promise<(ReceiptOrder & { first: boolean }) | null> {
  if (orderId === null) return null;
  const order = await db.order.findUnique({ where: { id: orderId }, select: orderReceiptSelect });
  if (!order || order.subscriptionId !== m.id) return null;
  return {
    number: order.id,
    date: isoDate(localDate(order.createdAt, m.business.timeZone)),
    card: await paidWith(db, m),
    price: itemiseOrder(order),
    first: order.kind === "INITIAL",
  };
}

/** How the member reaches the business from a receipt: a reply (when it has a reply-to) and its support phone. */
const contactOf = (s: Sender): Contact => ({ replyTo: s.replyTo !== null, phone: s.supportPhone });

/** When the next attempt of a declined period comes (the retry schedule), from its attempts so far. */
async function retryDate(db: Db, m: Membership, period: string): Promise<string> {
  const attempts = (await unpaidAttempts(db, [{ id: m.id, period }])).get(m.id);
  const at = attempts ? nextRetryAt(attempts) : new Date();
  return isoDate(localDate(at, m.business.timeZone));
}

/** The month a membership's scheduled change takes effect (after skips were added or taken back), if it has one. */
const scheduledChangeFrom = async (db: Db, membershipId: number) =>
  (await db.subscriptionChange.findUnique({ where: { subscriptionId: membershipId }, select: { effectivePeriod: true } }))?.effectivePeriod ?? null;

type Handler = (db: Db, config: Config, event: StoredEvent) => Promise<PlannedMessage[]>;

function onMembership<T extends keyof EventPayloads>(
  plan: (args: { db: Db; config: Config; event: StoredEvent; m: Membership; p: EventPayloads[T] }) => Promise<PlannedMessage[]> | PlannedMessage[],
): Handler {
  return async (db, config, event) => {
    const p = event.payload as unknown as EventPayloads[T] & { membershipId: number };
    const m = await db.subscription.findUnique({ where: { id: p.membershipId }, select: membershipSelect });
    return m ? plan({ db, config, event, m, p }) : [];
  };
}

const handlers: Partial<Record<keyof EventPayloads, Handler>> = {
  "membership.started.v1": onMembership<"membership.started.v1">(async ({ db, config, event, m, p }) => {
    const order = await receiptOrder(db, m, p.orderId);
    return [
      forMember(
        config, m, event, "welcome",
        (s) => letters.welcome({ brand: s.brand.name, period: p.period, order, totalCents: order?.price.totalCents ?? p.totalCents, nextChargeDate: nextCharge(m, p.period), contact: contactOf(s), links: s.links }),
        order?.number ?? null,
      ),
    ];
  }),
  "membership.signed_up.v1": onMembership<"membership.signed_up.v1">(async ({ db, config, event, m, p }) => {
    const priced = await db.subscription.findUniqueOrThrow({ where: { id: m.id }, select: membershipPriceSelect });
    // The first charge: the billing day of the first month (the month before it is "paid through": nothing owed).
    const chargeDate = nextCharge(m, yearMonthOf(addMonths(parseYearMonth(p.firstPeriod), -1)));
    return [
      forMember(config, m, event, "signup_welcome", (s) =>
        letters.signup_welcome({ brand: s.brand.name, firstPeriod: p.firstPeriod, chargeDate, price: itemiseMembership(priced), links: s.links }),
      ),
    ];
  }),
  "membership.renewed.v1": onMembership<"membership.renewed.v1">(async ({ db, config, event, m, p }) => {
    const order = await receiptOrder(db, m, p.orderId);
    const first = order?.first ?? false;
    return [
      forMember(
        config, m, event, "renewal_receipt",
        (s) => letters.renewal_receipt({ first, brand: s.brand.name, period: p.period, order, totalCents: order?.price.totalCents ?? p.totalCents, nextChargeDate: nextCharge(m, p.period), contact: contactOf(s), links: s.links }),
        order?.number ?? null,
      ),
    ];
  }),
  // orderId is null when the restart was free (the period was already paid): no receipt then.
  "membership.restarted.v1": onMembership<"membership.restarted.v1">(async ({ db, config, event, m, p }) => {
    const order = await receiptOrder(db, m, p.orderId);
    return [
      forMember(
        config, m, event, "restarted",
        (s) => letters.restarted({ brand: s.brand.name, period: p.period, order, totalCents: order?.price.totalCents ?? p.chargedCents, nextChargeDate: nextCharge(m, p.period), contact: contactOf(s), links: s.links }),
        order?.number ?? null,
      ),
    ];
  }),
  "membership.skipped.v1": onMembership<"membership.skipped.v1">(({ config, event, m, p }) => [
    forMember(config, m, event, "skipped", (s) => letters.skipped({ brand: s.brand.name, month: p.month, resumeDate: p.resumeDate, links: s.links })),
  ]),
  "membership.paused.v1": onMembership<"membership.paused.v1">(async ({ db, config, event, m, p }) => {
    const changeFrom = await scheduledChangeFrom(db, m.id);
    return [forMember(config, m, event, "paused", (s) => letters.paused({ brand: s.brand.name, fromMonth: p.fromMonth, throughMonth: p.throughMonth, resumeDate: p.resumeDate, changeFrom, links: s.links }))];
  }),
  "membership.unskipped.v1": onMembership<"membership.unskipped.v1">(async ({ db, config, event, m, p }) => {
    const changeFrom = await scheduledChangeFrom(db, m.id);
    return [forMember(config, m, event, "unskipped", (s) => letters.unskipped({ brand: s.brand.name, months: p.months, changeFrom, links: s.links }))];
  }),
  "membership.changed.v1": onMembership<"membership.changed.v1">(async ({ db, config, event, m, p }) => {
    const plan = await db.plan.findUnique({ where: { id: p.planId }, select: { name: true } });
    const addons = p.addonIds.length ? await db.addon.findMany({ where: { id: { in: p.addonIds } }, select: { name: true }, orderBy: { id: "asc" } }) : [];
    const box = [boxLabel(plan?.name ?? "Your box", p.mode), ...addons.map((a) => `with ${a.name}`)].join(", ");
    return [
      forMember(config, m, event, "changed", (s) =>
        letters.changed({ brand: s.brand.name, box, effectivePeriod: p.effectivePeriod, totalCents: p.totalCents ?? null, links: s.links }),
      ),
    ];
  }),
  "membership.address_changed.v1": onMembership<"membership.address_changed.v1">(async ({ db, config, event, m }) => {
    const sub = await db.subscription.findUniqueOrThrow({
      where: { id: m.id },
      select: { id: true, businessId: true, mode: true, address: true, fulfillmentPoint: true, plan: { select: { name: true } }, business: { select: { timeZone: true, page: { select: { billingDay: true, cutoffDay: true, boxReadyDay: true } } } } },
    });
    // The month as of the change (the event's time), as the member was told in the portal.
    const appliesFrom = await addressAppliesFrom(db, event.createdAt, sub);
    return [
      forMember(config, m, event, "address_changed", (s) =>
        letters.address_changed({
          brand: s.brand.name,
          box: boxLabel(sub.plan.name, sub.mode),
          address: addressLines(sub.address),
          area: sub.mode === "DELIVERY" && sub.fulfillmentPoint ? sub.fulfillmentPoint : null,
          appliesFrom,
          links: s.links,
        }),
      ),
    ];
  }),
  "membership.canceled.v1": onMembership<"membership.canceled.v1">(({ config, event, m, p }) => [
    p.reason === "payment_failed"
      ? forMember(config, m, event, "canceled_nonpayment", (s) => letters.canceled_nonpayment({ brand: s.brand.name, links: s.links }))
      : p.reason === "member"
        ? forMember(config, m, event, "canceled", (s) => letters.canceled_by_member({ brand: s.brand.name, lastPeriod: m.paidThroughPeriod, links: s.links }))
        : forMember(config, m, event, "canceled", (s) => letters.canceled({ brand: s.brand.name, links: s.links })),
  ]),
  "membership.cancel_scheduled.v1": onMembership<"membership.cancel_scheduled.v1">(({ config, event, m, p }) => [
    forMember(config, m, event, "cancel_scheduled", (s) => letters.cancel_scheduled({ brand: s.brand.name, afterPeriod: p.afterPeriod, endsOn: nextCharge(m, p.afterPeriod), links: s.links })),
  ]),
  "membership.past_due.v1": onMembership<"membership.past_due.v1">(async ({ db, config, event, m, p }) => {
    const retry = await retryDate(db, m, p.period);
    const final = p.attempt >= MAX_ATTEMPTS - 1;
    const args = { amountCents: m.totalCents, period: p.period, retryDate: retry };
    return [
      final
        ? forMember(config, m, event, "final_notice", (s) => letters.final_notice({ brand: s.brand.name, ...args, links: s.links }))
        : forMember(config, m, event, "payment_failed", (s) => letters.payment_failed({ brand: s.brand.name, ...args, links: s.links })),
    ];
  }),
  "card.updated.v1": async (db, config, event) => {
    const p = event.payload as unknown as EventPayloads["card.updated.v1"];
    // A member's first card (saved at their first checkout) is no change to confirm: the welcome says enough.
    if ((await db.paymentMethod.count({ where: { userId: p.userId } })) <= 1) return [];
    const card = `${p.brand.toUpperCase()} ending in ${p.last4}`;
    return accountMessage(db, config, event, p.userId, "card_updated", (s) => letters.card_updated({ brand: s.brand.name, card, links: s.links }));
  },
  // Payouts need the owners when the provider holds charges or payouts back, or wants something; an account that
  // is enabled with nothing due says nothing.
  "payout_account.updated.v1": async (db, config, event) => {
    const p = event.payload as unknown as EventPayloads["payout_account.updated.v1"];
    // An owner still filling in onboarding (ONBOARDING) is told nothing: the provider reports every step of it.
    if (p.status === "ONBOARDING" || (p.status === "ENABLED" && p.requirementsDue.length === 0)) return [];
    return ownerMessages(db, config, event, "payout_account_attention", { id: p.businessId }, (b, business) =>
      letters.payout_account_attention({
        business,
        status: p.status,
        chargesEnabled: p.chargesEnabled,
        payoutsEnabled: p.payoutsEnabled,
        requirementsDue: p.requirementsDue,
        payoutsUrl: payoutsUrl(config, b.id),
      }),
    );
  },
  // A business's own schedule: its owners. The platform's default: the owners of every business it applies to from
  // that month, those without a schedule of their own begun by then (api/payouts/fees.ts ratesFor).
  "platform_fee.scheduled.v1": async (db, config, event) => {
    const p = event.payload as unknown as EventPayloads["platform_fee.scheduled.v1"];
    const where: Prisma.BusinessWhereInput = p.businessId === null ? { feeSchedules: { none: { effectivePeriod: { lte: p.effectivePeriod } } } } : { id: p.businessId };
    return ownerMessages(db, config, event, "platform_fee_changed", where, (b, business) =>
      letters.platform_fee_changed({ business, effectivePeriod: p.effectivePeriod, rates: p.rates, payoutsUrl: payoutsUrl(config, b.id) }),
    );
  },
  // A payout's outcome, to the owners: the statement behind a payout that arrived, the bank details of one that failed.
  "payout.paid.v1": async (db, config, event) => {
    const p = event.payload as unknown as EventPayloads["payout.paid.v1"];
    return ownerMessages(db, config, event, "payout_sent", { id: p.businessId }, (b, business) =>
      letters.payout_sent({ business, amountCents: p.amountCents, arrivalDate: p.arrivalDate, statementUrl: `${payoutsUrl(config, b.id)}?month=${p.arrivalDate.slice(0, 7)}` }),
    );
  },
  "payout.failed.v1": async (db, config, event) => {
    const p = event.payload as unknown as EventPayloads["payout.failed.v1"];
    const payout = await db.payout.findUnique({ where: { id: p.payoutId }, select: { failureMessage: true } });
    return ownerMessages(db, config, event, "payout_failed", { id: p.businessId }, (b, business) =>
      letters.payout_failed({ business, amountCents: p.amountCents, failureCode: p.failureCode, failureMessage: payout?.failureMessage ?? null, payoutsUrl: payoutsUrl(config, b.id) }),
    );
  },
  "user.password_changed.v1": async (db, config, event) => {
    const p = event.payload as unknown as EventPayloads["user.password_changed.v1"];
    const user = await db.user.findUnique({ where: { id: p.userId }, select: { username: true } });
    if (!user) return [];
    return accountMessage(db, config, event, p.userId, "password_changed", (s) => letters.password_changed({ brand: s.brand.name, username: user.username, links: s.links }));
  },
};

/**
 * An account message (card, password; every template planned here): drawn as the business of the member's most
 * recent membership when there is one (that is whom they know), else as the platform. It is the member's own
 * mail, not the business's: it is stored with no business (mail_messages.business_id NULL), so only
 * administrators read it on Sent mail and no business owner reads or resends it. This is the one place that decides it.
 */
async function accountMessage(db: Db, config: Config, event: StoredEvent, userId: number, template: TemplateName, letter: (s: Sender) => Letter): Promise<PlannedMessage[]> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { email: true, subscriptions: { orderBy: { startedAt: "desc" }, take: 1, select: { email: true, business: { select: businessMailSelect } } } },
  });
  if (!user) return [];
  const latest = user.subscriptions[0];
  const drawnAs = latest ? businessSender(config, latest.business) : await platformSender(db, config);
  const sender: Sender = { ...drawnAs, businessId: null };
  return [
    {
      dedupeKey: `event:${event.sequence}:${template}:${userId}`,
      template,
      sender,
      recipientUserId: userId,
      toAddress: user.email?.trim() || latest?.email?.trim() || "",
      letter: letter(sender),
      eventSequence: event.sequence,
      orderId: null,
    },
  ];
}

/**
 * A message from the platform to each owner (with an email address) of the businesses `where` selects: drawn as the
 * platform (the home page's brand, no reply-to), stored as the business's mail so its owners find it on Sent mail.
 * An owner of several businesses gets one per business: the key names the business and the owner.
 */
async function ownerMessages(
  db: Db,
  config: Config,
  event: StoredEvent,
  template: TemplateName,
  where: Prisma.BusinessWhereInput,
  letter: (b: MailBusiness, business: string) => Letter,
): Promise<PlannedMessage[]> {
  const owners = await db.businessUser.findMany({
    where: { role: "OWNER", business: where, user: { email: { not: null } } },
    select: { userId: true, user: { select: { email: true } }, business: { select: businessMailSelect } },
    orderBy: [{ businessId: "asc" }, { userId: "asc" }],
  });
  const reachable = owners.filter((o) => o.user.email?.trim());
  if (reachable.length === 0) return [];
  const platform = await platformSender(db, config);
  return reachable.map((o) => {
    const sender: Sender = { ...platform, businessId: o.business.id, replyTo: null };
    return {
      dedupeKey: `event:${event.sequence}:${template}:${o.business.id}:${o.userId}`,
      template,
      sender,
      recipientUserId: o.userId,
      toAddress: o.user.email?.trim() ?? "",
      letter: letter(o.business, businessSender(config, o.business).brand.name),
      eventSequence: event.sequence,
      orderId: null,
    };
  });
}

/** The messages an event asks for (none for most). */
export async function planForEvent(db: Db, config: Config, event: StoredEvent): Promise<PlannedMessage[]> {
  const handler = handlers[event.type];
  return handler ? handler(db, config, event) : [];
}
