import { describe, expect, it } from "vitest";
import { membershipsCsvUrl } from "./exportMemberships.ts";

describe("the memberships export", () => {
  it("asks the server for the list's current filters, in the REST list's words", () => {
    expect(membershipsCsvUrl({ search: null, status: "ANY", businessId: null })).toBe("/api/admin/memberships.csv");
    expect(membershipsCsvUrl({ search: "farm & co", status: "PAST_DUE", businessId: 4 })).toBe("/api/admin/memberships.csv?q=farm+%26+co&status=past_due&business=4");
  });

  it("exports the active memberships for Paused and Ending (REST's status keeps the spec's values; the CSV's columns mark them)", () => {
    expect(membershipsCsvUrl({ search: null, status: "PAUSED", businessId: 4 })).toBe("/api/admin/memberships.csv?status=active&business=4");
    expect(membershipsCsvUrl({ search: "ann", status: "ENDING", businessId: null })).toBe("/api/admin/memberships.csv?q=ann&status=active");
  });
});
