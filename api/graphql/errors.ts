import {
  ConflictError,
  DomainError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  RuleViolationError,
  UnauthenticatedError,
  ValidationError,
} from "../shared/errors.ts";
import { builder } from "./builder.ts";

/** GraphQL face of the domain errors: mutations list the ones they can return in their result union. */
export const ErrorInterface = builder.interfaceRef<Error>("Error").implement({
  description: "A refusal the client can show to the user.",
  fields: (t) => ({
    message: t.exposeString("message"),
    code: t.string({ resolve: (e) => (e instanceof DomainError ? e.code : "INTERNAL") }),
    reason: t.string({ nullable: true, resolve: (e) => (e instanceof DomainError ? (e.reason ?? null) : null) }),
  }),
});

const FieldIssue = builder.objectRef<{ path: string; message: string }>("FieldIssue").implement({
  fields: (t) => ({ path: t.exposeString("path"), message: t.exposeString("message") }),
});

builder.objectType(ValidationError, {
  name: "ValidationError",
  interfaces: [ErrorInterface],
  isTypeOf: (o) => o instanceof ValidationError,
  fields: (t) => ({ issues: t.field({ type: [FieldIssue], resolve: (e) => e.issues }) }),
});

// Error types that add nothing to the Error interface.
builder.objectType(UnauthenticatedError, { name: "UnauthenticatedError", interfaces: [ErrorInterface], isTypeOf: (o) => o instanceof UnauthenticatedError, fields: () => ({}) });
builder.objectType(ForbiddenError, { name: "ForbiddenError", interfaces: [ErrorInterface], isTypeOf: (o) => o instanceof ForbiddenError, fields: () => ({}) });
builder.objectType(NotFoundError, { name: "NotFoundError", interfaces: [ErrorInterface], isTypeOf: (o) => o instanceof NotFoundError, fields: () => ({}) });
builder.objectType(ConflictError, { name: "ConflictError", interfaces: [ErrorInterface], isTypeOf: (o) => o instanceof ConflictError, fields: () => ({}) });
builder.objectType(RuleViolationError, { name: "RuleViolationError", interfaces: [ErrorInterface], isTypeOf: (o) => o instanceof RuleViolationError, fields: () => ({}) });

builder.objectType(RateLimitedError, {
  name: "RateLimitedError",
  interfaces: [ErrorInterface],
  isTypeOf: (o) => o instanceof RateLimitedError,
  fields: (t) => ({ retryAfterSeconds: t.exposeInt("retryAfterSeconds") }),
});

/** Errors every mutation may return: bad input, not logged in, not allowed, missing target. */
export const COMMON_ERRORS = [ValidationError, UnauthenticatedError, ForbiddenError, NotFoundError];
/** Plus business-rule refusals and conflicts. */
export const RULE_ERRORS = [...COMMON_ERRORS, ConflictError, RuleViolationError];
