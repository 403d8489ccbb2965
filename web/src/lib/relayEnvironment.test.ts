import type { RequestParameters } from "relay-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchGraphQL, GraphQLRequestError, isNotFoundError } from "./relayEnvironment.ts";

const operation = { id: null, name: "HomeRouteQuery", operationKind: "query", text: "query HomeRouteQuery { viewer { id } }", cacheID: "1", metadata: {} } as RequestParameters;

/** Answers every fetch with this status and body (a string is sent as is, anything else as JSON). */
function answer(status: number, body: unknown) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const fetch = vi.fn(async () => new Response(text, { status, headers: { "content-type": "application/graphql-response+json" } }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

async function send(): Promise<unknown> {
  return await fetchGraphQL(operation, {}, {}, null);
}

async function failure(): Promise<GraphQLRequestError> {
  const error = await send().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GraphQLRequestError);
  return error as GraphQLRequestError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("fetchGraphQL", () => {
  it("returns an answer with data, field errors included", async () => {
    answer(200, { data: { viewer: null } });
    expect(await send()).toEqual({ data: { viewer: null } });
    const partial = { data: { viewer: null }, errors: [{ message: "Please log in to continue.", path: ["viewer"] }] };
    answer(200, partial);
    expect(await send()).toEqual(partial);
  });

  it("sends the operation as JSON and asks for a GraphQL response", async () => {
    const fetch = answer(200, { data: { viewer: null } });
    await send();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/graphql");
    expect(JSON.parse(String(init.body))).toEqual({ query: operation.text, variables: {} });
    expect((init.headers as Record<string, string>).Accept).toBe("application/graphql-response+json, application/json");
  });

  it("fails on a 400 refusal of the document, with the server's message", async () => {
    answer(400, { errors: [{ message: "Query is too deep: 13 levels, at most 12 are allowed.", extensions: { code: "QUERY_TOO_COMPLEX" } }] });
    const error = await failure();
    expect(error.message).toBe("Query is too deep: 13 levels, at most 12 are allowed.");
    expect(error.status).toBe(400);
  });

  it("fails on any answer that is not a 2xx, even one carrying data", async () => {
    answer(500, { data: { viewer: null }, errors: [{ message: "Unexpected error." }] });
    expect((await failure()).status).toBe(500);
    answer(502, "<html>Bad gateway</html>");
    const error = await failure();
    expect(error.message).toBe("GraphQL request failed with HTTP 502");
    expect(error.status).toBe(502);
    answer(429, { errors: [{ message: "Too many requests" }, { message: "Try again later" }] });
    expect((await failure()).message).toBe("Too many requests; Try again later");
  });

  it("fails on a 2xx answer without data (errors only, empty or not JSON)", async () => {
    answer(200, { errors: [{ message: "Cannot query field \"x\" on type \"Query\"." }] });
    expect((await failure()).message).toBe('Cannot query field "x" on type "Query".');
    answer(200, {});
    expect((await failure()).message).toBe("GraphQL request failed with HTTP 200");
    answer(200, "not json");
    expect((await failure()).status).toBe(200);
  });

  it("keeps the errors' codes, which tell a missing object apart", async () => {
    answer(200, { data: null, errors: [{ message: "Onboarding link not found", path: ["sandboxOnboardingLink"], extensions: { code: "NOT_FOUND", reason: "not_found" } }] });
    const production = await failure();
    expect(production.codes).toEqual(["NOT_FOUND"]);
    expect(isNotFoundError(production)).toBe(true);
    // Development answers carry the domain error's message without its code.
    answer(200, { data: null, errors: [{ message: "Onboarding link not found", path: ["sandboxOnboardingLink"] }] });
    expect(isNotFoundError(await failure())).toBe(true);
    answer(200, { data: null, errors: [{ message: "Invalid link", extensions: { code: "VALIDATION" } }] });
    expect(isNotFoundError(await failure())).toBe(false);
    expect(isNotFoundError(new Error("Onboarding link not found"))).toBe(false);
  });

  it("fails when the server cannot be reached", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const error = await failure();
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/could not reach the server/i);
  });
});
