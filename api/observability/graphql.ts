import { getOperationAST, GraphQLError, type ExecutionResult } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { Counter } from "prom-client";
import type { RequestContext } from "../context.ts";
import { DomainError } from "../shared/errors.ts";
import { bindRequestLog } from "./request-id.ts";

/**
 * GraphQL operations in metrics and logs: each answer is counted by operation name, type and outcome, and the
 * operation name goes onto every later log line of the request.
 *
 * Outcomes: `ok` (no error), `refused` (a domain refusal or a field error the client caused: not logged in, not
 * allowed, invalid input), `invalid` (the request itself was refused before running: syntax, validation, query
 * limits, input limits), `error` (an unexpected error: masked in production, always logged with its stack).
 */
type GraphQLOutcome = "ok" | "refused" | "invalid" | "error";

/** Names of at most 64 word characters are kept as they are; anything else is "other", no name "anonymous". */
const OPERATION_NAME = /^[A-Za-z0-9_]{1,64}$/;
/**
 * Distinct operation names one server counts; later new names are "other". The web app and partners use a
 * fixed set of operations, so this only bounds what a client inventing names can add to the metrics.
 */
const MAX_OPERATION_NAMES = 250;

type ServerContext = { serviceContext: RequestContext };
type Operation = { name: string | undefined; type: string; executed: boolean };

/** The first named operation of a document, found without parsing it (the cached fast path has no AST). */
const OPERATION_IN_TEXT = /(?:^|[\s,}])(query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

function operationInText(document: unknown): { name?: string; type: string } {
  if (typeof document !== "string") return { type: "unknown" };
  const m = OPERATION_IN_TEXT.exec(document);
  if (m) return { type: m[1], name: m[2] };
  return { type: document.trimStart().startsWith("{") ? "query" : "unknown" };
}

/** Whether an error in an answer is unexpected (a bug, the database): masked by production, or not a GraphQL or domain error. */
function isUnexpectedError(error: GraphQLError): boolean {
  if (error.extensions?.unexpected || error.extensions?.code === "INTERNAL_SERVER_ERROR") return true;
  const cause = error.originalError;
  return cause != null && !(cause instanceof GraphQLError) && !(cause instanceof DomainError);
}

/** The outcome of one GraphQL result (see GraphQLOutcome). */
function outcomeOf(result: ExecutionResult): GraphQLOutcome {
  let outcome: GraphQLOutcome = "ok";
  for (const error of result.errors ?? []) {
    if (isUnexpectedError(error)) return "error";
    // Errors of the request as a whole carry no path; field errors (domain refusals) do.
    if (!error.path) outcome = "invalid";
    else if (outcome === "ok") outcome = "refused";
  }
  return outcome;
}

export interface GraphQLObservability {
  /** The yoga plugin (api/graphql/yoga.ts) that counts every answer yoga gives and binds the operation name to the log. */
  plugin: Plugin<ServerContext>;
  /** An answer of the server's cached fast path (cachedPublicResponse), which never reaches yoga. */
  cachedAnswer(body: unknown, ctx: RequestContext): void;
}

export function graphqlObservability(operations: Counter<"operation" | "type" | "outcome">): GraphQLObservability {
  const known = new Set<string>();
  /**
   * The label of an operation name. A name joins the known set only once its operation validated and ran, so
   * requests refused before running cannot crowd out real operations.
   */
  const label = (name: string | undefined, executed: boolean): string => {
    if (!name) return "anonymous";
    if (!OPERATION_NAME.test(name)) return "other";
    if (known.has(name)) return name;
    if (!executed || known.size >= MAX_OPERATION_NAMES) return "other";
    known.add(name);
    return name;
  };
  const perRequest = new WeakMap<RequestContext, Operation>();

  const plugin: Plugin<ServerContext> = {
    onParams({ params, context }) {
      const ctx = (context as ServerContext).serviceContext;
      if (!ctx) return;
      const named = params.operationName ? { name: params.operationName, type: "unknown" } : operationInText(params.query);
      perRequest.set(ctx, { name: named.name, type: named.type, executed: false });
    },
    onExecute({ args }) {
      const ctx = (args.contextValue as unknown as ServerContext).serviceContext;
      if (!ctx) return;
      const operation = getOperationAST(args.document, args.operationName);
      const name = operation?.name?.value;
      perRequest.set(ctx, { name, type: operation?.operation ?? "unknown", executed: true });
      bindRequestLog(ctx.log, { operation: label(name, true) });
    },
    onResultProcess({ result, serverContext }) {
      const ctx = (serverContext as unknown as ServerContext).serviceContext;
      const op = ctx ? perRequest.get(ctx) : undefined;
      const labels = { operation: label(op?.name, op?.executed ?? false), type: op?.type ?? "unknown" };
      if (isAsyncIterable(result)) {
        operations.inc({ ...labels, outcome: "ok" });
        return;
      }
      for (const r of Array.isArray(result) ? result : [result]) operations.inc({ ...labels, outcome: outcomeOf(r) });
    },
  };

  return {
    plugin,
    cachedAnswer(body, ctx) {
      const b = body as { query?: unknown; operationName?: unknown };
      const named = typeof b.operationName === "string" && b.operationName ? { name: b.operationName } : operationInText(b.query);
      // Only results of operations that ran are cached, so the name is a real operation's.
      const operation = label(named.name, true);
      operations.inc({ operation, type: "query", outcome: "ok" });
      bindRequestLog(ctx.log, { operation });
    },
  };
}
