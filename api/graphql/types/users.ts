import { builder } from "../builder.ts";
import { payloadQuery } from "../payload-query.ts";
import { COMMON_ERRORS } from "../errors.ts";
import { ConflictError, RateLimitedError, RuleViolationError, ValidationError } from "../../shared/errors.ts";
import type { User } from "../../generated/prisma/client.ts";
import { can } from "../../auth/policy.ts";
import { canReadUser, grantSelf } from "../../auth/read-rules.ts";
import * as users from "../../users/service.ts";
import { numericId } from "../ids.ts";
import { saveProfileAndMoveBoxes } from "../../subscriptions/address.ts";

export const AddressRef = builder.objectRef<users.Address>("Address").implement({
  fields: (t) => ({
    fullName: t.exposeString("fullName"),
    phone: t.exposeString("phone"),
    street: t.exposeString("street"),
    apt: t.exposeString("apt"),
    city: t.exposeString("city"),
    state: t.exposeString("state"),
    zip: t.exposeString("zip"),
    country: t.exposeString("country"),
    instructions: t.string({ description: "Delivery instructions (empty when none were given).", resolve: (a) => a.instructions ?? "" }),
  }),
});

export const AddressInput = builder.inputType("AddressInput", {
  fields: (t) => ({
    fullName: t.string(),
    phone: t.string(),
    street: t.string(),
    apt: t.string(),
    city: t.string(),
    state: t.string(),
    zip: t.string(),
    country: t.string(),
    instructions: t.string({ description: "Delivery instructions, up to 500 characters; may span lines." }),
  }),
});

/** A user as seen by the user themself or an administrator. */
const UserNode = builder.prismaNode("User", {
  id: { field: "id" },
  // Select mode: each field names the columns it reads. A row given without them (the viewer: its id, from
  // the session) has them loaded by Pothos's loader in one read, beside the reads of its lists.
  select: { id: true },
  // The user themself (also in the register/login payload: grantSelf) and administrators.
  authScopes: (user, ctx) => canReadUser(ctx, user),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    publicId: t.exposeString("publicId"),
    username: t.exposeString("username"),
    name: t.exposeString("name", { nullable: true }),
    email: t.exposeString("email", { nullable: true }),
    phone: t.exposeString("phone", { nullable: true }),
    address: t.field({
      type: AddressRef,
      nullable: true,
      select: { address: true },
      resolve: (u) => (u.address ? users.addressSchema.parse(u.address) : null),
    }),
    isAdmin: t.exposeBoolean("isAdmin"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    // Loaded with the list's own statement (the Prisma plugin's nested select), not one read per user.
    businessRoles: t.relation("businessRoles", {
      description: "The businesses the user is attached to, with their role in each (administrators).",
      authScopes: { admin: true },
      query: { orderBy: users.BUSINESS_ROLES_ORDER },
    }),
  }),
});

/** Just enough of a user to pick one (user search, attached users). */
export const UserSummary = builder.prismaObject("User", {
  variant: "UserSummary",
  fields: (t) => ({
    id: t.exposeID("id", { description: "Numeric user id." }),
    username: t.exposeString("username"),
  }),
});

const AuthPayload = builder
  .objectRef<{ token: string; expiresAt: Date; tenant: string | null; user: Pick<User, "id"> }>("AuthPayload")
  .implement({
    fields: (t) => ({
      token: t.exposeString("token", { description: "Bearer token; send as `Authorization: Bearer <token>`." }),
      expiresAt: t.expose("expiresAt", { type: "DateTime" }),
      tenant: t.exposeString("tenant", { nullable: true, description: "Tenant the session is bound to." }),
      user: t.prismaField({
        type: "User",
        resolve: (query, p, _a, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: p.user.id } }),
      }),
    }),
  });

builder.queryFields((t) => ({
  viewer: t.prismaField({
    type: UserNode,
    nullable: true,
    description: "The logged-in user, or null.",
    // The user's columns come with the login session's statement; its lists load beside, needing only the id.
    resolve: (query, _p, _a, ctx) => users.viewer(ctx, query),
  }),
  usernameAvailable: t.boolean({
    args: { username: t.arg.string({ required: true }) },
    resolve: (_p, { username }, ctx) => users.isUsernameAvailable(ctx, username),
  }),
  users: t.prismaConnection({
    type: "User",
    cursor: "id",
    authScopes: { admin: true },
    defaultSize: 50,
    maxSize: 100,
    description: "Every user, newest first (admins), optionally filtered by username.",
    args: { search: t.arg.string() },
    resolve: (query, _p, args, ctx) => users.list(ctx, { search: args.search }, query),
  }),
  userSearch: t.prismaField({
    type: [UserSummary],
    description: "Find users to attach to a business: administrators, or owners of `businessId`.",
    args: { query: t.arg.string({ required: true }), businessId: t.arg.int() },
    authScopes: (_p, args, ctx) =>
      ctx.actor.kind === "user" &&
      (ctx.actor.user.isAdmin || (args.businessId != null && can(ctx, args.businessId, "manageUsers"))),
    resolve: (query, _p, args, ctx) => users.searchForAttach(ctx, { query: args.query, businessId: args.businessId }, query),
  }),
}));

const RegisterInput = builder.inputType("RegisterInput", {
  fields: (t) => ({
    username: t.string({ required: true }),
    password: t.string({ required: true }),
    email: t.string(),
    name: t.string(),
  }),
});
const LoginInput = builder.inputType("LoginInput", {
  fields: (t) => ({ username: t.string({ required: true }), password: t.string({ required: true }) }),
});
const ChangePasswordInput = builder.inputType("ChangePasswordInput", {
  fields: (t) => ({ currentPassword: t.string({ required: true }), newPassword: t.string({ required: true }) }),
});
const UpdateProfileInput = builder.inputType("UpdateProfileInput", {
  fields: (t) => ({
    email: t.string(),
    name: t.string(),
    phone: t.string(),
    address: t.field({ type: AddressInput }),
    moveMembershipIds: t.idList({
      description: "With a new address: the shipping and delivery memberships (User.boxAddressMemberships) whose boxes go there too (\"Also send my boxes here?\").",
    }),
  }),
});
const CreateUserInput = builder.inputType("CreateUserInput", {
  fields: (t) => ({
    username: t.string({ required: true }),
    password: t.string({ required: true }),
    isAdmin: t.boolean({ defaultValue: false }),
  }),
});

/** GraphQL nulls mean "not given" to the services. */
const given = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v != null)) as { [K in keyof T]?: NonNullable<T[K]> };

builder.mutationFields((t) => ({
  register: t.field({
    type: AuthPayload,
    errors: { types: [ValidationError, ConflictError, RateLimitedError] },
    args: { input: t.arg({ type: RegisterInput, required: true }) },
    resolve: async (_p, { input }, ctx) => {
      const result = await users.register(ctx, given(input) as { username: string; password: string });
      grantSelf(ctx, result.user.id);
      return result;
    },
  }),
  login: t.field({
    type: AuthPayload,
    errors: { types: [...COMMON_ERRORS, RateLimitedError] },
    args: { input: t.arg({ type: LoginInput, required: true }) },
    resolve: async (_p, { input }, ctx) => {
      const result = await users.login(ctx, input);
      grantSelf(ctx, result.user.id);
      return result;
    },
  }),
  logout: t.boolean({
    description: "Revokes the session of the bearer token.",
    resolve: async (_p, _a, ctx) => (await users.logout(ctx), true),
  }),
  changePassword: t.boolean({
    errors: { types: [...COMMON_ERRORS, RateLimitedError] },
    description: "Changes the password and ends every session of the user; log in again afterwards.",
    args: { input: t.arg({ type: ChangePasswordInput, required: true }) },
    resolve: async (_p, { input }, ctx) => (await users.changePassword(ctx, input), true),
  }),
  updateProfile: t.prismaField({
    type: "User",
    // RuleViolationError: a ticked membership whose boxes cannot move (a pickup one, or no longer current).
    errors: { types: [...COMMON_ERRORS, RuleViolationError] },
    args: { input: t.arg({ type: UpdateProfileInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const { address, moveMembershipIds, ...rest } = given(input);
      const move = (moveMembershipIds ?? []).map((id) => numericId(id, "Membership", "moveMembershipIds"));
      const user = await saveProfileAndMoveBoxes(ctx, { ...rest, address: address ? given(address) : undefined }, move);
      return ctx.db.user.findUniqueOrThrow({ ...payloadQuery(query), where: { id: user.id } });
    },
  }),
  createUser: t.prismaField({
    type: "User",
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const user = await users.createUser(ctx, { username: input.username, password: input.password, isAdmin: input.isAdmin ?? false });
      return ctx.db.user.findUniqueOrThrow({ ...payloadQuery(query), where: { id: user.id } });
    },
  }),
}));
