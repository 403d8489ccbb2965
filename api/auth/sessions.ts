import type { Actor, CredentialState, ServiceContext } from "../context.ts";
import type { PrismaClient } from "../db.ts";
import type { Clock } from "../shared/clock.ts";
import { bearerFrom, hashToken, newToken, PARTNER_TOKEN_PREFIX, SESSION_TOKEN_PREFIX } from "./tokens.ts";

export interface SessionMeta {
  tenantSlug: string | null;
  ip?: string;
  userAgent?: string;
}

/** Opens a session for a user and returns the bearer token (shown once; only its hash is stored). */
export async function openSession(
  ctx: Pick<ServiceContext, "db" | "clock" | "config">,
  userId: number,
  meta: SessionMeta,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken(SESSION_TOKEN_PREFIX);
  const expiresAt = new Date(ctx.clock.now().getTime() + ctx.config.sessionTtlMs);
  await ctx.db.session.create({
    data: {
      tokenHash: hashToken(token),
      userId,
      tenantSlug: meta.tenantSlug,
      expiresAt,
      ip: meta.ip?.slice(0, 64),
      userAgent: meta.userAgent?.slice(0, 255),
    },
  });
  return { token, expiresAt };
}

export async function revokeSession(db: PrismaClient, clock: Clock, sessionId: number): Promise<void> {
  await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: clock.now() } });
}

/** Revokes every open session of a user, except optionally one (password change keeps none). */
export async function revokeUserSessions(db: PrismaClient, clock: Clock, userId: number, exceptSessionId?: number) {
  await db.session.updateMany({
    where: { userId, revokedAt: null, ...(exceptSessionId ? { id: { not: exceptSessionId } } : {}) },
    data: { revokedAt: clock.now() },
  });
}

/**
 * The session of a token hash with its user, in one statement (every authenticated request pays it): Prisma's
 * `findUnique` with a `user` select reads the session, then the user, in two. Validity (revoked, expired) is
 * checked by the caller against the request's clock.
 */
async function findSession(db: PrismaClient, tokenHash: string) {
  const [row] = await db.$queryRaw<
    { id: number; tenantSlug: string | null; expiresAt: Date; revokedAt: Date | null; userId: number; publicId: string; username: string; isAdmin: boolean }[]
  >`
    SELECT s.id, s.tenant_slug AS "tenantSlug", s.expires_at AS "expiresAt", s.revoked_at AS "revokedAt",
           u.id AS "userId", u.public_id AS "publicId", u.username, u.is_admin AS "isAdmin"
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ${tokenHash}`;
  if (!row) return null;
  const { userId, publicId, username, isAdmin, ...session } = row;
  return { ...session, user: { id: userId, publicId, username, isAdmin } };
}

// Partner token "last used" is written at most once a minute per token, not on every request.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves the Authorization header into an actor. Unknown, revoked or expired tokens are "invalid". */
export async function resolveActor(
  db: PrismaClient,
  clock: Clock,
  authorization: string | undefined,
): Promise<{ actor: Actor; credentials: CredentialState }> {
  const token = bearerFrom(authorization);
  if (!token) return { actor: { kind: "anonymous" }, credentials: "none" };
  const now = clock.now();
  const tokenHash = hashToken(token);

  if (token.startsWith(SESSION_TOKEN_PREFIX)) {
    const session = await findSession(db, tokenHash);
    if (session && !session.revokedAt && session.expiresAt > now) {
      return {
        actor: { kind: "user", user: session.user, session: { id: session.id, tenantSlug: session.tenantSlug } },
        credentials: "valid",
      };
    }
  } else if (token.startsWith(PARTNER_TOKEN_PREFIX)) {
    const apiToken = await db.apiToken.findUnique({
      where: { tokenHash },
      select: { id: true, businessId: true, revokedAt: true, lastUsedAt: true },
    });
    if (apiToken && !apiToken.revokedAt) {
      if (!apiToken.lastUsedAt || now.getTime() - apiToken.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        await db.apiToken.update({ where: { id: apiToken.id }, data: { lastUsedAt: now } });
      }
      return { actor: { kind: "partner", token: { id: apiToken.id, businessId: apiToken.businessId } }, credentials: "valid" };
    }
  }
  return { actor: { kind: "anonymous" }, credentials: "invalid" };
}
