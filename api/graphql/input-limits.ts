/**
 * The GraphQL side of the edge's input limits (api/http/input-limits.ts): the same control characters,
 * nesting depth and list length are refused in the request's variables, operation name and extensions
 * (also when a GET request carries them in its query string) and in the document's inline literals
 * (string arguments, lists, input objects, variable defaults), before validation or execution, so nothing is
 * written. A refusal is HTTP 400 with one error: `{ message, extensions: { code: "BAD_USER_INPUT", reason:
 * "invalid_input", issues: [{ path, message }] } }`. Paths start with `variables.`, or follow the document
 * (`createCoupon.input.code`, `users.search`).
 */
import type { ASTNode, DocumentNode } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { FieldIssue } from "../shared/errors.ts";
import { controlCharacterIn, findHostileInput, inputError, MAX_ARRAY, MAX_DEPTH, MESSAGES } from "../http/input-limits.ts";

/**
 * Brackets ({, [, ( ) open at once in a document above which it is refused before graphql-js parses it: its
 * parser is recursive, so this bounds its stack. Generous: selections are limited to 12 levels (armor's
 * maxDepth) and literals to MAX_DEPTH by the walk below; this only stops absurd documents early.
 */
const MAX_DOCUMENT_BRACKETS = 128;

function refusal(issue: FieldIssue) {
  const error = inputError(issue);
  return createGraphQLError(error.message, {
    extensions: { http: { status: 400 }, code: "BAD_USER_INPUT", reason: error.reason, issues: error.issues },
  });
}

/** Brackets open at once in a document, outside strings and comments, with an early stop past `limit`. */
function documentNestingExceeds(source: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < source.length && source.charCodeAt(i) !== 0x0a && source.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */) {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        // Escaped \""" inside a block string does not end it.
        let j = end;
        while (j > 0 && source.charCodeAt(j - 1) === 0x5c) j = source.indexOf('"""', j + 3);
        if (j < 0) return false;
        i = j + 2;
      } else {
        for (i++; i < source.length && source.charCodeAt(i) !== 0x22 && source.charCodeAt(i) !== 0x0a; i++) if (source.charCodeAt(i) === 0x5c) i++;
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      depth--;
    }
  }
  return false;
}

interface Step {
  node: ASTNode;
  /** Lists and input objects this literal sits in (its own included once entered). */
  level: number;
  key: string | number | null;
  parent: Step | null;
}

function pathOf(step: Step | null): string {
  const parts: (string | number)[] = [];
  for (let s = step; s; s = s.parent) if (s.key !== null) parts.push(s.key);
  return parts.reverse().join(".");
}

/** The path segment a node adds: a field's response name, an argument or input field's name, $variable, @directive. */
function keyOf(node: ASTNode): string | null {
  switch (node.kind) {
    case "Field":
      return node.alias?.value ?? node.name.value;
    case "Argument":
    case "ObjectField":
      return node.name.value;
    case "VariableDefinition":
      return `$${node.variable.name.value}`;
    case "Directive":
      return `@${node.name.value}`;
    default:
      return null;
  }
}

/** The first hostile inline literal of a document (string with a control character, list too long, nesting too deep). */
function findHostileLiteral(document: DocumentNode): FieldIssue | null {
  const stack: Step[] = [{ node: document, level: 0, key: null, parent: null }];
  while (stack.length) {
    const step = stack.pop()!;
    const { node } = step;
    let level = step.level;
    if (node.kind === "StringValue") {
      const found = controlCharacterIn(node.value);
      if (found) return { path: pathOf(step), message: MESSAGES.control(found) };
      continue;
    }
    if (node.kind === "ListValue" || node.kind === "ObjectValue") {
      level++;
      if (level > MAX_DEPTH) return { path: pathOf(step), message: MESSAGES.depth };
    }
    if (node.kind === "ListValue") {
      if (node.values.length > MAX_ARRAY) return { path: pathOf(step), message: MESSAGES.array(node.values.length) };
      for (let i = node.values.length - 1; i >= 0; i--) stack.push({ node: node.values[i], level, key: i, parent: step });
      continue;
    }
    const children: ASTNode[] = [];
    for (const [prop, value] of Object.entries(node)) {
      if (prop === "loc" || prop === "name" || prop === "alias" || !value || typeof value !== "object") continue;
      if (Array.isArray(value)) children.push(...(value as ASTNode[]));
      else if ("kind" in value) children.push(value as ASTNode);
    }
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      stack.push({ node: child, level, key: keyOf(child), parent: step });
    }
  }
  return null;
}

/** Query texts remembered as clean, per process (yoga's own parser cache holds 1,000 documents). */
const CHECKED_TEXTS = 1_000;

/** The yoga plugin: variables, operation name and extensions when the request's parameters are read; literals before validation. */
export function inputLimitsPlugin(): Plugin {
  // Documents whose literals were found clean: yoga's parser cache hands the same document object to every
  // request with the same query text, so a screen's query is walked once per process, not once per request.
  const clean = new WeakSet<DocumentNode>();
  // Query texts already found clean (no control character, brackets not nested too deep): the web app sends a
  // few texts over and over, each of several kB, scanned once per process rather than once per request.
  const checkedTexts = new Set<string>();
  const queryIssue = (query: string): FieldIssue | null => {
    if (checkedTexts.has(query)) return null;
    const issue = findHostileInput(query, "query") ?? (documentNestingExceeds(query, MAX_DOCUMENT_BRACKETS) ? { path: "query", message: MESSAGES.depth } : null);
    if (issue) return issue;
    if (checkedTexts.size >= CHECKED_TEXTS) checkedTexts.clear();
    checkedTexts.add(query);
    return null;
  };
  return {
    onParams({ params }) {
      const issue =
        findHostileInput(params.variables ?? null, "variables", 1) ??
        findHostileInput(params.operationName ?? null, "operationName") ??
        findHostileInput(params.extensions ?? null, "extensions") ??
        (params.query ? queryIssue(params.query) : null);
      if (issue) throw refusal(issue);
    },
    // Before validation rather than as a parse result: yoga answers parse errors 200 under application/json
    // (GraphQL over HTTP), while this refusal is a 400 whatever the Accept header.
    onValidate({ params }) {
      if (clean.has(params.documentAST)) return;
      const issue = findHostileLiteral(params.documentAST);
      if (issue) throw refusal(issue);
      clean.add(params.documentAST);
    },
  };
}
