import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configErrorLine, loadConfig } from "../../api/config.ts";

/** The one-line reason loadConfig gives for an environment, or null when it accepts it. */
function refusal(env: NodeJS.ProcessEnv): string | null {
  try {
    loadConfig(env);
    return null;
  } catch (error) {
    return configErrorLine(error);
  }
}

const STRIPE = { PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" };

describe("PORT", () => {
  it("defaults to 3000 and takes a whole number from 0 to 65535", () => {
    expect(loadConfig({}).port).toBe(3000);
    expect(loadConfig({ PORT: "8080" }).port).toBe(8080);
    expect(loadConfig({ PORT: "0" }).port).toBe(0);
    expect(loadConfig({ PORT: "65535" }).port).toBe(65535);
  });

  it("refuses an empty value (it read as 0: a random port) with a one-line reason", () => {
    expect(refusal({ PORT: "" })).toBe("Invalid configuration: PORT: must not be empty (unset it for the default, 3000)");
  });

  it("refuses what is not a whole number in range", () => {
    for (const port of ["abc", " 3000", "3e3", "30.5", "-1", "0x50"]) expect(refusal({ PORT: port }), port).toBe("Invalid configuration: PORT: must be a whole number from 0 to 65535");
    expect(refusal({ PORT: "65536" })).toBe("Invalid configuration: PORT: must be from 0 to 65535");
  });

  it("refuses empty intervals too, which read as 0 = off", () => {
    expect(refusal({ BILLING_INTERVAL_MINUTES: "" })).toBe("Invalid configuration: BILLING_INTERVAL_MINUTES: must not be empty (unset it for the default, 60)");
    expect(refusal({ PUBLIC_CACHE_TTL_SECONDS: "" })).toMatch(/^Invalid configuration: PUBLIC_CACHE_TTL_SECONDS: must not be empty/);
    expect(refusal({ SESSION_TTL_DAYS: "" })).toMatch(/^Invalid configuration: SESSION_TTL_DAYS: must not be empty/);
    expect(loadConfig({ BILLING_INTERVAL_MINUTES: "0", PUBLIC_CACHE_TTL_SECONDS: "0", SESSION_TTL_DAYS: "7" })).toMatchObject({ billingIntervalMs: 0, publicCacheTtlMs: 0, sessionTtlMs: 7 * 86_400_000 });
  });
});

describe("DATABASE_URL", () => {
  it("takes postgresql:// and postgres:// URLs", () => {
    expect(loadConfig({ DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/membership" }).databaseUrl).toBe("postgresql://postgres@127.0.0.1:5432/membership");
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@db.internal/app?sslmode=require" }).databaseUrl).toBe("postgres://u:p@db.internal/app?sslmode=require");
  });

  it("unset or empty: the embedded database", () => {
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: "" }).databaseUrl).toBeUndefined();
  });

  it("refuses anything else (it silently ran on the embedded database) with a one-line reason", () => {
    for (const url of ["mysql://root@localhost/shop", "pglite:./data", "./.data/pglite", "localhost:5432/membership", "postgresql://", "http://postgres@127.0.0.1/db"]) {
      expect(refusal({ DATABASE_URL: url }), url).toBe(
        "Invalid configuration: DATABASE_URL: must be a PostgreSQL URL (postgresql://… or postgres://…); unset it for the embedded database under DATA_DIR",
      );
    }
  });
});

describe("DATABASE_POOL_MODE and DIRECT_DATABASE_URL (a transaction pooler in front of PostgreSQL)", () => {
  const POOLED = "postgresql://app@pgbouncer.internal:6432/membership";
  const DIRECT = "postgresql://app@db.internal:5432/membership";

  it("defaults to session mode, migrations on DATABASE_URL, 10 connections per process", () => {
    expect(loadConfig({ DATABASE_URL: DIRECT })).toMatchObject({ databasePoolMode: "session", databaseDirectUrl: undefined, databasePoolSize: 10 });
  });

  it("takes transaction mode with a direct URL, and a pool size", () => {
    expect(loadConfig({ DATABASE_URL: POOLED, DATABASE_POOL_MODE: "transaction", DIRECT_DATABASE_URL: DIRECT, DATABASE_POOL_SIZE: "25" })).toMatchObject({
      databaseUrl: POOLED,
      databaseDirectUrl: DIRECT,
      databasePoolMode: "transaction",
      databasePoolSize: 25,
    });
  });

  it("refuses transaction mode without a direct URL, or without PostgreSQL, with a one-line reason", () => {
    expect(refusal({ DATABASE_URL: POOLED, DATABASE_POOL_MODE: "transaction" })).toBe(
      "Invalid configuration: DIRECT_DATABASE_URL: required when DATABASE_POOL_MODE=transaction (migrations and their lock need PostgreSQL without the pooler)",
    );
    expect(refusal({ DATABASE_POOL_MODE: "transaction" })).toBe("Invalid configuration: DATABASE_POOL_MODE: transaction needs DATABASE_URL (the embedded database has no pooler)");
  });

  it("refuses an unknown mode, a direct URL that is not PostgreSQL, and a pool size out of range", () => {
    expect(refusal({ DATABASE_URL: POOLED, DATABASE_POOL_MODE: "statement" })).toMatch(/^Invalid configuration: DATABASE_POOL_MODE: /);
    expect(refusal({ DATABASE_URL: POOLED, DIRECT_DATABASE_URL: "db.internal:5432" })).toBe("Invalid configuration: DIRECT_DATABASE_URL: must be a PostgreSQL URL (postgresql://… or postgres://…)");
    expect(refusal({ DATABASE_POOL_SIZE: "0" })).toBe("Invalid configuration: DATABASE_POOL_SIZE: must be from 1 to 500");
  });
});

describe("Stripe", () => {
  it("needs the secret key wherever PAYMENT_PROVIDER=stripe", () => {
    expect(refusal({ PAYMENT_PROVIDER: "stripe" })).toBe("Invalid configuration: STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER=stripe");
  });

  it("in production also needs the webhook secret and the publishable key, naming each missing one", () => {
    expect(refusal({ NODE_ENV: "production", ...STRIPE })).toBeNull();
    expect(refusal({ NODE_ENV: "production", ...STRIPE, STRIPE_WEBHOOK_SECRET: undefined })).toBe(
      "Invalid configuration: STRIPE_WEBHOOK_SECRET: required in production when PAYMENT_PROVIDER=stripe (the webhook endpoint's signing secret, whsec_…)",
    );
    expect(refusal({ NODE_ENV: "production", ...STRIPE, STRIPE_PUBLISHABLE_KEY: "" })).toBe(
      "Invalid configuration: STRIPE_PUBLISHABLE_KEY: required in production when PAYMENT_PROVIDER=stripe (pk_live_… or pk_test_…, for the card form)",
    );
    const both = refusal({ NODE_ENV: "production", PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_live_x" });
    expect(both).toMatch(/^Invalid configuration: STRIPE_WEBHOOK_SECRET: required .*; STRIPE_PUBLISHABLE_KEY: required /);
  });

  it("outside production starts without them (stripe listen, tests), and the sandbox needs none", () => {
    expect(refusal({ NODE_ENV: "development", PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_x" })).toBeNull();
    expect(refusal({ NODE_ENV: "production", PAYMENT_PROVIDER: "sandbox" })).toBeNull();
  });
});

describe("configErrorLine", () => {
  it("puts every issue on one line", () => {
    expect(configErrorLine(new Error("Invalid configuration:\n  PORT: must not be empty\n  DATABASE_URL: must be a PostgreSQL URL"))).toBe(
      "Invalid configuration: PORT: must not be empty; DATABASE_URL: must be a PostgreSQL URL",
    );
    expect(refusal({ PORT: "", DATABASE_URL: "mysql://x" })).toMatch(/^Invalid configuration: PORT: .*; DATABASE_URL: .*$/);
  });
});

describe("the server with a refused setting", () => {
  const ROOT = path.resolve(import.meta.dirname, "../..");

  /** Starts server/main.ts with these settings and waits for it to exit. */
  function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const { DATABASE_URL: _d, PORT: _p, NODE_ENV: _n, ...base } = process.env;
    return new Promise((resolve) => {
      execFile(
        path.join(ROOT, "node_modules/.bin/tsx"),
        ["server/main.ts"],
        { cwd: ROOT, env: { ...base, DATA_DIR: path.join(os.tmpdir(), `config-test-${process.pid}-never-created`), ...env }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
  }

  for (const [name, env, reason] of [
    ["an empty PORT", { PORT: "" }, "Invalid configuration: PORT: must not be empty (unset it for the default, 3000)"],
    ["a DATABASE_URL that is not PostgreSQL", { DATABASE_URL: "mysql://root@127.0.0.1/shop" }, "Invalid configuration: DATABASE_URL: must be a PostgreSQL URL (postgresql://… or postgres://…); unset it for the embedded database under DATA_DIR"],
    ["a transaction pooler without a direct URL", { NODE_ENV: "production", DATABASE_URL: "postgresql://postgres@127.0.0.1:6432/membership", DATABASE_POOL_MODE: "transaction" }, "Invalid configuration: DIRECT_DATABASE_URL: required when DATABASE_POOL_MODE=transaction (migrations and their lock need PostgreSQL without the pooler)"],
    ["Stripe in production without its webhook secret", { NODE_ENV: "production", PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" }, "Invalid configuration: STRIPE_WEBHOOK_SECRET: required in production when PAYMENT_PROVIDER=stripe (the webhook endpoint's signing secret, whsec_…)"],
  ] as const) {
    it(`exits 1 printing one line, no stack trace: ${name}`, async () => {
      const res = await start(env);
      expect(res.code).toBe(1);
      expect(res.stderr.replace(/\n$/, "").split("\n")).toEqual([reason]);
      expect(res.stdout).toBe("");
    });
  }
});
