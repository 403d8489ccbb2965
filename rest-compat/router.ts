import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { RequestContext } from "../api/context.ts";
import { UnauthenticatedError } from "../api/shared/errors.ts";
import { parseInput } from "../api/shared/validation.ts";

type Method = "GET" | "POST" | "DELETE";
type AnyObject = z.ZodType<Record<string, unknown>>;

/**
 * Who may call a route (spec §7 header rules):
 * - public: anyone; the tenant comes from X-Tenant or the host.
 * - member: a valid bearer token (401 without one or when expired); the tenant as for public.
 * - admin: a valid bearer token; X-Tenant is ignored (the client removes it for /api/admin).
 * Roles are checked by the services, not here.
 */
type Access = "public" | "member" | "admin";

interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

interface RouteSpec<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType> {
  method: Method;
  /** Spec path under /api, with {param} placeholders (as the spec writes them). */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** Request body is multipart/form-data (documented only; the handler reads it). */
  multipart?: { field: string; description: string };
  response: R;
  /**
   * A download that is not JSON (text/csv): the handler sends the stream itself and its answer's headers;
   * `response` then describes the body for the OpenAPI document.
   */
  produces?: "text/csv";
  /** Statuses other than 200 the route documents, besides the common error statuses. */
  errors?: number[];
  /** An error status whose body carries more than the common error body (openapi.ts ErrorBody). */
  errorBodies?: Partial<Record<number, z.ZodType>>;
  handler(
    ctx: RequestContext,
    input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<z.input<R> | FastifyReply>;
}

export type AnySpec = RouteSpec<AnyObject, AnyObject, z.ZodType, z.ZodType>;

export interface Router {
  add<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType>(spec: RouteSpec<P, Q, B, R>): void;
}

const EMPTY = z.object({});

/** The routes that route files declare, without mounting them: the OpenAPI document's and the contract tests' list. */
export function declaredRoutes(files: ((r: Router) => void)[]): AnySpec[] {
  const specs: AnySpec[] = [];
  for (const file of files) file({ add: (spec) => void specs.push(spec) });
  return specs;
}

/** Registers spec routes on a Fastify scope and keeps their declarations for the OpenAPI document. */
export function createRouter(
  app: FastifyInstance,
  serviceContext: (req: FastifyRequest) => Promise<RequestContext>,
  registry: AnySpec[],
): Router {
  return {
    add(spec) {
      registry.push(spec);
      app.route({
        method: spec.method,
        url: spec.path.replace(/\{(\w+)\}/g, ":$1"),
        handler: async (req, reply) => {
          const base = await serviceContext(req);
          if (spec.access !== "public") {
            if (base.credentials === "invalid") throw new UnauthenticatedError("Your session has expired. Please log in again.", "session_expired");
            if (base.credentials !== "valid") throw new UnauthenticatedError();
          }
          // Admin routes act on the platform or name their business in the path: never the tenant header.
          const ctx: RequestContext = spec.access === "admin" ? { ...base, tenant: null } : base;
          const input = {
            params: parseInput(spec.params ?? EMPTY, req.params ?? {}),
            query: parseInput(spec.query ?? EMPTY, req.query ?? {}),
            body: spec.body ? parseInput(spec.body, req.body ?? {}) : undefined,
          } as RouteInput<never, never, never>;
          const result = await spec.handler(ctx, input, req, reply);
          if (reply.sent || spec.produces) return reply;
          return reply.send(result);
        },
      });
    },
  };
}

// ── Shared input pieces ──────────────────────────────────────────────────────────────────────────────

/** A numeric id in a path segment. */
/** Largest value of the integer id columns (as api/graphql/ids.ts MAX_ROW_ID: the adapters do not import each other). */
const MAX_ROW_ID = 2 ** 31 - 1;

/** A row id in a path: decimal digits without a leading zero, 1..MAX_ROW_ID; anything else answers 400 invalid_input. */
export const idParam = (message = "Invalid id") =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, message)
    .transform(Number)
    .refine((id) => id <= MAX_ROW_ID, message);

/** `{ ok: true }` answers of actions without a payload. */
export const Ok = z.object({ ok: z.literal(true) });

/** `{id}` of the /admin/businesses/{id}/… routes. */
export const businessIdParams = z.object({ id: idParam("Invalid business id") });
