import type { AccountRow, Actor, CredentialState, ServiceContext } from "../context.ts";
import { readRows, timestampOf, type PrismaClient } from "../db.ts";
import type { PaymentMethod } from "../generated/prisma/client.ts";
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
 * The session of a token hash with its user's row, in one statement (every authenticated request pays it):
 * Prisma's `findUnique` with a `user` select reads the session, then the user, in two. The user's own columns
 * come with it (they sit in the row the join reads anyway), so the viewer's profile needs no read of its own.
 * Validity (revoked, expired) is checked by the caller against the request's clock.
 */
async function findSession(db: PrismaClient, tokenHash: string, cardProvider: string) {
  const [row] = await readRows<SessionRow>(db, SESSION_STATEMENT, [cardProvider, tokenHash], { prepared: "login-session" });
  if (!row) return null;
  const { sessionId, tenantSlug, expiresAt, revokedAt, card, createdAt, updatedAt, ...columns } = row;
  const account: AccountRow = { ...columns, createdAt: timestampOf(createdAt), updatedAt: timestampOf(updatedAt) };
  return {
    id: sessionId,
    tenantSlug,
    expiresAt: timestampOf(expiresAt),
    revokedAt: revokedAt == null ? null : timestampOf(revokedAt),
    account,
    card: card && { ...card, createdAt: timestampOf(card.createdAt) },
    user: { id: account.id, publicId: account.publicId, username: account.username, isAdmin: account.isAdmin },
  };
}

const SESSION_STATEMENT = `
    SELECT s.id AS "sessionId", s.tenant_slug AS "tenantSlug", s.expires_at AS "expiresAt", s.revoked_at AS "revokedAt",
           u.id, u.public_id AS "publicId", u.username, u.name, u.email, u.phone, u.address, u.is_admin AS "isAdmin",
           u.mail_reminders AS "mailReminders", u.mail_precharge_notice AS "mailPrechargeNotice", u.mail_digest AS "mailDigest",
           u.created_at AS "createdAt", u.updated_at AS "updatedAt",
           (SELECT jsonb_build_object('id', pm.id, 'userId', pm.user_id, 'provider', pm.provider, 'providerPaymentMethodId',
                     pm.provider_payment_method_id, 'brand', pm.brand, 'last4', pm.last4, 'expMonth', pm.exp_month,
                     'expYear', pm.exp_year, 'isDefault', pm.is_default, 'createdAt', pm.created_at)
              FROM payment_methods pm
             WHERE pm.user_id = u.id AND pm.is_default AND pm.provider = $1
             ORDER BY pm.created_at DESC LIMIT 1) AS card
      FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $2`;

/** A row of the session statement: timestamps as the driver gives them (text, or Date through Prisma). */
type SessionRow = { sessionId: number; tenantSlug: string | null; expiresAt: string | Date; revokedAt: string | Date | null; card: CardJson | null } & Omit<AccountRow, "createdAt" | "updatedAt"> & {
    createdAt: string | Date;
    updatedAt: string | Date;
  };

type CardJson = Omit<PaymentMethod, "createdAt"> & { createdAt: string };

/**
 * Forgets what the session statement read beside the session (the user's row and card), so that the reads after
 * a write load them again: GraphQL mutations call it before they execute (api/graphql/yoga.ts).
 */
export function dropSessionReads(ctx: { actor: Actor }): void {
  if (ctx.actor.kind === "user") ctx.actor = { kind: "user", user: ctx.actor.user, session: ctx.actor.session };
}

// Partner token "last used" is written at most once a minute per token, not on every request.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves the Authorization header into an actor. Unknown, revoked or expired tokens are "invalid". */
export async function resolveActor(
  db: PrismaClient,
  clock: Clock,
  authorization: string | undefined,
  /** The payment provider whose default card is read with a login session (config.paymentProvider). */
  cardProvider: string,
): Promise<{ actor: Actor; credentials: CredentialState }> {
  const token = bearerFrom(authorization);
  if (!token) return { actor: { kind: "anonymous" }, credentials: "none" };
  const now = clock.now();
  const tokenHash = hashToken(token);

  if (token.startsWith(SESSION_TOKEN_PREFIX)) {
    const session = await findSession(db, tokenHash, cardProvider);
    if (session && !session.revokedAt && session.expiresAt > now) {
      return {
        actor: { kind: "user", user: session.user, session: { id: session.id, tenantSlug: session.tenantSlug }, account: session.account, card: session.card },
        credentials: "valid",
      };
    }
  } else if (token.startsWith(PARTNER_TOKEN_PREFIX)) {
    const apiToken = await db.apiToken.findUnique({
      where: { tokenHash },
      select: { id: true, businessId: true, revokedAt: true, lastUsedAt: true, scopes: true },
    });
    if (apiToken && !apiToken.revokedAt) {
      if (!apiToken.lastUsedAt || now.getTime() - apiToken.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
        await db.apiToken.update({ where: { id: apiToken.id }, data: { lastUsedAt: now } });
      }
      return { actor: { kind: "partner", token: { id: apiToken.id, businessId: apiToken.businessId, scopes: apiToken.scopes } }, credentials: "valid" };
    }
  }
  return { actor: { kind: "anonymous" }, credentials: "invalid" };
}
