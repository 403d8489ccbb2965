/**
 * Domain errors. Services throw these; GraphQL exposes them as typed error objects (errors plugin) and the
 * REST layer maps them to a status and `{ error, reason }`. Messages are user-facing (spec §8 wording where
 * the spec has one).
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly httpStatus: number;
  /** Machine-readable detail, e.g. "past_cutoff" (REST `reason`). */
  readonly reason?: string;
  constructor(message: string, reason?: string) {
    super(message);
    this.name = new.target.name;
    this.reason = reason;
  }
}

export interface FieldIssue {
  /** Dotted input path, e.g. "address.street". */
  path: string;
  message: string;
}

export class ValidationError extends DomainError {
  readonly code = "VALIDATION";
  readonly httpStatus = 400;
  readonly issues: FieldIssue[];
  constructor(message: string, issues: FieldIssue[] = []) {
    super(message, "invalid_input");
    this.issues = issues;
  }
}

export class UnauthenticatedError extends DomainError {
  readonly code = "UNAUTHENTICATED";
  readonly httpStatus = 401;
  constructor(message = "Please log in to continue.", reason = "unauthenticated") {
    super(message, reason);
  }
}

export class ForbiddenError extends DomainError {
  readonly code = "FORBIDDEN";
  readonly httpStatus = 403;
  constructor(message = "You do not have permission to do this.", reason = "forbidden") {
    super(message, reason);
  }
}

export class NotFoundError extends DomainError {
  readonly code = "NOT_FOUND";
  readonly httpStatus = 404;
  constructor(what: string) {
    super(`${what} not found`, "not_found");
  }
}

export class ConflictError extends DomainError {
  readonly code = "CONFLICT";
  readonly httpStatus = 409;
  constructor(message: string, reason = "conflict") {
    super(message, reason);
  }
}

/** A well-formed request that a business rule refuses (outside a window, past the cutoff, …). */
export class RuleViolationError extends DomainError {
  readonly code = "RULE_VIOLATION";
  /** 422; a refusal because of what others did first answers 409 (catalog/capacity.ts SoldOutError). */
  readonly httpStatus: number = 422;
  constructor(message: string, reason: string) {
    super(message, reason);
  }
}

export class RateLimitedError extends DomainError {
  readonly code = "RATE_LIMITED";
  readonly httpStatus = 429;
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`Too many attempts. Please try again in ${retryAfterSeconds} seconds.`, "rate_limited");
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
