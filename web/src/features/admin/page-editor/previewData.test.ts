import { describe, expect, it } from "vitest";
import { pageDraftFrom } from "./draft.ts";
import { readPreviewAccess, storePreviewData } from "./previewData.ts";

function store(values: Record<string, string>) {
  return { getItem: (k: string) => values[k] ?? null };
}
const data = JSON.stringify({ tenant: "green", draft: { brand: { name: "G" } }, createdAt: "" });

describe("readPreviewAccess (spec §5)", () => {
  it("requires a stored user and token", () => {
    expect(readPreviewAccess("green", store({}))).toEqual({ ok: false, message: "Access denied. Please log in." });
    expect(readPreviewAccess("green", store({ auth_token: "t", auth_user: "{bad" }))).toEqual({ ok: false, message: "Authentication error." });
  });
  it("lets admins preview any business and others only their tenant", () => {
    const admin = { auth_token: "t", auth_user: '{"is_admin":true}', page_preview_data: data };
    expect(readPreviewAccess("other", store(admin)).ok).toBe(true);
    const owner = { auth_token: "t", auth_user: '{"is_admin":false}', page_preview_data: data };
    expect(readPreviewAccess("GREEN", store(owner)).ok).toBe(true);
    expect(readPreviewAccess("other", store(owner))).toEqual({ ok: false, message: "Access denied. You do not have permission to preview this business page." });
  });
  it("reports missing or broken preview data", () => {
    const admin = { auth_token: "t", auth_user: '{"is_admin":true}' };
    expect(readPreviewAccess("x", store(admin))).toEqual({ ok: false, message: "No preview data found. Please go back to the edit page and click Preview again." });
    expect(readPreviewAccess("x", store({ ...admin, page_preview_data: "{" }))).toEqual({ ok: false, message: "Failed to load preview data." });
  });
  it("hands the preview the HTML without the documents (an embedded image is stored once)", () => {
    const image = "data:image/png;base64,iVBORw0KGgo=";
    const doc = { blocks: [{ type: "image" as const, data: { url: image, caption: "" } }] };
    const html = `<p><img src="${image}" alt=""></p>`;
    storePreviewData("green", { ...pageDraftFrom(null), descriptionHtml: html, descriptionDoc: doc, faqs: [{ key: "f", q: "Q", a: html, aDoc: doc }] });
    const stored = JSON.parse(localStorage.getItem("page_preview_data")!);
    expect(stored.draft).toMatchObject({ descriptionHtml: html, descriptionDoc: null, faqs: [{ q: "Q", a: html, aDoc: null }] });
    expect(stored.draft.descriptionHtml.length).toBeGreaterThan(image.length);
    expect(JSON.stringify(stored).split(image)).toHaveLength(3);
  });
});
