import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sniffImage } from "../../api/uploads/service.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { restClient } from "./helpers.ts";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e80000000049454e44ae426082", "hex");

function multipart(file: { name: string; type: string; bytes: Buffer }, field = "file") {
  const boundary = "----contract-test-boundary";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

let t: TestApp;
let dir: string;
let adminToken: string;
let memberToken: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "uploads-"));
  t = await createTestApp({ config: { uploadsDir: dir } });
  const f = factories(t);
  adminToken = await f.session(await f.user({ isAdmin: true }));
  memberToken = await f.session(await f.user(), "biz");
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const upload = (token: string | null, file: Parameters<typeof multipart>[0], field?: string) => {
  const m = multipart(file, field);
  return restClient(t)("POST", "/api/admin/upload", { token, headers: m.headers, payload: m.payload });
};

describe("POST /api/admin/upload", () => {
  it("stores an image under a random name and answers a relative url served at /uploads", async () => {
    const res = await upload(adminToken, { name: "logo.png", type: "image/png", bytes: PNG });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.file.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const row = await t.db.prisma.upload.findFirstOrThrow();
    expect(row).toMatchObject({ originalName: "logo.png", contentType: "image/png", sizeBytes: PNG.length });
    const served = await t.app.inject({ method: "GET", url: body.file.url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // Public images load in emails shown in a sandboxed frame (an opaque origin); the API stays same-origin.
    expect(served.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    const api = await t.app.inject({ method: "GET", url: "/api/businesses" });
    expect(api.headers["cross-origin-resource-policy"]).toBe("same-origin");
  });

  it("refuses what is not an image by its bytes (an SVG named .png), with nothing stored", async () => {
    const before = fs.readdirSync(dir).length;
    const res = await upload(adminToken, { name: "evil.png", type: "image/png", bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Only images/);
    expect(fs.readdirSync(dir).length).toBe(before);
  });

  it("refuses files over 5 MB with 413", async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const res = await upload(adminToken, { name: "big.png", type: "image/png", bytes: big });
    expect(res.status).toBe(413);
    expect(res.body.error).toBeTypeOf("string");
  });

  it("401 without a session, 403 for a member who edits no business, 400 without the file field", async () => {
    expect((await upload(null, { name: "a.png", type: "image/png", bytes: PNG })).status).toBe(401);
    expect((await upload(memberToken, { name: "a.png", type: "image/png", bytes: PNG })).status).toBe(403);
    expect((await upload(adminToken, { name: "a.png", type: "image/png", bytes: PNG }, "other")).status).toBe(400);
    expect((await restClient(t)("POST", "/api/admin/upload", { token: adminToken, payload: {} })).status).toBe(400);
  });
});

describe("sniffImage", () => {
  it("knows png, jpeg, gif, webp, bmp and ico; not svg or html", () => {
    expect(sniffImage(PNG)?.ext).toBe("png");
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))?.ext).toBe("jpg");
    expect(sniffImage(Buffer.from("GIF89a......"))?.ext).toBe("gif");
    expect(sniffImage(Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1"))?.ext).toBe("webp");
    expect(sniffImage(Buffer.concat([Buffer.from("BM"), Buffer.alloc(30)]))?.ext).toBe("bmp");
    expect(sniffImage(Buffer.concat([Buffer.from([0, 0, 1, 0, 1, 0]), Buffer.alloc(20)]))?.ext).toBe("ico");
    expect(sniffImage(Buffer.from("<svg></svg>"))).toBeNull();
    expect(sniffImage(Buffer.from("<!doctype html>"))).toBeNull();
  });
});
