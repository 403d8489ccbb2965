/**
 * /api/openapi.json: an OpenAPI 3.1 document generated from the routes' own zod schemas (zod's
 * toJSONSchema, JSON Schema 2020-12 as OpenAPI 3.1 uses), so the document cannot drift from what is parsed.
 */
import { z } from "zod";
import type { AnySpec } from "./router.ts";

/** The body of every error answer (errors.ts RestError); a route may declare a larger one for a status (errorBodies). */
export const ErrorBody = z.object({
  error: z.string(),
  reason: z.string().optional().describe("Machine-readable cause, e.g. past_cutoff, tenant_mismatch"),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid input",
  401: "No session, or an expired one",
  403: "Wrong role or tenant",
  404: "Unknown id or slug",
  409: "Conflict",
  413: "File too large",
  422: "Refused by a business rule (outside a window, past the cutoff, payment failed)",
  429: "Too many attempts",
};

type JsonSchema = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  return rest;
};

function parameters(spec: AnySpec) {
  const out: JsonSchema[] = [];
  for (const [where, schema] of [["path", spec.params], ["query", spec.query]] as const) {
    if (!schema) continue;
    const s = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || !!s.required?.includes(name), schema: prop });
    }
  }
  if (spec.access !== "admin") {
    out.push({ name: "X-Tenant", in: "header", required: false, description: "Business slug (else the host's subdomain)", schema: { type: "string" } });
  }
  return out;
}

export function openApiDocument(routes: AnySpec[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of routes) {
    const statuses = new Set([400, ...(spec.access === "public" ? [] : [401, 403]), ...(spec.params ? [404] : []), ...(spec.errors ?? [])]);
    const operation: Record<string, unknown> = {
      operationId: `${spec.method.toLowerCase()}${spec.path.replace(/[{}]/g, "").replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      summary: spec.summary,
      tags: [spec.tag],
      parameters: parameters(spec),
      responses: {
        200: { description: "OK", content: { [spec.produces ?? "application/json"]: { schema: jsonSchema(spec.response, "input") } } },
        ...Object.fromEntries(
          [...statuses].sort().map((s) => {
            const own = spec.errorBodies?.[s];
            const schema = own ? jsonSchema(own, "input") : { $ref: "#/components/schemas/Error" };
            return [s, { description: ERROR_TEXT[s] ?? "Error", content: { "application/json": { schema } } }];
          }),
        ),
      },
      ...(spec.access === "public" ? {} : { security: [{ bearer: [] }] }),
    };
    if (spec.body) operation.requestBody = { required: true, content: { "application/json": { schema: jsonSchema(spec.body, "input") } } };
    if (spec.multipart) {
      operation.requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { type: "object", required: [spec.multipart.field], properties: { [spec.multipart.field]: { type: "string", format: "binary", description: spec.multipart.description } } },
          },
        },
      };
    }
    paths[`/api${spec.path}`] ??= {};
    paths[`/api${spec.path}`][spec.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Membership platform REST API", version: "1.0.0", description: "The /api routes of the specification (§7), adapters over the same services as /graphql." },
    paths,
    components: {
      schemas: { Error: jsonSchema(ErrorBody, "output") },
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "Session token from /api/auth/login" } },
    },
  };
}
