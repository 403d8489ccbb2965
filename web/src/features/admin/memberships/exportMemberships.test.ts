import { afterEach, describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../../../lib/storage.ts";
import { fetchMembershipsCsv, membershipsCsvUrl } from "./exportMemberships.ts";

/** A fetch that records its calls and answers `response`. */
function fetcher(response: Response) {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, headers: init?.headers as Record<string, string> });
    return response;
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

afterEach(() => localStorage.clear());

describe("the memberships export", () => {
  it("asks the server for the list's current filters, in the REST list's words", () => {
    expect(membershipsCsvUrl({ search: null, status: "ANY", businessId: null })).toBe("/api/admin/memberships.csv");
    expect(membershipsCsvUrl({ search: "farm & co", status: "PAST_DUE", businessId: 4 })).toBe("/api/admin/memberships.csv?q=farm+%26+co&status=past_due&business=4");
  });

  it("downloads the server's whole CSV with its bearer token and the file name it suggests", async () => {
    localStorage.setItem(STORAGE_KEYS.authToken, "t0k");
    const csv = "subscription_id,provider_subscription_id\r\n1,sub_1\r\n";
    const { calls, fetch } = fetcher(new Response(csv, { headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="memberships-farm-2026-03-05.csv"' } }));
    const file = await fetchMembershipsCsv({ search: "farm", status: "ACTIVE", businessId: null }, fetch);
    expect(calls).toEqual([{ url: "/api/admin/memberships.csv?q=farm&status=active", headers: { Authorization: "Bearer t0k" } }]);
    expect(file.filename).toBe("memberships-farm-2026-03-05.csv");
    expect(await file.csv.text()).toBe(csv);
  });

  it("a refusal fails the export with the server's message (no file)", async () => {
    const { fetch } = fetcher(new Response(JSON.stringify({ error: "You do not have permission to do this.", reason: "forbidden" }), { status: 403, headers: { "content-type": "application/json" } }));
    await expect(fetchMembershipsCsv({ search: null, status: "ANY", businessId: 9 }, fetch)).rejects.toThrow("You do not have permission to do this.");
  });
});
