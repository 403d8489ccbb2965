import { describe, expect, it } from "vitest";
import { EXPORT_PAGE_SIZE, exportMembershipsCsv, MEMBERSHIP_CSV_HEADER, type FetchExportPage } from "./exportMemberships.ts";

function membership(id: number) {
  return {
    databaseId: id,
    providerSubscriptionId: id % 2 ? `sub_${id}` : null,
    userPublicId: `u${id}`,
    username: `member${id}`,
    email: `member${id}@example.com`,
    status: id % 3 ? ("ACTIVE" as const) : ("CANCELED" as const),
    startedAt: "2026-03-01T10:00:00.000Z",
    canceledAt: id % 3 ? null : "2026-03-02T10:00:00.000Z",
    planName: "Veg Box",
    business: { slug: "farm", name: "Farm, Inc." },
  };
}

/** A server of `total` rows answering pages of `first` after a cursor "c{index}". */
function server(total: number) {
  const calls: { first: number; after: string | null | undefined; status: unknown; search: unknown; businessId: unknown }[] = [];
  const fetchPage: FetchExportPage = async (v) => {
    calls.push({ first: v.first, after: v.after, status: v.status, search: v.search, businessId: v.businessId });
    const start = v.after ? Number(v.after.slice(1)) + 1 : 0;
    const ids = Array.from({ length: Math.max(0, Math.min(v.first, total - start)) }, (_, i) => start + i);
    return {
      edges: ids.map((i) => ({ node: membership(i + 1) })),
      pageInfo: { hasNextPage: start + ids.length < total, endCursor: ids.length ? `c${start + ids.length - 1}` : null },
    };
  };
  return { calls, fetchPage };
}

describe("exportMembershipsCsv", () => {
  it("pages through the whole filtered list, not only the rows on screen", async () => {
    const { calls, fetchPage } = server(EXPORT_PAGE_SIZE * 2 + 7);
    const progress: number[] = [];
    const { csv, rows } = await exportMembershipsCsv(fetchPage, { search: "farm", status: "ACTIVE", businessId: 4 }, (n) => progress.push(n));
    expect(rows).toBe(407);
    expect(calls).toEqual([
      { first: 200, after: null, status: "ACTIVE", search: "farm", businessId: 4 },
      { first: 200, after: "c199", status: "ACTIVE", search: "farm", businessId: 4 },
      { first: 200, after: "c399", status: "ACTIVE", search: "farm", businessId: 4 },
    ]);
    expect(progress).toEqual([200, 400, 407]);
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(408);
    expect(lines[0]).toBe(MEMBERSHIP_CSV_HEADER.join(","));
    expect(lines[1]).toBe('1,sub_1,u1,member1,member1@example.com,farm,"Farm, Inc.",Veg Box,active,2026-03-01T10:00:00.000Z,');
    expect(lines[3]).toBe("3,sub_3,u3,member3,member3@example.com,farm,\"Farm, Inc.\",Veg Box,canceled,2026-03-01T10:00:00.000Z,2026-03-02T10:00:00.000Z");
    expect(lines.at(-1)).toMatch(/^407,/);
  });

  it("an empty list is the header alone, in one request", async () => {
    const { calls, fetchPage } = server(0);
    const { csv, rows } = await exportMembershipsCsv(fetchPage, { search: null, status: "ANY", businessId: null });
    expect(rows).toBe(0);
    expect(calls).toHaveLength(1);
    expect(csv).toBe(MEMBERSHIP_CSV_HEADER.join(",") + "\r\n");
  });

  it("a failing page fails the export (no partial file)", async () => {
    let n = 0;
    const { fetchPage: ok } = server(500);
    const failing: FetchExportPage = async (v) => {
      if (++n === 2) throw new Error("You do not have permission to do this.");
      return ok(v);
    };
    await expect(exportMembershipsCsv(failing, { search: null, status: "ANY", businessId: null })).rejects.toThrow("You do not have permission to do this.");
  });
});
