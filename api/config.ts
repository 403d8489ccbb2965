import path from "node:path";
import { z } from "zod";

const bool = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const MAILBOX_MESSAGE = "must be an email address, or a name and one in angle brackets (Green Acres <noreply@example.com>)";

/**
 * A mailbox: a bare address, or `Name <address>` / `"Name" <address>` (`\"` inside quotes is a quote). The
 * name is one line of text without control characters or angle brackets (nodemailer encodes the rest); an empty
 * name (`<a@b.c>`) counts as none.
 */
function mailbox() {
  const address = z.email();
  return z.string().transform((raw, ctx): { address: string; name: string | undefined } => {
    const text = raw.trim();
    const named = /^(?:"((?:[^"\\]|\\.)*)"|([^"<>]*?))\s*<([^<>\s]*)>$/.exec(text);
    const addr = named ? named[3] : text;
    const name = named ? (named[1] !== undefined ? named[1].replace(/\\(.)/g, "$1") : named[2]).trim() : "";
    if (!address.safeParse(addr).success || /[\p{Cc}\u2028\u2029<>]/u.test(name)) {
      ctx.issues.push({ code: "custom", message: MAILBOX_MESSAGE, input: raw });
      return z.NEVER;
    }
    return { address: addr, name: name || undefined };
  });
}

/**
 * A whole number: digits only, so an empty or half-edited value (`PORT=`) is refused instead of read as 0 (for
 * PORT a random port, for the intervals "off"); unset means the default.
 */
function wholeNumber(min: number, max: number, fallback: number) {
  return z
    .string()
    .regex(/^\d*$/, `must be a whole number from ${min} to ${max}`)
    .refine((v) => v !== "", `must not be empty (unset it for the default, ${fallback})`)
    .transform(Number)
    .pipe(z.number().min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`))
    .default(fallback);
}

/** postgres:// or postgresql:// with something after it; anything else would silently run on the embedded database. */
const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

/** Every setting the server reads, parsed once from the environment (documented in .env.example). */
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("0.0.0.0"),
  PORT: wholeNumber(0, 65535, 3000),
  /** PostgreSQL connection string; unset (or empty) = embedded PGlite database under DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(POSTGRES_URL, "must be a PostgreSQL URL (postgresql://… or postgres://…); unset it for the embedded database under DATA_DIR")
    .optional()
    .or(z.literal("")),
  /**
   * How DATABASE_URL reaches PostgreSQL: "session" (directly, or a pooler in session mode) or "transaction" (a
   * pooler in transaction mode such as PgBouncer's; then DIRECT_DATABASE_URL is required). api/db.ts, PoolMode.
   */
  DATABASE_POOL_MODE: z.enum(["session", "transaction"]).default("session"),
  /** PostgreSQL without the pooler: migrations and their lock use it (default: DATABASE_URL). */
  DIRECT_DATABASE_URL: z
    .string()
    .regex(POSTGRES_URL, "must be a PostgreSQL URL (postgresql://… or postgres://…)")
    .optional()
    .or(z.literal("")),
  /** Connections each server process keeps to DATABASE_URL (Prisma and the direct reads share them; pg-boss keeps 4 more). */
  DATABASE_POOL_SIZE: wholeNumber(1, 500, 10),
  DATA_DIR: z.string().default("./.data"),
  UPLOADS_DIR: z.string().optional(),
  /** Main host (with port when not 80/443), e.g. "example.com"; tenants live at {slug}.{PUBLIC_HOST}. */
  PUBLIC_HOST: z.string().default("localhost:3000"),
  /** Scheme browsers reach PUBLIC_HOST with (https behind a TLS proxy); unset = https in production, http otherwise. */
  PUBLIC_SCHEME: z.enum(["http", "https"]).optional(),
  PAYMENT_PROVIDER: z.enum(["sandbox", "stripe"]).default("sandbox"),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Signing secret of the Connect webhook endpoint (account.updated of the businesses' accounts). */
  STRIPE_CONNECT_WEBHOOK_SECRET: z.string().optional(),
  /** Another Stripe API base (stripe-mock, a test double), e.g. http://127.0.0.1:12111. */
  STRIPE_API_BASE: z.url().optional(),
  /** Seed demo data on start when the database is empty (default: on outside production). */
  SEED_DEMO: bool.optional(),
  SESSION_TTL_DAYS: wholeNumber(1, 365, 30),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Serve the built web app from this folder. */
  WEB_DIST_DIR: z.string().default("./dist/web"),
  /** Behind a reverse proxy: trust X-Forwarded-* for client IPs (rate limits). */
  TRUST_PROXY: bool.default(false),
  /** Minutes between renewal passes (the job queue's billing schedule, api/jobs/); 0: no schedule (run `npm run billing:run` instead). */
  BILLING_INTERVAL_MINUTES: wholeNumber(0, 24 * 60, 60),
  /** Outside production: start the clock at this ISO instant (demos, browser tests). */
  CLOCK_START: z.iso.datetime({ offset: true }).optional(),
  /** redis://… shared by the server processes: public-page cache invalidations reach every process at once. */
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must start with redis:// or rediss://").optional().or(z.literal("")),
  /**
   * Lifetime of a cached anonymous public business page (GraphQL and REST); 0 turns the cache off. Edits
   * invalidate it at once in the editing process (and, with REDIS_URL, in every process); the lifetime bounds
   * member counts and, without Redis, edits made through another process.
   */
  PUBLIC_CACHE_TTL_SECONDS: wholeNumber(0, 24 * 60 * 60, 10),
  /** smtp://user:pass@host:587 or smtps://…:465 (nodemailer connection URL); unset = messages are kept, unsent, on the Sent mail page. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional().or(z.literal("")),
  /**
   * The From of every message, as operators write it: `noreply@example.com` or `Green Acres <noreply@example.com>`
   * (the name may be quoted). The address is every message's From address; the name is the From name of a
   * message whose business has no sender name (and of the platform's own messages). Default no-reply@ the public host.
   */
  MAIL_FROM: mailbox().optional(),
  /** Bearer token a scraper sends for /metrics (required in production to serve /metrics on the main port). */
  METRICS_TOKEN: z.string().regex(/^[\x21-\x7e]{16,256}$/, "must be 16 to 256 printable ASCII characters, no spaces").optional(),
  /** Serve /metrics on its own listener at METRICS_HOST:METRICS_PORT (and not on PORT). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Interface of the METRICS_PORT listener. */
  METRICS_HOST: z.string().min(1, "must not be empty").default("127.0.0.1"),
});

export type Config = {
  env: "development" | "production" | "test";
  host: string;
  port: number;
  databaseUrl: string | undefined;
  /** DIRECT_DATABASE_URL: PostgreSQL without the pooler, for migrations; unset = databaseUrl. */
  databaseDirectUrl: string | undefined;
  /** How databaseUrl reaches PostgreSQL (api/db.ts, PoolMode). */
  databasePoolMode: "session" | "transaction";
  /** Connections per process to databaseUrl. */
  databasePoolSize: number;
  dataDir: string;
  uploadsDir: string;
  publicHost: string;
  /** How browsers reach the site: https turns on HSTS and CSP upgrade-insecure-requests; absolute links use it. */
  publicScheme: "http" | "https";
  paymentProvider: "sandbox" | "stripe";
  stripe: { secretKey?: string; publishableKey?: string; webhookSecret?: string; connectWebhookSecret?: string; apiBase?: string };
  seedDemo: boolean;
  sessionTtlMs: number;
  logLevel: string;
  webDistDir: string;
  trustProxy: boolean;
  /** Interval of the billing schedule in ms (api/jobs/renewals-job.ts); 0 = no schedule. */
  billingIntervalMs: number;
  /** ISO instant the clock starts at (never in production). */
  clockStart: string | undefined;
  /** Redis shared by the server processes (public-page cache invalidation); unset = each process on its own. */
  redisUrl: string | undefined;
  /** Lifetime of a cached public business page in ms; 0 = no cache. */
  publicCacheTtlMs: number;
  /** Bearer token required for /metrics (api/observability/metrics.ts); unset = none (then production serves /metrics only on metricsPort). */
  metricsToken: string | undefined;
  /** Port of the separate /metrics listener; unset = /metrics on the main port (outside production, or with metricsToken). */
  metricsPort: number | undefined;
  /** Interface of the separate /metrics listener. */
  metricsHost: string;
  /** SMTP server messages go through (api/mail/); unset = held on the Sent mail page, never sent. */
  smtpUrl: string | undefined;
  /** The From address of every message (MAIL_FROM's address). */
  mailFrom: string;
  /** MAIL_FROM's name, if it has one: the From name of messages whose business has no sender name, and of the platform's. */
  mailFromName: string | undefined;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const missing: string[] = [];
  if (e.PAYMENT_PROVIDER === "stripe") {
    if (!e.STRIPE_SECRET_KEY) missing.push("  STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER=stripe");
    // Without them production could not verify Stripe's webhooks (payments left unsettled) or show the card form.
    if (e.NODE_ENV === "production" && !e.STRIPE_WEBHOOK_SECRET) missing.push("  STRIPE_WEBHOOK_SECRET: required in production when PAYMENT_PROVIDER=stripe (the webhook endpoint's signing secret, whsec_…)");
    if (e.NODE_ENV === "production" && !e.STRIPE_PUBLISHABLE_KEY) missing.push("  STRIPE_PUBLISHABLE_KEY: required in production when PAYMENT_PROVIDER=stripe (pk_live_… or pk_test_…, for the card form)");
  }
  if (e.DATABASE_POOL_MODE === "transaction") {
    // Migrations hold a session lock across transactions, which a transaction pooler cannot keep.
    if (!e.DATABASE_URL) missing.push("  DATABASE_POOL_MODE: transaction needs DATABASE_URL (the embedded database has no pooler)");
    else if (!e.DIRECT_DATABASE_URL) missing.push("  DIRECT_DATABASE_URL: required when DATABASE_POOL_MODE=transaction (migrations and their lock need PostgreSQL without the pooler)");
  }
  if (missing.length) throw new Error(`Invalid configuration:\n${missing.join("\n")}`);
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new Error("Invalid configuration:\n  METRICS_PORT: must differ from PORT");
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL || undefined,
    databaseDirectUrl: e.DIRECT_DATABASE_URL || undefined,
    databasePoolMode: e.DATABASE_POOL_MODE,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    dataDir,
    uploadsDir: path.resolve(e.UPLOADS_DIR ?? path.join(dataDir, "uploads")),
    publicHost: e.PUBLIC_HOST.toLowerCase(),
    publicScheme: e.PUBLIC_SCHEME ?? (e.NODE_ENV === "production" ? "https" : "http"),
    paymentProvider: e.PAYMENT_PROVIDER,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE,
    },
    seedDemo: e.SEED_DEMO ?? e.NODE_ENV !== "production",
    sessionTtlMs: e.SESSION_TTL_DAYS * 24 * 60 * 60 * 1000,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    trustProxy: e.TRUST_PROXY,
    clockStart: e.NODE_ENV === "production" ? undefined : e.CLOCK_START,
    billingIntervalMs: e.BILLING_INTERVAL_MINUTES * 60_000,
    redisUrl: e.REDIS_URL || undefined,
    publicCacheTtlMs: e.PUBLIC_CACHE_TTL_SECONDS * 1000,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM?.address ?? `no-reply@${mailDomain(e.PUBLIC_HOST)}`,
    mailFromName: e.MAIL_FROM?.name,
  };
}

/** The host part of PUBLIC_HOST for a default From address ("localhost:3000" → "localhost.localdomain", a name mail accepts). */
function mailDomain(publicHost: string): string {
  const host = publicHost.toLowerCase().replace(/:\d+$/, "");
  return host.includes(".") ? host : `${host}.localdomain`;
}

/**
 * The server's configuration from the process environment. A refused setting prints one line naming it and why
 * (no stack trace: everything loadConfig throws is about the settings) and the process exits 1.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    process.stderr.write(`${configErrorLine(error)}\n`);
    process.exit(1);
  }
}

/** "Invalid configuration:\n  PORT: …\n  DATABASE_URL: …" as one line: "Invalid configuration: PORT: …; DATABASE_URL: …". */
export function configErrorLine(error: unknown): string {
  const [head = "", ...issues] = (error instanceof Error ? error.message : String(error)).split("\n").map((l) => l.trim()).filter(Boolean);
  return issues.length ? `${head} ${issues.join("; ")}` : head;
}

/**
 * Configuration for tests: in-memory everything, no demo data, no public-page cache (tests write rows
 * directly through factories; the cache's own tests turn it on).
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEMO: "0", BILLING_INTERVAL_MINUTES: "0", PUBLIC_CACHE_TTL_SECONDS: "0" }),
    ...overrides,
  };
}
