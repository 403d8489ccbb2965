/**
 * The authorization matrix (spec §6 and api/auth/policy.ts): every role against every query and mutation that
 * touches business A, including the same roles of business B (cross-tenant), a member of B, and a partner API
 * token of A. Each cell asserts allowed or refused, so a widened permission fails as loudly as a narrowed one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

/**
 * Partner tokens of A: `partnerA` is a token from before scopes (memberships:read and orders:read, the
 * backfill); the others hold one scope each.
 */
type PartnerName = "partnerA" | "partnerMembershipsA" | "partnerOrdersA" | "partnerFulfilmentA";
type ActorName = "anonymous" | "memberA" | "memberB" | "viewerA" | "editorA" | "ownerA" | "ownerB" | "admin" | PartnerName;
const PARTNER_SCOPES: Record<Exclude<PartnerName, "partnerA">, string[]> = {
  partnerMembershipsA: ["memberships:read"],
  partnerOrdersA: ["orders:read"],
  partnerFulfilmentA: ["fulfilment:read"],
};
const ACTORS: ActorName[] = [
  "anonymous", "memberA", "memberB", "viewerA", "editorA", "ownerA", "ownerB", "admin", "partnerA", "partnerMembershipsA", "partnerOrdersA", "partnerFulfilmentA",
];
const USERS: ActorName[] = ["memberA", "memberB", "viewerA", "editorA", "ownerA", "ownerB", "admin"];
const STAFF_A: ActorName[] = ["viewerA", "editorA", "ownerA", "admin"];
const READ_MEMBERS_A: ActorName[] = [...STAFF_A, "partnerA", "partnerMembershipsA"];
const READ_ORDERS_A: ActorName[] = [...STAFF_A, "partnerA", "partnerOrdersA"];
const EDIT_A: ActorName[] = ["editorA", "ownerA", "admin"];
const MANAGE_A: ActorName[] = ["ownerA", "admin"];
const ADMIN: ActorName[] = ["admin"];
const EVERYONE: ActorName[] = ACTORS;

let t: TestApp;
let f: Factories;
const tokens = {} as Record<ActorName, string | null>;
const sessionTenant: Partial<Record<ActorName, string>> = { memberA: "alpha", memberB: "beta" };
let ids: {
  alpha: number;
  beta: number;
  planA: number;
  planARef: string;
  addonA: number;
  memberAId: number;
  memberAGlobal: string;
  membershipA: number;
  orderA: number;
};
let seq = 0;

const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");

/** Sends as an actor; the tenant header is the actor's own tenant unless the operation names one. */
function as(actor: ActorName, query: string, variables: Record<string, unknown> = {}, tenant?: string) {
  return t.gql(query, variables, { token: tokens[actor], tenant: tenant ?? sessionTenant[actor] ?? null });
}

const REFUSALS = new Set(["UnauthenticatedError", "ForbiddenError", "NotFoundError"]);
const AUTH_MESSAGES = /log in|permission|not found|belongs to another business|read-only|lacks the [a-z]+:[a-z]+ scope/i;

/** A mutation result: Success → allowed; an auth refusal → refused; anything else is a broken test. */
async function mutation(actor: ActorName, field: string, query: string, variables: Record<string, unknown>, tenant?: string) {
  const res = await as(actor, query, variables, tenant);
  if (res.errors?.length) throw new Error(`${field} as ${actor}: ${JSON.stringify(res.errors)}`);
  const typename: string = res.data[field].__typename;
  if (typename.endsWith("Success")) return true;
  if (REFUSALS.has(typename)) return false;
  throw new Error(`${field} as ${actor} returned ${typename}: ${res.data[field].message}`);
}

/** A query: data → allowed; an auth error or null → refused. */
async function query(actor: ActorName, q: string, pick: (data: any) => unknown, variables: Record<string, unknown> = {}) {
  const res = await as(actor, q, variables);
  if (res.errors?.length) {
    if (res.errors.every((e) => AUTH_MESSAGES.test(e.message))) return false;
    throw new Error(`query as ${actor}: ${JSON.stringify(res.errors)}`);
  }
  const value = pick(res.data);
  return value !== null && value !== undefined && value !== false;
}

async function freshMembershipOfMemberA(status: "ACTIVE" | "CANCELED") {
  // One open membership per member and business: close the previous ones first.
  await f.db.subscription.updateMany({ where: { userId: ids.memberAId, businessId: ids.alpha, status: { not: "CANCELED" } }, data: { status: "CANCELED" } });
  return f.subscription({
    user: { id: ids.memberAId },
    business: { id: ids.alpha },
    plan: { id: ids.planA },
    status,
    canceledAt: status === "CANCELED" ? "2026-02-01T00:00:00Z" : null,
    paidThroughPeriod: status === "CANCELED" ? "2026-02" : "2026-03",
  });
}

/** An open cancellation request of member A's fresh membership (alpha takes cancellations from the membership page). */
async function openRequestOfMemberA(offersShown: ("SKIP" | "PAUSE" | "SWITCH_PLAN" | "DISCOUNT")[]) {
  const sub = await freshMembershipOfMemberA("ACTIVE");
  return f.db.cancellationRequest.create({
    data: { subscriptionId: sub.id, userId: ids.memberAId, businessId: ids.alpha, reason: "TOO_MUCH", offersShown, createdAt: new Date("2026-03-05T15:00:00Z") },
  });
}

const PAGE_CONTENT = {
  brand: { name: "Alpha Farm" },
  fulfillment: { pickup: true, shipping: true, delivery: false },
  skipWindow: { startDay: 1, endDay: 28 },
  changeWindow: { startDay: 1, endDay: 28 },
};

interface Operation {
  name: string;
  allowed: ActorName[];
  run(actor: ActorName): Promise<boolean>;
}

const OPERATIONS: Operation[] = [
  // ---- public reads --------------------------------------------------------------------------------------
  {
    name: "business page, plans and add-ons (public)",
    allowed: EVERYONE,
    run: (a) => query(a, `{ business(slug: "alpha") { page { brand { name } } plans(first: 5) { edges { node { name } } } } }`, (d) => d.business?.page),
  },
  {
    name: "plan and mode soldOut (public; never the counts)",
    allowed: EVERYONE,
    run: (a) =>
      query(a, `{ business(slug: "alpha") { plans(first: 5) { edges { node { soldOut soldOutModes variations { soldOut } } } } } }`, (d) => d.business?.plans.edges[0]?.node.variations.length > 0),
  },
  {
    name: "businesses list (public)",
    allowed: EVERYONE,
    run: (a) => query(a, `{ businesses(first: 5) { edges { node { slug } } } }`, (d) => d.businesses.edges.length === 2),
  },
  // ---- a member's own data -------------------------------------------------------------------------------
  {
    name: "viewer",
    allowed: USERS,
    run: (a) => query(a, `{ viewer { username } }`, (d) => d.viewer),
  },
  {
    name: "node(User of member A)",
    allowed: ["memberA", "admin"],
    run: (a) => query(a, `query($id: ID!) { node(id: $id) { ... on User { email } } }`, (d) => d.node?.email, { id: ids.memberAGlobal }),
  },
  {
    name: "node(membership of member A)",
    allowed: ["memberA", ...READ_MEMBERS_A],
    run: (a) => query(a, `query($id: ID!) { node(id: $id) { ... on Membership { status username } } }`, (d) => d.node?.username, { id: gid("Membership", ids.membershipA) }),
  },
  {
    name: "node(order of member A)",
    allowed: ["memberA", ...READ_ORDERS_A],
    run: (a) => query(a, `query($id: ID!) { node(id: $id) { ... on Order { totalCents } } }`, (d) => d.node?.totalCents, { id: gid("Order", ids.orderA) }),
  },
  {
    // The member's own receipt only; staff read it on the Sent mail page, never through the order.
    name: "Order.receipt of member A's order",
    allowed: ["memberA"],
    run: (a) =>
      query(a, `query($id: ID!) { node(id: $id) { ... on Order { receipt { subject } } } }`, (d) => d.node?.receipt?.subject, { id: gid("Order", ids.orderA) }),
  },
  // ---- business A's private reads ------------------------------------------------------------------------
  {
    name: "business A memberships",
    allowed: READ_MEMBERS_A,
    run: (a) => query(a, `{ business(slug: "alpha") { memberships(first: 10) { edges { node { username } } } } }`, (d) => d.business?.memberships?.edges.length > 0),
  },
  {
    name: "business A orders",
    allowed: READ_ORDERS_A,
    run: (a) => query(a, `{ business(slug: "alpha") { orders(first: 10) { edges { node { totalCents } } } } }`, (d) => d.business?.orders?.edges.length > 0),
  },
  {
    name: "root memberships include business A's",
    allowed: READ_MEMBERS_A,
    run: (a) =>
      query(a, `{ memberships(first: 50) { edges { node { business { slug } } } } }`, (d) =>
        d.memberships.edges.some((e: any) => e.node.business.slug === "alpha"),
      ),
  },
  {
    // The member page: staff of A only (it holds internal notes): never the member, nor a partner token of any scope.
    name: "adminMembership (the member page of member A's membership)",
    allowed: STAFF_A,
    run: (a) =>
      query(
        a,
        `query($b: Int!, $m: Int!) { adminMembership(businessId: $b, membershipId: $m) { databaseId nextCharge { date } notes(first: 5) { edges { node { body } } } } }`,
        (d) => d.adminMembership?.databaseId,
        { b: ids.alpha, m: ids.membershipA },
      ),
  },
  {
    name: "Membership.notes through node (member A's membership)",
    allowed: STAFF_A,
    run: (a) =>
      query(a, `query($id: ID!) { node(id: $id) { ... on Membership { notes(first: 5) { edges { node { body } } } } } }`, (d) => d.node?.notes, {
        id: gid("Membership", ids.membershipA),
      }),
  },
  {
    name: "business A dashboard metrics",
    allowed: STAFF_A,
    run: (a) => query(a, `{ business(slug: "alpha") { metrics { totals { subscriptionsAll } } } }`, (d) => d.business?.metrics),
  },
  {
    name: "business A fulfilment cycle (preview, boxes, differences)",
    // Packing lists (addresses, phones, gift messages) need fulfilment:read, which no token from before has.
    allowed: [...STAFF_A, "partnerFulfilmentA"],
    run: (a) =>
      query(
        a,
        `{ business(slug: "alpha") { fulfilment(month: "2026-03") { state totals { boxes } members { outlook } boxes(first: 5) { edges { node { memberName } } } differences { kind } } } }`,
        (d) => d.business?.fulfilment?.boxes.edges.length > 0,
      ),
  },
  {
    name: "adminBusiness(A)",
    allowed: STAFF_A,
    run: (a) => query(a, `query($id: Int!) { adminBusiness(id: $id) { name } }`, (d) => d.adminBusiness, { id: ids.alpha }),
  },
  {
    name: "business A attached users",
    allowed: MANAGE_A,
    run: (a) => query(a, `{ business(slug: "alpha") { users(first: 10) { edges { node { role } } } } }`, (d) => d.business?.users),
  },
  {
    name: "business A API tokens",
    allowed: MANAGE_A,
    run: (a) => query(a, `{ business(slug: "alpha") { apiTokens(first: 10) { edges { node { name } } } } }`, (d) => d.business?.apiTokens),
  },
  {
    name: "user search for business A",
    allowed: MANAGE_A,
    run: (a) => query(a, `query($b: Int) { userSearch(query: "member", businessId: $b) { username } }`, (d) => d.userSearch, { b: ids.alpha }),
  },
  {
    name: "business A payout account and fees",
    allowed: MANAGE_A,
    run: (a) => query(a, `{ business(slug: "alpha") { payoutAccount { status } feeRates { platformBps } } }`, (d) => d.business?.payoutAccount && d.business.feeRates),
  },
  {
    name: "business A statement",
    allowed: MANAGE_A,
    run: (a) =>
      query(
        a,
        `{ business(slug: "alpha") { statement(month: "2026-03") { month grossCents netCents entryCount entries(first: 5) { edges { node { kind grossCents } } } } } }`,
        (d) => d.business?.statement,
      ),
  },
  {
    name: "business A balance",
    allowed: MANAGE_A,
    run: (a) => query(a, `{ business(slug: "alpha") { balance { availableCents pendingCents nextPayoutDate } } }`, (d) => d.business?.balance),
  },
  {
    name: "business A payouts",
    allowed: MANAGE_A,
    run: (a) => query(a, `{ business(slug: "alpha") { payouts(first: 5) { edges { node { status amountCents arrivalDate } } } } }`, (d) => d.business?.payouts),
  },
  // ---- platform reads ------------------------------------------------------------------------------------
  { name: "feeSchedules", allowed: ADMIN, run: (a) => query(a, `{ feeSchedules { effectivePeriod } }`, (d) => d.feeSchedules) },
  { name: "feesCollected", allowed: ADMIN, run: (a) => query(a, `{ feesCollected(month: "2026-04") { month totals { netCents } } }`, (d) => d.feesCollected) },
  { name: "adminMetrics", allowed: ADMIN, run: (a) => query(a, `{ adminMetrics { totals { subscriptionsAll } } }`, (d) => d.adminMetrics) },
  { name: "coupons", allowed: ADMIN, run: (a) => query(a, `{ coupons(first: 5) { edges { node { code } } } }`, (d) => d.coupons) },
  { name: "users", allowed: ADMIN, run: (a) => query(a, `{ users(first: 5) { edges { node { username } } } }`, (d) => d.users) },
  // ---- business A's content ------------------------------------------------------------------------------
  {
    name: "saveBusinessPage(A)",
    allowed: EDIT_A,
    run: (a) =>
      mutation(a, "saveBusinessPage", `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha, content: PAGE_CONTENT },
      }),
  },
  {
    name: "business A retention offers and discount (the cancel flow's settings)",
    allowed: EDIT_A,
    run: (a) => query(a, `{ business(slug: "alpha") { page { cancellationPolicy retentionOffers retentionDiscountPercent } } }`, (d) => d.business?.page?.retentionOffers && d.business.page.retentionDiscountPercent),
  },
  {
    name: "business A plan and mode capacity",
    allowed: EDIT_A,
    run: (a) =>
      query(a, `{ business(slug: "alpha") { plans(first: 5) { edges { node { capacity variations { capacity } } } } } }`, (d) => d.business?.plans.edges.length > 0),
  },
  {
    name: "saveBusinessPage(A) with plan and mode capacity",
    allowed: EDIT_A,
    run: async (a) => {
      const plan = await f.db.plan.findUniqueOrThrow({ where: { id: ids.planA } });
      // No limit (null): the other rows' checkouts stay possible.
      const plans = [{ ref: plan.ref, name: plan.name, pickupCents: 3000, shippingCents: 3500, capacity: null, pickupCapacity: null, shippingCapacity: null }];
      return mutation(a, "saveBusinessPage", `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha, content: PAGE_CONTENT, plans },
      });
    },
  },
  {
    name: "saveNextBox(A)",
    allowed: EDIT_A,
    run: (a) =>
      mutation(a, "saveNextBox", `mutation($input: SaveNextBoxInput!) { saveNextBox(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha, contentHtml: `<p>Box ${++seq}</p>` },
      }),
  },
  {
    name: "attachBusinessUser(A, viewer)",
    allowed: MANAGE_A,
    run: async (a) => {
      const u = await f.user();
      return mutation(a, "attachBusinessUser", `mutation($input: AttachBusinessUserInput!) { attachBusinessUser(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha, userId: u.id, role: "VIEWER" },
      });
    },
  },
  {
    name: "detachBusinessUser(A)",
    allowed: MANAGE_A,
    run: async (a) => {
      const u = await f.user();
      await f.attach({ id: ids.alpha }, u, "VIEWER");
      return mutation(a, "detachBusinessUser", `mutation($input: DetachBusinessUserInput!) { detachBusinessUser(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha, userId: u.id },
      });
    },
  },
  {
    name: "createApiToken(A)",
    allowed: MANAGE_A,
    run: (a) =>
      mutation(a, "createApiToken", `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha, name: `token ${++seq}` },
      }),
  },
  {
    name: "startPayoutOnboarding(A)",
    allowed: MANAGE_A,
    run: (a) =>
      mutation(a, "startPayoutOnboarding", `mutation($input: StartPayoutOnboardingInput!) { startPayoutOnboarding(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha },
      }),
  },
  {
    name: "refreshPayoutAccount(A)",
    allowed: MANAGE_A,
    run: (a) =>
      mutation(a, "refreshPayoutAccount", `mutation($input: RefreshPayoutAccountInput!) { refreshPayoutAccount(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha },
      }),
  },
  {
    name: "payoutDashboardLink(A)",
    allowed: MANAGE_A,
    run: (a) =>
      mutation(a, "payoutDashboardLink", `mutation($input: PayoutDashboardLinkInput!) { payoutDashboardLink(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha },
      }),
  },
  {
    name: "cancelSubscription(membership in A)",
    allowed: MANAGE_A,
    run: async (a) => {
      const member = await f.user();
      const sub = await f.subscription({ user: member, business: { id: ids.alpha }, plan: { id: ids.planA } });
      return mutation(a, "cancelSubscription", `mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id), mode: "NOW" },
      });
    },
  },
  {
    name: "addMembershipNote(membership in A)",
    allowed: EDIT_A,
    run: (a) =>
      mutation(a, "addMembershipNote", `mutation($input: AddMembershipNoteInput!) { addMembershipNote(input: $input) { __typename ... on Error { message } } }`, {
        input: { membershipId: String(ids.membershipA), body: `Note ${++seq}` },
      }),
  },
  // ---- member A's own membership -------------------------------------------------------------------------
  {
    name: "skipMonth(member A's membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("ACTIVE");
      return mutation(a, "skipMonth", `mutation($input: SkipMonthInput!) { skipMonth(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id) },
      }, "alpha");
    },
  },
  {
    name: "pauseMembership(member A's membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("ACTIVE");
      return mutation(a, "pauseMembership", `mutation($input: PauseMembershipInput!) { pauseMembership(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id), months: 2 },
      }, "alpha");
    },
  },
  {
    name: "resumeMembership(member A's paused membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("ACTIVE");
      await f.db.skip.createMany({ data: ["2026-04", "2026-05"].map((yearMonth) => ({ subscriptionId: sub.id, yearMonth })) });
      return mutation(a, "resumeMembership", `mutation($input: ResumeMembershipInput!) { resumeMembership(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id) },
      }, "alpha");
    },
  },
  {
    name: "unskipMonth(member A's skipped month)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("ACTIVE");
      await f.db.skip.create({ data: { subscriptionId: sub.id, yearMonth: "2026-04" } });
      return mutation(a, "unskipMonth", `mutation($input: UnskipMonthInput!) { unskipMonth(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id), month: "2026-04" },
      }, "alpha");
    },
  },
  {
    name: "requestCancellation(member A's membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("ACTIVE");
      return mutation(a, "requestCancellation", `mutation($input: RequestCancellationInput!) { requestCancellation(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id), reason: "MOVING" },
      }, "alpha");
    },
  },
  {
    name: "acceptRetentionOffer(member A's request)",
    allowed: ["memberA"],
    run: async (a) => {
      const request = await openRequestOfMemberA(["SWITCH_PLAN"]);
      return mutation(a, "acceptRetentionOffer", `mutation($input: AcceptRetentionOfferInput!) { acceptRetentionOffer(input: $input) { __typename ... on Error { message } } }`, {
        input: { requestId: String(request.id), offer: "SWITCH_PLAN" },
      }, "alpha");
    },
  },
  {
    name: "confirmCancellation(member A's request)",
    allowed: ["memberA"],
    run: async (a) => {
      const request = await openRequestOfMemberA([]);
      return mutation(a, "confirmCancellation", `mutation($input: ConfirmCancellationInput!) { confirmCancellation(input: $input) { __typename ... on Error { message } } }`, {
        input: { requestId: String(request.id) },
      }, "alpha");
    },
  },
  {
    name: "withdrawCancellation(member A's ending membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("ACTIVE");
      await f.db.subscription.update({ where: { id: sub.id }, data: { cancelAfterPeriod: "2026-03" } });
      return mutation(a, "withdrawCancellation", `mutation($input: WithdrawCancellationInput!) { withdrawCancellation(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id) },
      }, "alpha");
    },
  },
  {
    name: "changeSubscription(member A's membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("ACTIVE");
      return mutation(a, "changeSubscription", `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id), planId: String(ids.planA), mode: "SHIPPING", addonIds: [] },
      }, "alpha");
    },
  },
  {
    // The member's own shipping or delivery membership only; staff cannot move a member's boxes.
    name: "changeMembershipAddress(member A's membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("ACTIVE");
      await f.db.subscription.update({ where: { id: sub.id }, data: { mode: "SHIPPING" } });
      return mutation(a, "changeMembershipAddress", `mutation($input: ChangeMembershipAddressInput!) { changeMembershipAddress(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id), address: { street: "1 New Rd", city: "Akron", zip: "44301" } },
      }, "alpha");
    },
  },
  {
    name: "restartQuote(member A's canceled membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("CANCELED");
      return query(
        a,
        `query($id: ID!) { restartQuote(subscriptionId: $id) { __typename ... on RestartQuoteSuccess { data { todayCents } } } }`,
        (d) => d.restartQuote?.data,
        { id: String(sub.id) },
      );
    },
  },
  {
    name: "restartSubscription(member A's canceled membership)",
    allowed: ["memberA"],
    run: async (a) => {
      const sub = await freshMembershipOfMemberA("CANCELED");
      return mutation(a, "restartSubscription", `mutation($input: RestartSubscriptionInput!) { restartSubscription(input: $input) { __typename ... on Error { message } } }`, {
        input: { subscriptionId: String(sub.id) },
      }, "alpha");
    },
  },
  {
    // Any signed-in user, member B's session of business B included: on GraphQL one login reaches every business;
    // the membership it opens is the caller's own. The REST routes keep the tenant binding.
    name: "startCheckout at A (any signed-in user, whatever business the session was made on)",
    allowed: USERS,
    run: async (a) => {
      if (a === "memberA") await f.db.subscription.updateMany({ where: { userId: ids.memberAId, businessId: ids.alpha }, data: { status: "CANCELED" } });
      return mutation(a, "startCheckout", `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on Error { message } } }`, {
        input: { selection: { businessSlug: "alpha", planRef: ids.planARef, mode: "PICKUP", addonRefs: [] }, email: "x@example.com", idempotencyKey: `matrix-${++seq}-key` },
      }, "alpha");
    },
  },
  {
    name: "startCardUpdate (own card)",
    allowed: USERS,
    run: (a) => mutation(a, "startCardUpdate", `mutation { startCardUpdate { __typename ... on Error { message } } }`, {}),
  },
  {
    name: "updateMailPreferences (own)",
    allowed: USERS,
    run: (a) => mutation(a, "updateMailPreferences", `mutation { updateMailPreferences(input: { reminders: true }) { __typename ... on Error { message } } }`, {}),
  },
  {
    name: "resendMailMessage (a message of alpha)",
    allowed: MANAGE_A,
    run: async (a) => {
      const m = await f.db.mailMessage.create({
        data: { businessId: ids.alpha, dedupeKey: `matrix-${++seq}`, template: "canceled", toAddress: "m@example.com", fromName: "Alpha", subject: "s", html: "<p>h</p>", text: "t", messageId: `<matrix-${seq}@example.com>`, status: "HELD", createdAt: new Date() },
      });
      return mutation(a, "resendMailMessage", `mutation($id: ID!) { resendMailMessage(id: $id) { __typename ... on Error { message } } }`, { id: String(m.id) });
    },
  },
  {
    name: "mailMessages (Sent mail of alpha)",
    allowed: MANAGE_A,
    run: (a) => query(a, `query($b: Int) { mailMessages(businessId: $b, first: 5) { edges { node { subject } } } }`, (d) => d.mailMessages, { b: ids.alpha }),
  },
  {
    name: "updateProfile (own)",
    allowed: USERS,
    run: (a) => mutation(a, "updateProfile", `mutation { updateProfile(input: { phone: "555-0100" }) { __typename ... on Error { message } } }`, {}),
  },
  // ---- platform administration ---------------------------------------------------------------------------
  {
    name: "createBusiness",
    allowed: ADMIN,
    run: (a) =>
      mutation(a, "createBusiness", `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on Error { message } } }`, {
        input: { name: `New Shop ${++seq}` },
      }),
  },
  {
    name: "deleteBusiness",
    allowed: ADMIN,
    run: async (a) => {
      const b = await f.business();
      return mutation(a, "deleteBusiness", `mutation($input: DeleteBusinessInput!) { deleteBusiness(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: b.id },
      });
    },
  },
  {
    name: "saveHomePage",
    allowed: ADMIN,
    run: (a) =>
      mutation(a, "saveHomePage", `mutation($input: SaveHomePageInput!) { saveHomePage(input: $input) { __typename ... on Error { message } } }`, {
        input: { content: { brand: { name: "Home" } } },
      }),
  },
  {
    name: "createCoupon",
    allowed: ADMIN,
    run: (a) =>
      mutation(a, "createCoupon", `mutation($input: CreateCouponInput!) { createCoupon(input: $input) { __typename ... on Error { message } } }`, {
        input: { code: `CODE${++seq}`, type: "PERCENT", value: 10 },
      }),
  },
  {
    name: "toggleCoupon",
    allowed: ADMIN,
    run: async (a) => {
      const c = await f.coupon({ code: `TOGGLE${++seq}` });
      return mutation(a, "toggleCoupon", `mutation($input: ToggleCouponInput!) { toggleCoupon(input: $input) { __typename ... on Error { message } } }`, {
        input: { id: String(c.id) },
      });
    },
  },
  {
    name: "updateCoupon (a platform coupon)",
    allowed: ADMIN,
    run: async (a) => {
      const c = await f.coupon({ code: `UPDATE${++seq}` });
      return mutation(a, "updateCoupon", `mutation($input: UpdateCouponInput!) { updateCoupon(input: $input) { __typename ... on Error { message } } }`, {
        input: { id: String(c.id), active: false },
      });
    },
  },
  {
    name: "updateCoupon (a coupon of business A)",
    allowed: EDIT_A,
    run: async (a) => {
      const c = await f.db.coupon.create({ data: { businessId: ids.alpha, code: `ALPHA${++seq}`, type: "PERCENT", value: 10 } });
      return mutation(a, "updateCoupon", `mutation($input: UpdateCouponInput!) { updateCoupon(input: $input) { __typename ... on Error { message } } }`, {
        input: { id: String(c.id), active: false },
      });
    },
  },
  {
    name: "deleteCoupon",
    allowed: ADMIN,
    run: async (a) => {
      const c = await f.coupon({ code: `DELETE${++seq}` });
      return mutation(a, "deleteCoupon", `mutation($input: DeleteCouponInput!) { deleteCoupon(input: $input) { __typename ... on Error { message } } }`, {
        input: { id: String(c.id) },
      });
    },
  },
  {
    name: "scheduleFee",
    allowed: ADMIN,
    run: (a) =>
      mutation(a, "scheduleFee", `mutation($input: ScheduleFeeInput!) { scheduleFee(input: $input) { __typename ... on Error { message } } }`, {
        input: { businessId: ids.alpha, effectivePeriod: "2030-01", platformBps: 400, platformCents: 0, processingBps: 290, processingCents: 30 },
      }),
  },
  {
    name: "freezePackingSnapshot(A)",
    allowed: ADMIN,
    run: (a) =>
      mutation(a, "freezePackingSnapshot", `mutation($b: ID!) { freezePackingSnapshot(businessId: $b, month: "2026-02") { __typename ... on Error { message } } }`, {
        b: String(ids.alpha),
      }),
  },
  {
    // The test app's clock is movable (a FixedClock); moving it to where it stands leaves the other rows' day alone.
    name: "moveDemoClock",
    allowed: ADMIN,
    run: (a) => mutation(a, "moveDemoClock", `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on Error { message } } }`, { to: t.clock.now().toISOString() }),
  },
  {
    name: "createUser",
    allowed: ADMIN,
    run: (a) =>
      mutation(a, "createUser", `mutation($input: CreateUserInput!) { createUser(input: $input) { __typename ... on Error { message } } }`, {
        input: { username: `staff${++seq}`, password: "staff-password" },
      }),
  },
];

beforeAll(async () => {
  // Day 5 of the month: inside the skip and change windows (1–28), before any cutoff.
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  const page = { pickupEnabled: true, shippingEnabled: true, skipWindowStart: 1, skipWindowEnd: 28, changeWindowStart: 1, changeWindowEnd: 28 };
  const alpha = await f.business({ slug: "alpha", name: "Alpha Farm", page: { ...page, cancellationPolicy: "SELF_SERVICE" } });
  const beta = await f.business({ slug: "beta", name: "Beta Bakery", page });
  const planA = await f.plan(alpha, { prices: { PICKUP: 3000, SHIPPING: 3500 } });
  const planB = await f.plan(beta);
  const addonA = await f.addon(alpha);

  const users = Object.fromEntries(
    await Promise.all(USERS.map(async (name) => [name, await f.user({ username: name.toLowerCase(), isAdmin: name === "admin", email: `${name}@example.com` })])),
  );
  await f.attach(alpha, users.viewerA, "VIEWER");
  await f.attach(alpha, users.editorA, "EDITOR");
  await f.attach(alpha, users.ownerA, "OWNER");
  await f.attach(beta, users.ownerB, "OWNER");
  for (const name of USERS) tokens[name] = await f.session(users[name], sessionTenant[name] ?? null);
  tokens.anonymous = null;
  tokens.partnerA = await f.partnerToken(alpha, users.ownerA);
  for (const [name, scopes] of Object.entries(PARTNER_SCOPES)) tokens[name as PartnerName] = await f.partnerToken(alpha, users.ownerA, scopes);

  const membershipA = await f.subscription({ user: users.memberA, business: alpha, plan: planA });
  const orderA = await f.order({ subscription: membershipA, period: "2026-03", totalCents: 3000 });
  await f.db.mailMessage.create({
    data: {
      businessId: alpha.id, orderId: orderA.id, dedupeKey: "receipt-of-order-a", template: "welcome", recipientUserId: users.memberA.id,
      toAddress: "memberA@example.com", fromName: "Alpha", subject: "Welcome to Alpha: your receipt", html: "<p>receipt</p>", text: "receipt",
      messageId: "<receipt-a@example.com>", createdAt: new Date("2026-03-05T15:00:00Z"),
    },
  });
  const membershipB = await f.subscription({ user: users.memberB, business: beta, plan: planB });
  await f.order({ subscription: membershipB, period: "2026-03", totalCents: 3000 });
  ids = {
    alpha: alpha.id,
    beta: beta.id,
    planA: planA.id,
    planARef: planA.ref,
    addonA: addonA.id,
    memberAId: users.memberA.id,
    memberAGlobal: gid("User", users.memberA.id),
    membershipA: membershipA.id,
    orderA: orderA.id,
  };
});
afterAll(() => t.close());

describe("authorization matrix", () => {
  for (const op of OPERATIONS) {
    it(op.name, async () => {
      const outcome: Record<string, "allowed" | "refused"> = {};
      for (const actor of ACTORS) outcome[actor] = (await op.run(actor)) ? "allowed" : "refused";
      const expected = Object.fromEntries(ACTORS.map((a) => [a, op.allowed.includes(a) ? "allowed" : "refused"]));
      expect(outcome).toEqual(expected);
    });
  }

  it("covers every mutation of the schema", async () => {
    const res = await t.gqlOk(`{ __schema { mutationType { fields { name } } } }`);
    const mutations: string[] = res.__schema.mutationType.fields.map((f: { name: string }) => f.name);
    const covered = new Set(OPERATIONS.map((o) => /^(\w+)/.exec(o.name)![1]));
    // Tested elsewhere: credentials (auth.test.ts), payment steps bound to a client secret (checkout.test.ts),
    // token revocation (businesses.test.ts), steps bound to the caller's own payment or setup intent (cards.test.ts),
    // job runs, which need a running job queue (jobs.test.ts, due-work.test.ts: administrators only, refused to any
    // other user), the sandbox's onboarding page, bound to its single-use link (payouts-onboarding.test.ts).
    const elsewhere = [
      "register", "login", "logout", "changePassword", "completeCheckout", "confirmSandboxPayment", "completeSandboxChallenge",
      "revokeApiToken", "confirmSandboxSetup", "finishCardUpdate", "promotePaymentMethod", "retryJobRun",
      "runJobNow", "completeSandboxOnboarding",
    ];
    expect(mutations.filter((m) => !covered.has(m) && !elsewhere.includes(m))).toEqual([]);
  });
});
