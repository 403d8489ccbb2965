import { describe, expect, it } from "vitest";
import { membershipsCsvUrl } from "./exportMemberships.ts";

describe("the memberships export", () => {
  it("asks the server for the list's current filters, in the REST list's words", () => {
    expect(membershipsCsvUrl({ search: null, status: "ANY", businessId: null })).toBe("/api/admin/memberships.csv");
    expect(membershipsCsvUrl({ search: "farm & co", status: "PAST_DUE", businessId: 4 })).toBe("/api/admin/memberships.csv?q=farm+%26+co&status=past_due&business=4");
  });
});
