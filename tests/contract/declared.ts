/**
 * Every REST answer a test receives is checked against what its route declares (rest-compat/router.ts
 * RouteSpec): a 2xx body against the route's `response` schema, an error body against the common ErrorBody
 * (or the route's own for that status). Objects are closed: a key the schema does not declare fails too.
 *
 * Coverage: each contract test file notes the routes that answered it 2xx in a ledger shared by the run
 * (tests/contract/ledger.setup.ts); when the last contract file finishes, it fails listing every declared
 * route no contract test got a checked 2xx answer from.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, inject } from "vitest";
import { z } from "zod";
import { restRouteSpecs } from "../../rest-compat/index.ts";
import { ErrorBody } from "../../rest-compat/openapi.ts";
import type { AnySpec } from "../../rest-compat/router.ts";

declare module "vitest" {
  export interface ProvidedContext {
    restContractLedger: string;
  }
}

// ── Closed schemas ───────────────────────────────────────────────────────────────────────────────────

const LEAVES = new Set([
  "string", "number", "int", "boolean", "bigint", "literal", "enum", "null", "undefined", "void", "unknown", "any", "never", "nan", "date", "template_literal", "symbol", "custom",
]);
const closed = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with every object closed (unknown keys fail), checks and refinements kept. A JSON body is what
 * the handler returned (z.input of the response), so a pipe is checked by its input side.
 */
function strictSchema(schema: z.ZodType): z.ZodType {
  const done = closed.get(schema);
  if (done) return done;
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const s = (x: unknown) => strictSchema(x as z.ZodType);
  let out: z.ZodType;
  switch (def.type) {
    case "object": {
      const shape = Object.fromEntries(Object.entries(def.shape as Record<string, z.ZodType>).map(([k, v]) => [k, s(v)]));
      // A declared catchall (.loose(), .catchall(x)) stays what it says; an ordinary object becomes strict.
      out = schema.clone({ ...def, shape, catchall: def.catchall ? s(def.catchall) : z.never() } as never);
      break;
    }
    case "array":
      out = schema.clone({ ...def, element: s(def.element) } as never);
      break;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      out = schema.clone({ ...def, innerType: s(def.innerType) } as never);
      break;
    case "union":
      out = schema.clone({ ...def, options: (def.options as z.ZodType[]).map(s) } as never);
      break;
    case "record":
      out = schema.clone({ ...def, keyType: s(def.keyType), valueType: s(def.valueType) } as never);
      break;
    case "tuple":
      out = schema.clone({ ...def, items: (def.items as z.ZodType[]).map(s), rest: def.rest ? s(def.rest) : null } as never);
      break;
    case "pipe":
      out = s(def.in);
      break;
    case "lazy":
      out = z.lazy(() => s((def.getter as () => z.ZodType)()));
      break;
    default:
      // Closing both sides of an intersection would refuse each other's keys; anything else is unknown here.
      if (!LEAVES.has(def.type)) throw new Error(`declared.ts cannot close a zod "${def.type}" schema; teach strictSchema about it`);
      out = schema;
  }
  closed.set(schema, out);
  return out;
}

// ── The registry ─────────────────────────────────────────────────────────────────────────────────────

interface DeclaredRoute {
  spec: AnySpec;
  /** "GET /api/my/subscriptions/{id}/config" */
  key: string;
  pattern: RegExp;
  params: number;
}

const ROUTES: DeclaredRoute[] = restRouteSpecs()
  .map((spec) => ({
    spec,
    key: `${spec.method} /api${spec.path}`,
    pattern: new RegExp(`^/api${spec.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`),
    params: (spec.path.match(/\{/g) ?? []).length,
  }))
  // Static segments win over parameters, as in Fastify's router.
  .sort((a, b) => a.params - b.params);

export const declaredRouteKeys = () => ROUTES.map((r) => r.key);

/** The declared route that answers `method url`, if any. */
function routeOf(method: string, url: string): DeclaredRoute | undefined {
  const pathname = url.split("?")[0];
  return ROUTES.find((r) => r.spec.method === method && r.pattern.test(pathname));
}

/** /api answers that are not spec routes (served by the plugin itself). */
const UNDECLARED_OK = new Set(["GET /api/openapi.json"]);

const ErrorBodyStrict = strictSchema(ErrorBody);

/** Throws when an /api answer does not match its declaration; notes a 2xx answer for the coverage check. */
export function checkAnswer(method: string, url: string, res: { status: number; contentType: string | undefined; body: unknown }) {
  if (!url.startsWith("/api/") || (res.status >= 300 && res.status < 400)) return;
  const route = routeOf(method, url);
  const where = `${method} ${url}${route ? ` (declared ${route.key})` : ""} answered ${res.status}`;
  const produces = route?.spec.produces;
  if (produces && res.status < 300) {
    // A download (the memberships CSV): its media type, and a body of text the route describes.
    if (!res.contentType?.startsWith(produces)) throw new Error(`${where} with ${res.contentType ?? "no content type"}, not ${produces}`);
    if (!route.spec.response.safeParse(res.body).success) throw new Error(`${where} with a body its declared response schema refuses`);
    ledger.note(route.key);
    return;
  }
  if (!res.contentType?.includes("application/json")) throw new Error(`${where} with ${res.contentType ?? "no content type"}, not JSON`);
  let schema: z.ZodType;
  if (res.status < 300) {
    if (!route) {
      if (UNDECLARED_OK.has(`${method} ${url.split("?")[0]}`)) return;
      throw new Error(`${where}, but no route in rest-compat declares it`);
    }
    schema = strictSchema(route.spec.response);
  } else {
    const own = route?.spec.errorBodies?.[res.status];
    schema = own ? strictSchema(own) : ErrorBodyStrict;
  }
  const parsed = schema.safeParse(res.body);
  if (!parsed.success) {
    throw new Error(`${where} with a body its declared ${res.status < 300 ? "response" : "error"} schema refuses:\n${z.prettifyError(parsed.error)}\nbody: ${JSON.stringify(res.body).slice(0, 2000)}`);
  }
  if (res.status < 300 && route) ledger.note(route.key);
}

// ── Coverage ─────────────────────────────────────────────────────────────────────────────────────────

const CONTRACT_DIR = path.dirname(new URL(import.meta.url).pathname);
const contractFiles = () => fs.readdirSync(CONTRACT_DIR).filter((f) => f.endsWith(".test.ts"));

const ledger = (() => {
  const dir = inject("restContractLedger");
  // Only contract test files count towards coverage; other suites using the client are checked, not counted.
  const contractFile = () => {
    const testPath = expect.getState().testPath ?? "";
    return dir && path.dirname(testPath) === CONTRACT_DIR ? path.basename(testPath) : null;
  };
  const seen = new Set<string>();
  return {
    note(key: string) {
      const mine = contractFile();
      if (!mine || seen.has(key)) return;
      seen.add(key);
      fs.appendFileSync(path.join(dir, `${mine}.routes`), `${key}\n`);
    },
    /** Marks this file done; the last contract file of a run that includes all of them checks coverage. */
    finish(): string[] | null {
      const mine = contractFile();
      if (!mine) return null;
      fs.writeFileSync(path.join(dir, `${mine}.done`), "");
      const present = new Set(fs.readdirSync(dir));
      if (!contractFiles().every((f) => present.has(`${f}.done`))) return null;
      const called = new Set([...present].filter((f) => f.endsWith(".routes")).flatMap((f) => fs.readFileSync(path.join(dir, f), "utf8").split("\n")));
      return declaredRouteKeys().filter((k) => !called.has(k));
    },
  };
})();

afterAll(() => {
  const missing = ledger.finish();
  if (missing) expect(missing, "declared REST routes no contract test got a 2xx answer from (tests/contract)").toEqual([]);
});
