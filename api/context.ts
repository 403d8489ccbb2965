import type { Config } from "./config.ts";
import type { PrismaClient } from "./db.ts";
import type { Clock } from "./shared/clock.ts";
import type { BusinessRole, PaymentMethod, User } from "./generated/prisma/client.ts";
import type { PublicPageCache } from "./cache/public-pages.ts";
import type { JobQueue } from "./queue/job-queue.ts";
import type { Log } from "./shared/log.ts";

/** Who is making the request, resolved from the bearer token on the server (never from client claims). */
export type Actor =
  | { kind: "anonymous" }
  | {
      kind: "user";
      user: { id: number; publicId: string; username: string; isAdmin: boolean };
      session: { id: number; tenantSlug: string | null };
      /**
       * The user's row as the login session read it, in the same statement (api/auth/sessions.ts), without the
       * password hash and payment customer id: the viewer's profile fields answer from it (users.viewer).
       * Absent where an actor is made without a session read (login and register payloads, tests), and during a
       * GraphQL mutation (read afresh after its writes: dropSessionReads).
       */
      account?: AccountRow;
      /** The user's default card for the configured provider, read with the session (null: none saved). */
      card?: PaymentMethod | null;
    }
  /** A partner API token: read-only, its business only, within its scopes (api/auth/policy.ts PARTNER_SCOPES). */
  | { kind: "partner"; token: { id: number; businessId: number; scopes: readonly string[] } };

export type { Log };

/** What every domain service receives: data access, time, the actor and the request's tenant. */
export interface ServiceContext {
  db: PrismaClient;
  clock: Clock;
  config: Config;
  log: Log;
  actor: Actor;
  /** Tenant slug named by the request (X-Tenant header or tenant subdomain), lower-case; null on the main host. */
  tenant: string | null;
  /**
   * How far a member's login session reaches (api/auth/policy.ts requireMember). "tenant" (the default, the REST
   * routes of spec §7): a session created on business A acts as a member on A only. "account" (GraphQL, the web
   * app): a member's session acts on that member's own memberships at every business. Staff and administrator
   * rights never depend on it (they come from business roles), nor does access to other members' data.
   */
  memberSessionScope?: "tenant" | "account";
  ip: string;
  /** Per-request memo of the actor's role in each business (policy checks). */
  roleCache: Map<number, BusinessRole | null>;
  /** The process's cache of public pages (api/cache/public-pages.ts); writes that change a page invalidate it. */
  publicCache?: PublicPageCache;
  /** The process's job queue (api/queue/job-queue.ts); absent where no queue runs (most tests, scripts). */
  jobs?: JobQueue;
}

/** A user's own columns, as the session statement reads them. */
export type AccountRow = Omit<User, "passwordHash" | "paymentCustomerId">;

export type UserActor = Extract<Actor, { kind: "user" }>;

/** What the request's bearer token turned out to be (api/auth/sessions.ts resolveActor). */
export type CredentialState = "none" | "valid" | "invalid";

/** The context of one HTTP request (GraphQL and REST alike): the service context and the credentials' state. */
export type RequestContext = ServiceContext & { credentials: CredentialState };
