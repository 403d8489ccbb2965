import pino, { type Logger } from "pino";
import { testConfig, type Config } from "../../api/config.ts";
import { buildApp, type App } from "../../server/app.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { createTestDatabase, type TestDatabase } from "./database.ts";

interface RequestOptions {
  token?: string | null;
  tenant?: string | null;
  host?: string;
}

interface GraphQLResponse<T = any> {
  data?: T;
  errors?: { message: string; extensions?: Record<string, unknown>; path?: (string | number)[] }[];
}

export interface TestApp {
  app: App;
  db: TestDatabase;
  clock: FixedClock;
  config: Config;
  gql<T = any>(query: string, variables?: Record<string, unknown>, opts?: RequestOptions): Promise<GraphQLResponse<T>>;
  /** Like gql, but fails the test on any GraphQL error and returns data. */
  gqlOk<T = any>(query: string, variables?: Record<string, unknown>, opts?: RequestOptions): Promise<T>;
  close(): Promise<void>;
}

/** The whole server in-process (Fastify inject, no port) on a fresh database, with a fixed clock. */
export async function createTestApp(opts: { now?: string; config?: Partial<Config>; logQueries?: boolean; logger?: Logger } = {}): Promise<TestApp> {
  const db = await createTestDatabase({ logQueries: opts.logQueries });
  const clock = new FixedClock(opts.now ?? "2026-03-05T15:00:00Z");
  const config = testConfig(opts.config);
  const app = await buildApp({ config, db, clock, logger: opts.logger ?? pino({ level: "silent" }) });
  await app.ready();

  async function gql(query: string, variables: Record<string, unknown> = {}, o: RequestOptions = {}) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.tenant) headers["x-tenant"] = o.tenant;
    if (o.host) headers.host = o.host;
    const res = await app.inject({ method: "POST", url: "/graphql", headers, payload: { query, variables } });
    return res.json();
  }
  return {
    app,
    db,
    clock,
    config,
    gql,
    async gqlOk(query, variables, o) {
      const res = await gql(query, variables, o);
      if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors, null, 2)}`);
      return res.data;
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
