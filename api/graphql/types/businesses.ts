import { builder } from "../builder.ts";
import { payloadQuery } from "../payload-query.ts";
import { COMMON_ERRORS, RULE_ERRORS } from "../errors.ts";
import { BusinessRole } from "../../generated/prisma/enums.ts";
import { can } from "../../auth/policy.ts";
import { canReadApiToken, canReadBusiness, canReadBusinessUser } from "../../auth/read-rules.ts";
import { catalogueQuery } from "../../catalog/service.ts";
import { isoDate, localDate } from "../../shared/calendar.ts";
import { signupTerms } from "../../rules/dates.ts";
import { UserSummary } from "./users.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import type { ServiceContext } from "../../context.ts";
import * as businesses from "../../businesses/service.ts";
import { takesCharges } from "../../payouts/accounts.ts";

/** Spec §5's refusal or a next-month sign-up, today in the business's time zone (api/rules/dates.ts signupTerms). */
function signupTermsOf(ctx: { clock: { now(): Date } }, b: { timeZone: string; page: { cutoffDay: number | null; billingDay: number; afterCutoff: "REFUSE" | "NEXT_MONTH" } | null }) {
  return signupTerms(localDate(ctx.clock.now(), b.timeZone), { cutoffDay: b.page?.cutoffDay ?? null, billingDay: b.page?.billingDay ?? 1, afterCutoff: b.page?.afterCutoff ?? "REFUSE" });
}

const BusinessRoleEnum = builder.enumType(BusinessRole, {
  name: "BusinessRole",
  description: "A user's role in a business: owner, editor or viewer (see api/auth/policy.ts).",
});

const viewerId = (ctx: ServiceContext) => (ctx.actor.kind === "user" ? ctx.actor.user.id : -1);

/**
 * The viewer's own attachment is loaded with the business (one query for a whole list) and primes the
 * policy's per-request role cache, so `can` answers without another round trip.
 */
const viewerLinkSelect = (_args: object, ctx: ServiceContext) => ({
  users: { where: { userId: viewerId(ctx) }, select: { role: true } },
});
function primeRole(ctx: ServiceContext, b: { id: number; users: { role: BusinessRole }[] }) {
  if (ctx.actor.kind === "user" && !ctx.roleCache.has(b.id)) ctx.roleCache.set(b.id, b.users[0]?.role ?? null);
}

builder.prismaNode("Business", {
  id: { field: "id" },
  // Select mode: each field names the columns it reads (a membership row joins only the business columns
  // asked). Always read: id, slug and name, which every screen shows; their fields read the row as it is
  // (not expose: in select mode every expose is checked against Pothos's loader for each row).
  select: { id: true, slug: true, name: true },
  // Public (the staff-only fields below carry their own permission scopes); run once per row, not per field.
  authScopes: (b, ctx) => canReadBusiness(ctx, b),
  runScopesOnType: true,
  fields: (t) => ({
    databaseId: t.int({ description: "Numeric id used by /api routes and admin URLs.", resolve: (b) => b.id }),
    slug: t.string({ resolve: (b) => b.slug }),
    name: t.string({ resolve: (b) => b.name }),
    timeZone: t.exposeString("timeZone"),
    // Not t.relationCount: its LEFT JOIN aggregates every membership of the platform on each request.
    memberCount: t.int({ resolve: (b, _a, ctx) => businesses.memberCount(ctx, b.id) }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    logoUrl: t.string({
      nullable: true,
      select: { page: { select: { logoUrl: true } } },
      resolve: (b) => businesses.cardLogoUrl(b.page),
    }),
    description: t.string({
      nullable: true,
      description: "Plain-text description from the business page (cards); the page has the HTML.",
      select: { page: { select: { descriptionHtml: true } } },
      resolve: (b) => businesses.cardDescription(b.page),
    }),
    checkoutClosedMessage: t.string({
      nullable: true,
      description:
        "Spec §8 'Past cutoff' message while today (in the business's time zone, on the server's clock) is past the page's cutoff day and the page " +
        "refuses sign-ups then (afterCutoff REFUSE): checkout is refused until next month. Null while checkout is open.",
      select: { timeZone: true, page: { select: { cutoffDay: true, billingDay: true, afterCutoff: true } } },
      resolve: (b, _a, ctx) => signupTermsOf(ctx, b).closedMessage,
    }),
    signupFirstPeriod: t.string({
      description: "The month (YYYY-MM) of a sign-up's first box today: this month, or next month past the cutoff at a NEXT_MONTH page.",
      select: { timeZone: true, page: { select: { cutoffDay: true, billingDay: true, afterCutoff: true } } },
      resolve: (b, _a, ctx) => signupTermsOf(ctx, b).firstPeriod,
    }),
    signupStartsNextMonth: t.boolean({
      description: "Past the cutoff at a NEXT_MONTH page: a sign-up today saves the card, its first box and charge are next month's.",
      select: { timeZone: true, page: { select: { cutoffDay: true, billingDay: true, afterCutoff: true } } },
      resolve: (b, _a, ctx) => signupTermsOf(ctx, b).startsNextMonth,
    }),
    signupFirstChargeDate: t.string({
      description:
        "ISO date of a sign-up's first charge today: today, or past the cutoff at a NEXT_MONTH page the billing day of signupFirstPeriod " +
        "(as CheckoutQuote.firstChargeDate will say).",
      select: { timeZone: true, page: { select: { cutoffDay: true, billingDay: true, afterCutoff: true } } },
      resolve: (b, _a, ctx) => isoDate(signupTermsOf(ctx, b).firstChargeDate),
    }),
    acceptingMembers: t.boolean({
      description:
        "The business can take a sign-up today: its page is set up, and its payouts can take the first charge (signupFirstPeriod). " +
        "False: Checkout is off, and checkout, quote and restart are refused with payments_not_ready.",
      select: { timeZone: true, page: { select: { id: true, cutoffDay: true, billingDay: true, afterCutoff: true } } },
      resolve: (b, _a, ctx) => b.page !== null && takesCharges(ctx.db, b.id, signupTermsOf(ctx, b).firstPeriod),
    }),
    page: t.relation("page", { nullable: true }),
    nextBox: t.relation("nextBox", { nullable: true }),
    plans: t.relatedConnection("plans", {
      cursor: "id",
      description: "Plans on the business page in editor order. includeUnlisted (editors) adds the unlisted ones.",
      args: { includeUnlisted: t.arg.boolean({ defaultValue: false }) },
      authScopes: (b, args) => (args.includeUnlisted ? { business: { id: b.id, permission: "editContent" } } : true),
      query: (args) => catalogueQuery(args.includeUnlisted ?? false),
    }),
    addons: t.relatedConnection("addons", {
      cursor: "id",
      description: "Add-ons on the business page in editor order. includeUnlisted (editors) adds the unlisted ones.",
      args: { includeUnlisted: t.arg.boolean({ defaultValue: false }) },
      authScopes: (b, args) => (args.includeUnlisted ? { business: { id: b.id, permission: "editContent" } } : true),
      query: (args) => catalogueQuery(args.includeUnlisted ?? false),
    }),
    userCount: t.int({
      nullable: true,
      description: "Number of attached users (anyone attached, and administrators).",
      authScopes: (b) => ({ business: { id: b.id, permission: "viewDashboard" } }),
      select: { _count: { select: { users: true } } },
      resolve: (b) => b._count.users,
    }),
    users: t.relatedConnection("users", {
      cursor: "id",
      totalCount: true,
      nullable: true,
      description: "Attached users (owners and admins).",
      authScopes: (b) => ({ business: { id: b.id, permission: "manageUsers" } }),
      query: { orderBy: businesses.BUSINESS_USERS_ORDER },
    }),
    apiTokens: t.relatedConnection("apiTokens", {
      cursor: "id",
      nullable: true,
      description: "Partner API tokens, newest first (owners and admins).",
      authScopes: (b) => ({ business: { id: b.id, permission: "manageApiTokens" } }),
      query: { orderBy: { id: "desc" } },
    }),
    viewerRole: t.field({
      type: BusinessRoleEnum,
      nullable: true,
      description: "The viewer's own role here; null when not attached (administrators may still act: see viewerCan*).",
      select: viewerLinkSelect,
      resolve: (b, _a, ctx) => (ctx.actor.kind === "user" ? (b.users[0]?.role ?? null) : null),
    }),
    viewerCanEdit: t.boolean({
      description: "The viewer may edit the page, catalogue and next box.",
      select: viewerLinkSelect,
      resolve: (b, _a, ctx) => (primeRole(ctx, b), can(ctx, b.id, "editContent")),
    }),
    viewerCanManageUsers: t.boolean({
      select: viewerLinkSelect,
      resolve: (b, _a, ctx) => (primeRole(ctx, b), can(ctx, b.id, "manageUsers")),
    }),
    viewerCanManageApiTokens: t.boolean({
      description: "The viewer may list, create and revoke this business's partner API tokens (owners and administrators).",
      select: viewerLinkSelect,
      resolve: (b, _a, ctx) => (primeRole(ctx, b), can(ctx, b.id, "manageApiTokens")),
    }),
  }),
});

builder.prismaNode("BusinessUser", {
  id: { field: "id" },
  description: "A user attached to a business with a role.",
  authScopes: (link, ctx) => canReadBusinessUser(ctx, link),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    role: t.expose("role", { type: BusinessRoleEnum }),
    user: t.relation("user", { type: UserSummary }),
    business: t.relation("business"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.prismaNode("ApiToken", {
  id: { field: "id" },
  description: "A read-only partner token of a business, limited to its scopes. The secret is shown only when created.",
  authScopes: (token, ctx) => canReadApiToken(ctx, token),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    name: t.exposeString("name"),
    prefix: t.exposeString("prefix", { description: "First characters of the token, to tell tokens apart." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    lastUsedAt: t.expose("lastUsedAt", {
      type: "DateTime",
      nullable: true,
      description: "Last request made with the token (recorded at most once a minute); null when never used.",
    }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    scopes: t.exposeStringList("scopes", { description: "What the token may read: memberships:read, orders:read, fulfilment:read." }),
    createdBy: t.relation("createdBy", { type: UserSummary, description: "Who created the token." }),
  }),
});

builder.queryFields((t) => ({
  businesses: t.prismaConnection({
    type: "Business",
    cursor: "id",
    defaultSize: 24,
    maxSize: 100,
    description: "Every partner business, for the public businesses grid.",
    resolve: (query, _parent, _args, ctx) => businesses.withViewerRoles(ctx, businesses.list(ctx, query)),
  }),
  business: t.prismaField({
    type: "Business",
    nullable: true,
    args: { slug: t.arg.string({ required: true }) },
    resolve: (query, _parent, { slug }, ctx) => ctx.db.business.findUnique({ ...query, where: { slug: slug.toLowerCase() } }),
  }),
  myBusinesses: t.prismaConnection({
    type: "Business",
    cursor: "id",
    defaultSize: 50,
    maxSize: 100,
    authScopes: { loggedIn: true },
    description: "Businesses the viewer is attached to with any role (administrators: all), by name.",
    resolve: (query, _p, _a, ctx) => businesses.withViewerRoles(ctx, businesses.openable(ctx, query)),
  }),
  adminBusiness: t.prismaField({
    type: "Business",
    nullable: true,
    description: "A business by numeric id for the admin pages (/admin/business/{id}): anyone attached, and administrators.",
    args: { id: t.arg.int({ required: true }) },
    authScopes: (_p, args) => ({ business: { id: args.id, permission: "viewDashboard" } }),
    resolve: (query, _p, { id }, ctx) => ctx.db.business.findUnique({ ...query, where: { id } }),
  }),
}));

// ── Mutations ────────────────────────────────────────────────────────────────────────────────────────

const AttachmentInput = builder.inputType("BusinessAttachmentInput", {
  fields: (t) => ({ userId: t.int({ required: true }), role: t.field({ type: BusinessRoleEnum, required: true }) }),
});
const CreateBusinessInput = builder.inputType("CreateBusinessInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    slug: t.string({ description: "Subdomain; derived from the name when left out." }),
    attachments: t.field({ type: [AttachmentInput] }),
  }),
});
const DeleteBusinessInput = builder.inputType("DeleteBusinessInput", {
  fields: (t) => ({ businessId: t.int({ required: true }) }),
});
const AttachBusinessUserInput = builder.inputType("AttachBusinessUserInput", {
  fields: (t) => ({
    businessId: t.int({ required: true }),
    userId: t.int({ required: true }),
    role: t.field({ type: BusinessRoleEnum, required: true }),
  }),
});
const DetachBusinessUserInput = builder.inputType("DetachBusinessUserInput", {
  fields: (t) => ({ businessId: t.int({ required: true }), userId: t.int({ required: true }) }),
});
const CreateApiTokenInput = builder.inputType("CreateApiTokenInput", {
  fields: (t) => ({
    businessId: t.int({ required: true }),
    name: t.string({ required: true }),
    scopes: t.stringList({
      description:
        "What the token may read, at least one of: memberships:read, orders:read, fulfilment:read (addresses, phones, gift messages, " +
        "packing lists and their CSV). Omitted: memberships:read and orders:read.",
    }),
  }),
});
const RevokeApiTokenInput = builder.inputType("RevokeApiTokenInput", {
  fields: (t) => ({ id: t.globalID({ required: true, description: "Global id of the ApiToken." }) }),
});

const DeleteBusinessPayload = builder.objectRef<{ id: number; slug: string; name: string }>("DeleteBusinessPayload").implement({
  fields: (t) => ({
    deletedBusinessId: t.globalID({ resolve: (b) => ({ type: "Business", id: b.id }) }),
    databaseId: t.exposeInt("id"),
    slug: t.exposeString("slug"),
  }),
});

const DetachBusinessUserPayload = builder.objectRef<{ id: number; businessId: number }>("DetachBusinessUserPayload").implement({
  fields: (t) => ({
    detachedBusinessUserId: t.globalID({ resolve: (l) => ({ type: "BusinessUser", id: l.id }) }),
    business: t.prismaField({
      type: "Business",
      resolve: (query, l, _a, ctx) => ctx.db.business.findUniqueOrThrow({ ...query, where: { id: l.businessId } }),
    }),
  }),
});

const CreateApiTokenPayload = builder.objectRef<{ token: string; apiToken: { id: number } }>("CreateApiTokenPayload").implement({
  fields: (t) => ({
    token: t.exposeString("token", { description: "The bearer token (mpt_…). Shown only now: store it safely." }),
    apiToken: t.prismaField({
      type: "ApiToken",
      resolve: (query, p, _a, ctx) => ctx.db.apiToken.findUniqueOrThrow({ ...query, where: { id: p.apiToken.id } }),
    }),
  }),
});

builder.mutationFields((t) => ({
  createBusiness: t.prismaField({
    type: "Business",
    description: "Creates a business with its page and Next Box (administrators).",
    errors: { types: RULE_ERRORS },
    args: { input: t.arg({ type: CreateBusinessInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const business = await businesses.createBusiness(ctx, input);
      return ctx.db.business.findUniqueOrThrow({ ...payloadQuery(query), where: { id: business.id } });
    },
  }),
  deleteBusiness: t.field({
    type: DeleteBusinessPayload,
    description: "Deletes a business with its page, catalogue and attachments; refused while members are active or once it has order history (administrators).",
    errors: { types: RULE_ERRORS },
    args: { input: t.arg({ type: DeleteBusinessInput, required: true }) },
    resolve: (_p, { input }, ctx) => businesses.deleteBusiness(ctx, input.businessId),
  }),
  attachBusinessUser: t.prismaField({
    type: "BusinessUser",
    description: "Attaches a user with a role, or changes their role. Only administrators grant or change the owner.",
    errors: { types: RULE_ERRORS },
    args: { input: t.arg({ type: AttachBusinessUserInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const link = await businesses.attachBusinessUser(ctx, input);
      return ctx.db.businessUser.findUniqueOrThrow({ ...payloadQuery(query), where: { id: link.id } });
    },
  }),
  detachBusinessUser: t.field({
    type: DetachBusinessUserPayload,
    errors: { types: RULE_ERRORS },
    args: { input: t.arg({ type: DetachBusinessUserInput, required: true }) },
    resolve: (_p, { input }, ctx) => businesses.detachBusinessUser(ctx, input),
  }),
  createApiToken: t.field({
    type: CreateApiTokenPayload,
    description: "Creates a read-only partner token for a business (owners and admins).",
    errors: { types: COMMON_ERRORS },
    args: { input: t.arg({ type: CreateApiTokenInput, required: true }) },
    resolve: (_p, { input }, ctx) => businesses.createApiToken(ctx, input),
  }),
  revokeApiToken: t.prismaField({
    type: "ApiToken",
    errors: { types: COMMON_ERRORS },
    args: { input: t.arg({ type: RevokeApiTokenInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      if (input.id.typename !== "ApiToken") throw new ValidationError("Not an API token id", [{ path: "id", message: "Not an API token id" }]);
      const id = Number(input.id.id);
      if (!Number.isSafeInteger(id)) throw new NotFoundError("API token");
      const token = await businesses.revokeApiToken(ctx, id);
      return ctx.db.apiToken.findUniqueOrThrow({ ...payloadQuery(query), where: { id: token.id } });
    },
  }),
}));
