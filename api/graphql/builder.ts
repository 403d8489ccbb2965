import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin, { AuthScopeFailureType, type AuthFailure } from "@pothos/plugin-scope-auth";
import { DateTimeResolver, JSONResolver } from "graphql-scalars";
import { getNamedType } from "graphql";
import type { ServiceContext } from "../context.ts";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import DirectReadsPlugin, { NODE_ID_EXTENSION } from "./direct-reads.ts";
import { can, isAdmin, missingPartnerScope, scopeError, type BusinessPermission, type PartnerScope } from "../auth/policy.ts";
import { ForbiddenError, UnauthenticatedError } from "../shared/errors.ts";

export type GraphQLContext = ServiceContext;

/**
 * The partner scope behind a refusal: a `business` scope's permission, or an Order row's read rule (the type's
 * scope, run on each row it returns: `parent` is then the row).
 */
function lackedScope(ctx: ServiceContext, parent: unknown, typeName: string, failure: AuthFailure): PartnerScope | null {
  if (failure.kind === AuthScopeFailureType.AuthScope && failure.scope === "business") {
    const { id, permission } = failure.parameter as { id: number; permission: BusinessPermission };
    return missingPartnerScope(ctx, id, permission);
  }
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const f of failure.failures) {
      const scope = lackedScope(ctx, parent, typeName, f);
      if (scope) return scope;
    }
    return null;
  }
  if (failure.kind === AuthScopeFailureType.AuthScopeFunction && typeName === "Order") {
    const businessId = (parent as { businessId?: unknown } | null)?.businessId;
    return typeof businessId === "number" ? missingPartnerScope(ctx, businessId, "readOrders") : null;
  }
  return null;
}

const capitalize = (s: string) => s[0].toUpperCase() + s.slice(1);

/** The single schema builder. Each domain under api/ adds its types with `builder` from its schema.ts. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    ID: { Input: string; Output: string | number };
  };
  AuthScopes: {
    /** Any logged-in user (not a partner token). */
    loggedIn: boolean;
    admin: boolean;
    /** The actor holds this permission in the business (see api/auth/policy.ts). */
    business: { id: number; permission: BusinessPermission };
  };
  DefaultFieldNullability: false;
}>({
  // errors outermost, so a scope-auth refusal on a mutation comes back as its typed ForbiddenError; scope-auth
  // next, so no resolver (or plugin wrapping one) runs before its check; direct reads directly outside Prisma
  // (node ids and the column fields of a row that carries its columns read it at once: direct-reads.ts).
  plugins: [ErrorsPlugin, ScopeAuthPlugin, DirectReadsPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (ctx) => ({
      loggedIn: ctx.actor.kind === "user",
      admin: isAdmin(ctx),
      business: ({ id, permission }) => can(ctx, id, permission),
    }),
    // Same errors the services throw, so clients see one vocabulary whichever layer refused.
    // A partner token outside its scopes is told which scope it lacks.
    unauthorizedError: (parent, ctx, info, result) => {
      if (ctx.actor.kind === "anonymous") return new UnauthenticatedError();
      const scope = ctx.actor.kind === "partner" ? lackedScope(ctx, parent, getNamedType(info.returnType).name, result.failure) : null;
      return scope ? scopeError(scope) : new ForbiddenError();
    },
    treatErrorsAsUnauthorized: false,
  },
  errors: {
    defaultTypes: [],
    defaultResultOptions: { name: ({ fieldName }) => `${capitalize(fieldName)}Success` },
    defaultUnionOptions: { name: ({ fieldName }) => `${capitalize(fieldName)}Result` },
  },
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    // Lists that are not connections still load in one query through the plugin's relation selection.
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : "warn",
  },
  relay: {
    clientMutationId: "omit",
    idFieldOptions: { extensions: { [NODE_ID_EXTENSION]: true } },
    cursorType: "String",
    // node(id:) and nodes(ids:) are ours (api/graphql/node.ts): each type's read rule, null for a missing,
    // malformed or unreadable id, at most 100 ids.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
});

builder.addScalarType("DateTime", DateTimeResolver);
builder.addScalarType("JSON", JSONResolver);

builder.queryType({});
builder.mutationType({});
