import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { downloadCsv } from "./csvDownload.ts";
import { STORAGE_KEYS } from "./storage.ts";

/** The server answering every request with `response`; what was asked, and what the browser was told to save. */
function serve(response: () => Response) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => response());
  vi.stubGlobal("fetch", fetch);
  const blobs: Blob[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  const saved = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
  const savedFiles = () => saved.mock.contexts.map((link, i) => ({ name: (link as HTMLAnchorElement).download, href: (link as HTMLAnchorElement).href, blob: blobs[i] }));
  return { fetch, savedFiles };
}

const csvResponse = (body: string, filename?: string) =>
  new Response(body, { headers: { "content-type": "text/csv; charset=utf-8", ...(filename ? { "content-disposition": `attachment; filename="${filename}"` } : {}) } });

beforeEach(() => localStorage.setItem(STORAGE_KEYS.authToken, "t0k"));
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("downloadCsv", () => {
  it("fetches the server's CSV with the session's bearer token and saves it under the name the server suggests", async () => {
    const csv = "date,member\r\n2026-03-02,Bo\r\n";
    const { fetch, savedFiles } = serve(() => csvResponse(csv, "statement-farm-2026-03.csv"));
    await downloadCsv("/api/admin/businesses/1/fulfilment/2026-03/packing.csv?mode=pickup", "packing.csv");
    expect(fetch.mock.calls).toEqual([["/api/admin/businesses/1/fulfilment/2026-03/packing.csv?mode=pickup", { credentials: "include", headers: { Authorization: "Bearer t0k" } }]]);
    const [file] = savedFiles();
    expect(savedFiles()).toHaveLength(1);
    expect(file.name).toBe("statement-farm-2026-03.csv");
    expect(file.href).toBe("blob:1");
    expect(await file.blob.text()).toBe(csv);
    // The link is gone from the page once clicked.
    expect(document.querySelector("a[download]")).toBeNull();
  });

  it("saves under the fallback name when the server suggests none", async () => {
    const { savedFiles } = serve(() => csvResponse("a,b\r\n"));
    await downloadCsv("/api/admin/fees/2026-03.csv", "fees-collected-2026-03.csv");
    expect(savedFiles().map((f) => f.name)).toEqual(["fees-collected-2026-03.csv"]);
  });

  it("a refusal fails with the server's message, else its status, and saves nothing", async () => {
    const refused = serve(() => new Response(JSON.stringify({ error: "You do not have permission to do this.", reason: "forbidden" }), { status: 403, headers: { "content-type": "application/json" } }));
    await expect(downloadCsv("/api/admin/memberships.csv?business=9", "memberships.csv")).rejects.toThrow("You do not have permission to do this.");
    expect(refused.savedFiles()).toEqual([]);
    serve(() => new Response("Bad gateway", { status: 502 }));
    await expect(downloadCsv("/api/admin/memberships.csv", "memberships.csv")).rejects.toThrow("HTTP 502");
  });
});
