import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { hashPassword, verifyPassword, burnPasswordCheck } from "../auth/passwords.ts";
import { openSession, revokeSession, revokeUserSessions } from "../auth/sessions.ts";
import { LIMITS, giveBack, reserve, reserveAll } from "../auth/throttle.ts";
import { assertCan, requireAdmin, requireUser } from "../auth/policy.ts";
import { eventActorOf, writeEvents, type NewEvent } from "../events/outbox.ts";
import type { Prisma, User } from "../generated/prisma/client.ts";
import { ConflictError, NotFoundError, UnauthenticatedError, ValidationError } from "../shared/errors.ts";
import { globalId } from "../shared/global-id.ts";
import { isUsCountry, US_STATE_CODES } from "../shared/us-states.ts";
import { noBidiControls, parseInput, searchTerm, singleLine } from "../shared/validation.ts";

// Spec §5: username at least 3 characters. We also bound it and keep it URL- and log-safe.
const USERNAME_MIN = 3;
const usernameSchema = singleLine("Username")
  .trim()
  .toLowerCase()
  .min(USERNAME_MIN, "Username must be at least 3 characters long")
  .max(40, "Username must be at most 40 characters long")
  .regex(/^[a-z0-9._-]+$/, "Username may only contain letters, digits, dots, dashes and underscores");

const PASSWORD_MIN = 8;
const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters long`)
  .max(200, "Password must be at most 200 characters long");

const addressFields = {
  fullName: singleLine("Full name").trim().max(200),
  phone: singleLine("Phone").trim().max(50),
  street: singleLine("Street").trim().max(200),
  apt: singleLine("Apartment").trim().max(100),
  city: singleLine("City").trim().max(100),
  state: singleLine("State").trim().max(50),
  zip: singleLine("ZIP code").trim().max(20),
  country: singleLine("Country").trim().max(100),
};
/** Delivery instructions for the driver (gate codes, where to leave the box): may span lines. */
const instructionsSchema = noBidiControls("Delivery instructions").trim().max(500, "Delivery instructions can be at most 500 characters");
/** A complete address (spec §3); missing parts are empty strings, instructions are kept only when given. */
export const addressSchema = z.object({
  ...(Object.fromEntries(Object.entries(addressFields).map(([k, v]) => [k, v.default("")])) as {
    [K in keyof typeof addressFields]: z.ZodDefault<(typeof addressFields)[K]>;
  }),
  instructions: instructionsSchema.optional(),
});
export type Address = z.infer<typeof addressSchema>;
/**
 * An address as a member enters it (checkout, Profile, a card's "Delivery address"): a US address names its state
 * by code, as the forms' select offers them, written in capitals. An empty state stays allowed: checkout
 * saves the address while it is typed and enforces only the street (spec §2). Stored addresses are read with
 * `addressSchema`, so one saved before this rule still shows.
 */
export const enteredAddressSchema = addressSchema.transform((a, ctx) => {
  if (a.state === "" || !isUsCountry(a.country)) return a;
  const state = a.state.toUpperCase();
  if (US_STATE_CODES.includes(state)) return { ...a, state };
  ctx.addIssue({ code: "custom", path: ["state"], input: a.state, message: "Please choose a US state by its two-letter code (for example OH)." });
  return z.NEVER;
});
/** Some parts of an address: only the given parts change. */
export const addressPatchSchema = z.object({ ...addressFields, instructions: instructionsSchema }).partial();

const emailSchema = z.union([z.literal(""), singleLine("Email").trim().toLowerCase().email("Please enter a valid email address").max(254)]);

/** Public fields of a logged-in user, as login and registration return them. */
const publicUserSelect = { id: true, publicId: true, username: true, isAdmin: true, name: true, email: true } as const;

export async function isUsernameAvailable(ctx: ServiceContext, username: string): Promise<boolean> {
  const name = parseInput(usernameSchema, username);
  return (await ctx.db.user.count({ where: { username: name } })) === 0;
}

const RegisterInput = z.object({
  username: usernameSchema,
  password: passwordSchema,
  email: emailSchema.optional(),
  name: singleLine("Name").trim().max(200).optional(),
});

/** Registration (checkout step 0 or the portal): creates a member and opens a session bound to the tenant. */
export async function register(ctx: ServiceContext, input: z.input<typeof RegisterInput>, meta: { userAgent?: string } = {}) {
  if (!input.username || !input.password) throw new ValidationError("Please provide username and password");
  const data = parseInput(RegisterInput, input);
  await reserve(ctx, LIMITS.registerByIp, ctx.ip);
  if (!(await isUsernameAvailable(ctx, data.username))) {
    throw new ConflictError("Username is already taken. Please choose a different one.", "username_taken");
  }
  const passwordHash = await hashPassword(data.password);
  const user = await ctx.db
    .$transaction(async (tx) => {
      const created = await tx.user.create({
        data: { username: data.username, passwordHash, email: data.email || null, name: data.name || null, createdAt: ctx.clock.now() },
        select: publicUserSelect,
      });
      await writeEvents(tx, { at: ctx.clock.now(), actor: { type: "user", id: created.id } }, [
        { type: "user.registered.v1", businessId: null, objectId: globalId("User", created.id), payload: { userId: created.id, username: created.username, tenant: ctx.tenant } },
      ]);
      return created;
    })
    .catch((e: { code?: string }) => {
      // Two registrations raced for the name: the unique index decides.
      if (e.code === "P2002") throw new ConflictError("Username is already taken. Please choose a different one.", "username_taken");
      throw e;
    });
  const session = await openSession(ctx, user.id, { tenantSlug: ctx.tenant, ip: ctx.ip, userAgent: meta.userAgent });
  return { user, token: session.token, expiresAt: session.expiresAt, tenant: ctx.tenant };
}

const LoginInput = z.object({ username: singleLine("Username").trim().toLowerCase().min(1), password: z.string().min(1) });

const INVALID_LOGIN = "Invalid username or password";

/**
 * Password login. Failures are throttled per username+IP (5) and per IP (50 in 15 minutes); all attempts per IP
 * (300) cap the hashing work. Counters are shared by every server process. Each attempt takes its points before
 * the password is hashed (api/auth/throttle.ts), so a concurrent burst gets no more guesses than the limit and a
 * refused attempt is never checked, the right password included; a successful login gives its failure points back.
 */
export async function login(ctx: ServiceContext, input: { username: string; password: string }, meta: { userAgent?: string } = {}) {
  if (!input.username || !input.password) throw new ValidationError("Please enter your username and password");
  const data = parseInput(LoginInput, input);
  const [byUserIp, failuresByIp] = await reserveAll(ctx, [
    [LIMITS.loginByUserIp, `${data.username}|${ctx.ip}`],
    [LIMITS.loginFailuresByIp, ctx.ip],
    [LIMITS.loginByIp, ctx.ip],
  ]);

  const user = await ctx.db.user.findUnique({ where: { username: data.username }, select: { ...publicUserSelect, passwordHash: true } });
  const ok = user ? await verifyPassword(user.passwordHash, data.password) : (await burnPasswordCheck(data.password), false);
  // A failure keeps its points; the attempt point (loginByIp) is kept either way.
  if (!user || !ok) throw new UnauthenticatedError(INVALID_LOGIN, "invalid_credentials");
  await giveBack(ctx, [byUserIp, failuresByIp]);
  const { passwordHash: _, ...publicUser } = user;
  const session = await openSession(ctx, user.id, { tenantSlug: ctx.tenant, ip: ctx.ip, userAgent: meta.userAgent });
  return { user: publicUser, token: session.token, expiresAt: session.expiresAt, tenant: ctx.tenant };
}

export async function logout(ctx: ServiceContext): Promise<void> {
  if (ctx.actor.kind === "user") await revokeSession(ctx.db, ctx.clock, ctx.actor.session.id);
}

const ChangePasswordInput = z.object({ currentPassword: z.string().min(1, "Please fill all password fields"), newPassword: passwordSchema });

/**
 * Changes the password and revokes every session of the user, this one included (spec §4: back to login).
 * Guesses of the current password are throttled per user (5 wrong in 15 minutes, whatever the session or
 * address), reserved before the hash like login's; a right one gives its point back.
 */
export async function changePassword(ctx: ServiceContext, input: { currentPassword: string; newPassword: string }) {
  const actor = requireUser(ctx);
  const data = parseInput(ChangePasswordInput, input);
  const attempt = await reserve(ctx, LIMITS.changePasswordByUser, String(actor.user.id));
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: actor.user.id }, select: { passwordHash: true } });
  if (!(await verifyPassword(user.passwordHash, data.currentPassword))) {
    throw new ValidationError("Current password is incorrect", [{ path: "currentPassword", message: "Current password is incorrect" }]);
  }
  await giveBack(ctx, [attempt]);
  if (data.currentPassword === data.newPassword) {
    throw new ValidationError("New password must differ from the current one", [{ path: "newPassword", message: "New password must differ from the current one" }]);
  }
  const passwordHash = await hashPassword(data.newPassword);
  await ctx.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: actor.user.id }, data: { passwordHash } });
    await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [
      { type: "user.password_changed.v1", businessId: null, objectId: globalId("User", actor.user.id), payload: { userId: actor.user.id } },
    ]);
  });
  await revokeUserSessions(ctx.db, ctx.clock, actor.user.id);
}

const ProfileInput = z.object({
  email: emailSchema.optional(),
  name: singleLine("Name").trim().max(200).optional(),
  phone: singleLine("Phone").trim().max(50).optional(),
  address: addressPatchSchema.optional(),
});

export type ProfileInput = z.input<typeof ProfileInput>;

/**
 * Updates the member's own profile; absent fields are left as they are. `alsoIn` runs in the same transaction with
 * the saved row (a Profile address change that also moves memberships' boxes: subscriptions/address.ts).
 */
export async function updateProfile(ctx: ServiceContext, input: ProfileInput, alsoIn?: (tx: Prisma.TransactionClient, user: User) => Promise<void>) {
  const actor = requireUser(ctx);
  const data = parseInput(ProfileInput, input);
  const current = await ctx.db.user.findUniqueOrThrow({ where: { id: actor.user.id }, select: { address: true, email: true, name: true, phone: true } });
  // The saved address with the given parts, checked whole (a state is judged with its country).
  const address = data.address ? parseInput(z.object({ address: enteredAddressSchema }), { address: { ...((current.address as object | null) ?? {}), ...data.address } }).address : undefined;
  return ctx.db.$transaction(async (tx) => {
    const user = await tx.user.update({
      where: { id: actor.user.id },
      data: {
        ...(data.email !== undefined ? { email: data.email || null } : {}),
        ...(data.name !== undefined ? { name: data.name || null } : {}),
        ...(data.phone !== undefined ? { phone: data.phone || null } : {}),
        ...(address ? { address } : {}),
      },
    });
    await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, profileEvents(current, user));
    await alsoIn?.(tx, user);
    return user;
  });
}

type ProfileFields = Pick<User, "email" | "name" | "phone" | "address">;

/** What a profile save announces: the fields that changed, and the email change on its own (security-relevant). */
function profileEvents(before: ProfileFields, after: ProfileFields & { id: number }): NewEvent[] {
  const changed = (["email", "name", "phone", "address"] as const).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (changed.length === 0) return [];
  const objectId = globalId("User", after.id);
  return [
    { type: "user.profile_updated.v1", businessId: null, objectId, payload: { userId: after.id, changed } },
    ...(changed.includes("email")
      ? [{ type: "user.email_changed.v1" as const, businessId: null, objectId, payload: { userId: after.id, email: after.email, previousEmail: before.email } }]
      : []),
  ];
}

const CreateUserInput = z.object({ username: usernameSchema, password: passwordSchema, isAdmin: z.boolean().default(false) });

/** Admin: creates a user (spec §5: username and password required; is_admin defaults to false). */
export async function createUser(ctx: ServiceContext, input: z.input<typeof CreateUserInput>) {
  requireAdmin(ctx);
  if (!input.username || !input.password) throw new ValidationError("Username and password are required");
  const data = parseInput(CreateUserInput, input);
  const passwordHash = await hashPassword(data.password);
  try {
    return await ctx.db.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { username: data.username, passwordHash, isAdmin: data.isAdmin, createdAt: ctx.clock.now() } });
      await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [
        { type: "user.created.v1", businessId: null, objectId: globalId("User", user.id), payload: { userId: user.id, username: user.username, isAdmin: user.isAdmin } },
      ]);
      return user;
    });
  } catch (e) {
    if ((e as { code?: string }).code === "P2002") throw new ConflictError("Username is already taken. Please choose a different one.", "username_taken");
    throw e;
  }
}

/** A user's businesses on the administrators' Users list (User.businessRoles): by business name. */
export const BUSINESS_ROLES_ORDER = { business: { name: "asc" } } as const;

/** Case-insensitive username search for admins and business owners attaching users (spec: results {id, username}). */
function userSearchWhere(q: string) {
  const term = searchTerm(q).toLowerCase();
  return term ? { username: { contains: term } } : {};
}

/** The REST users list answers an array: at most this many users (newest first). */
const USERS_LIST_LIMIT = 1000;

/** The caller's selection and paging (GraphQL passes its connection's `query` through; REST none). */
export type UserPage = Pick<Prisma.UserFindManyArgs, "select" | "include" | "take" | "skip" | "cursor">;

/**
 * The users list (administrators): filtered by username, newest first, the first USERS_LIST_LIMIT unless
 * `page` pages it. The one read rule of the GraphQL `users` connection and REST GET /admin/users.
 */
export async function list(ctx: ServiceContext, filter: { search?: string | null }, page: UserPage = {}): Promise<User[]> {
  requireAdmin(ctx);
  return ctx.db.user.findMany({ take: USERS_LIST_LIMIT, ...page, where: userSearchWhere(filter.search ?? ""), orderBy: { id: "desc" } });
}

/**
 * Users to attach to a business (spec: results {id, username}): administrators, or, with `businessId`, the
 * owners of that business. By username, the first 20.
 */
export async function searchForAttach(
  ctx: ServiceContext,
  filter: { query: string; businessId?: number | null },
  page: Pick<UserPage, "select" | "include"> = { select: { id: true, username: true } },
): Promise<User[]> {
  if (filter.businessId != null) await assertCan(ctx, filter.businessId, "manageUsers");
  else requireAdmin(ctx);
  return ctx.db.user.findMany({ ...page, where: userSearchWhere(filter.query), orderBy: { username: "asc" }, take: 20 });
}

export async function userById(ctx: ServiceContext, id: number) {
  const user = await ctx.db.user.findUnique({ where: { id } });
  if (!user) throw new NotFoundError("User");
  return user;
}

/**
 * The signed-in user (GraphQL `viewer`), or null without a session. A selection of the user's own columns only
 * answers from the row the login session read with the session (api/auth/sessions.ts): no statement of its own.
 * A selection with relations reads the row, as does a mutation's answer (dropSessionReads).
 */
export async function viewer(ctx: ServiceContext, query: Pick<Prisma.UserFindUniqueArgs, "select" | "include"> = {}): Promise<User | null> {
  const { select, include } = query;
  if (ctx.actor.kind !== "user") return null;
  const { account } = ctx.actor;
  if (account && !include && select && Object.entries(select).every(([key, value]) => value === true && key in account)) return account as User;
  return ctx.db.user.findUnique({ ...query, where: { id: ctx.actor.user.id } });
}

/** The signed-in user's own account (the profile screens); refused without a session. */
export async function me(ctx: ServiceContext) {
  return userById(ctx, requireUser(ctx).user.id);
}
