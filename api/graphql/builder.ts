import SchemaBuilder from "@pothos/core";
import ErrorsPlugin from "@pothos/plugin-errors";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import { DateTimeResolver, JSONResolver } from "graphql-scalars";
import type { ServiceContext } from "../context.ts";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import DirectReadsPlugin, { NODE_ID_EXTENSION } from "./direct-reads.ts";
import { can, isAdmin, type BusinessPermission } from "../auth/policy.ts";
import { ForbiddenError, UnauthenticatedError } from "../shared/errors.ts";

export type GraphQLContext = ServiceContext;

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
    unauthorizedError: (_parent, ctx) =>
      ctx.actor.kind === "anonymous" ? new UnauthenticatedError() : new ForbiddenError(),
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
