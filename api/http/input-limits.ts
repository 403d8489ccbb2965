/**
 * Input limits at the edge (hostile input): every request's JSON body, query string and route
 * parameters, every GraphQL variable and inline literal (api/graphql/input-limits.ts) and every multipart
 * field and filename (rest-compat/uploads.ts) is refused with a 400 when it holds
 *
 * - a control character: C0 (U+0000–U+001F) except tab, line feed and carriage return, DEL (U+007F), C1
 *   (U+0080–U+009F), or a lone UTF-16 surrogate. PostgreSQL refuses NUL after a service accepted it (a 500),
 *   terminals and logs act on the others, and a lone surrogate is not text (it would be stored as U+FFFD).
 *   Tab and line breaks stay allowed here because multi-line text needs them; single-line fields refuse them
 *   in their zod rule (`singleLine` in api/shared/validation.ts). Format characters (zero-width joiners,
 *   bidirectional marks) are real text in many languages and stay allowed;
 * - JSON nested deeper than MAX_DEPTH levels (the body itself is level 1), which would overflow the stack of
 *   the recursive walks downstream (zod, graphql-js input coercion, JSON.stringify);
 * - an array (or a repeated query parameter) of more than MAX_ARRAY entries.
 *
 * The check runs before any handler, service or database call, so a refused request writes nothing. It
 * walks the parsed body with an explicit stack and stops at the first finding, so even a 10,000-level body is
 * refused in well under a millisecond of walking. Parsing the body first is safe: V8's JSON.parse and
 * Fastify's prototype-poisoning filter (secure-json-parse) are iterative, not recursive (a million levels
 * parse without overflow), and the 2 MB body limit bounds the work. (Replacing the root JSON parser instead
 * would also clash with the raw-body parser of the Stripe webhook route.)
 *
 * Answers: REST `400 { error, reason: "invalid_input", issues: [{ path, message }] }` (rest-compat's shape,
 * through its error handler); /graphql `400 { errors: [{ message, extensions: { code: "BAD_USER_INPUT",
 * reason: "invalid_input", issues } }] }`, the same as the GraphQL plugin answers for what it finds.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ValidationError, type FieldIssue } from "../shared/errors.ts";

/** Deepest JSON accepted: objects and arrays inside one another, the outermost counting as level 1. */
export const MAX_DEPTH = 32;
/** Most entries in one array (JSON array, GraphQL list, repeated query parameter). */
export const MAX_ARRAY = 1000;

/**
 * Control characters refused in any text: C0 but tab/LF/CR, DEL, C1, and surrogates that are not part of a
 * pair. (Single-line fields also refuse tab and line breaks, through their zod rule.)
 */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern exists to refuse
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const MESSAGES = {
  control: (codePoint: string) => `Text may not contain control characters (found ${codePoint})`,
  controlInName: (codePoint: string) => `Field names may not contain control characters (found ${codePoint})`,
  depth: `The input is nested too deeply (at most ${MAX_DEPTH} levels)`,
  array: (n: number) => `A list may have at most 1,000 entries (this one has ${n.toLocaleString("en-US")})`,
} as const;

const codePointOf = (s: string) => `U+${s.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The first control character of a text, as "U+0000", or null when the text is clean. */
export function controlCharacterIn(text: string): string | null {
  const m = CONTROL.exec(text);
  return m ? codePointOf(m[0]) : null;
}

/** A step of the walk: a value and where it sits (parent chain, so paths are only built for a finding). */
interface Step {
  value: unknown;
  /** Containers above this value (the root's level is 1 when it is an object or array). */
  level: number;
  key: string | number | null;
  parent: Step | null;
}

function pathOf(step: Step | null, prefix: string): string {
  const parts: (string | number)[] = [];
  for (let s = step; s; s = s.parent) if (s.key !== null) parts.push(s.key);
  if (prefix) parts.push(prefix);
  return parts.reverse().join(".");
}

/**
 * A JSON-like object: a plain object, an object without prototype, or one whose prototype has none (Fastify's
 * query-string and route-parameter objects are made that way).
 */
const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
};

/**
 * The first hostile thing in a parsed JSON value (or a query-string object): a control character in a string
 * or a key, nesting deeper than MAX_DEPTH, or an array longer than MAX_ARRAY; null when there is none. Paths
 * are dotted from `prefix` ("profile.name", "variables.input.code", "items.0.name"). `levelsAbove` is how many
 * levels the root's containers are NOT to count: 1 for GraphQL variables (each variable's value is level 1,
 * as an inline argument's is), 2 for a GraphQL request body. Iterative: any depth is safe. Values that are not
 * plain JSON (buffers, streams) are left alone.
 */
export function findHostileInput(root: unknown, prefix = "", levelsAbove = 0): FieldIssue | null {
  const stack: Step[] = [{ value: root, level: -levelsAbove, key: null, parent: null }];
  while (stack.length) {
    const step = stack.pop()!;
    const { value } = step;
    if (typeof value === "string") {
      const found = controlCharacterIn(value);
      if (found) return { path: pathOf(step, prefix), message: MESSAGES.control(found) };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    const isArray = Array.isArray(value);
    if (!isArray && !isPlainObject(value)) continue;
    const level = step.level + 1;
    if (level > MAX_DEPTH) return { path: pathOf(step, prefix), message: MESSAGES.depth };
    if (isArray) {
      if (value.length > MAX_ARRAY) return { path: pathOf(step, prefix), message: MESSAGES.array(value.length) };
      // Pushed last-first so the walk meets entries (and reports findings) in document order.
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], level, key: i, parent: step });
    } else {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        const found = controlCharacterIn(key);
        if (found) return { path: pathOf(step, prefix), message: MESSAGES.controlInName(found) };
        stack.push({ value: value[key], level, key, parent: step });
      }
    }
  }
  return null;
}

/** A ValidationError (REST 400 invalid_input) for an issue; the message names the field. */
export function inputError(issue: FieldIssue): ValidationError {
  const error = new ValidationError(issue.path ? `${issue.message}: ${issue.path}` : issue.message, [issue]);
  // Outside rest-compat (whose handler maps ValidationError) Fastify's own handler still answers 400.
  return Object.assign(error, { statusCode: 400 });
}

/** Throws the REST refusal of the first hostile thing in `value`, if any (multipart fields, filenames). */
export function assertCleanInput(value: unknown, prefix = ""): void {
  const issue = findHostileInput(value, prefix);
  if (issue) throw inputError(issue);
}

/** The GraphQL-over-HTTP body of a refusal (also what the GraphQL plugin answers). */
function graphqlRefusalBody(error: ValidationError) {
  return { errors: [{ message: error.message, extensions: { code: "BAD_USER_INPUT", reason: error.reason, issues: error.issues } }] };
}

function refuse(req: FastifyRequest, reply: FastifyReply, issue: FieldIssue) {
  const error = inputError(issue);
  if (req.routeOptions.url === "/graphql") {
    return reply.status(400).header("content-type", "application/json; charset=utf-8").send(graphqlRefusalBody(error));
  }
  throw error;
}

/**
 * Installs the edge check on the root instance: call it before registering routes and plugins, so every
 * route, /graphql and the /api routes alike, inherits the hook. (Typed loosely: the server is built with a
 * pino logger, which Fastify types apart from its base logger.)
 */
export function installInputLimits(app: FastifyInstance<any, any, any, any, any>): void {
  app.addHook("preValidation", async (req, reply) => {
    // A GraphQL body's variables count as in the GraphQL plugin: each variable's value is level 1.
    const bodyLevelsAbove = req.routeOptions.url === "/graphql" ? 2 : 0;
    const issue = findHostileInput(req.params) ?? findHostileInput(req.query) ?? findHostileInput(req.body, "", bodyLevelsAbove);
    if (issue) return refuse(req, reply, issue);
  });
}
