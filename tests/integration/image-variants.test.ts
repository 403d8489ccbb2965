/**
 * Image variants: an uploaded PNG/JPEG/WebP gets WebP copies at the widths the web app lists in
 * srcset, served as image/webp and cached for a year; uploads from before variants keep their URL and get
 * their variants on first request; what cannot be resized redirects to the original; unknown names are 404s.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMAGE_VARIANT_WIDTHS, uploadSrcSet } from "../../api/shared/image-variants.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

let t: TestApp;
let uploadsDir: string;
let adminToken: string;

beforeAll(async () => {
  uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "image-variants-"));
  t = await createTestApp({ config: { uploadsDir } });
  const f = factories(t);
  adminToken = await f.session(await f.user({ username: "root", isAdmin: true }));
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(uploadsDir, { recursive: true, force: true });
});

/** A photo-like test image: a gradient, so the encoder has something to do. */
async function photo(width: number, height: number, format: "png" | "jpeg" | "gif") {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set([x % 256, y % 256, (x + y) % 256], (y * width + x) * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })[format]().toBuffer();
}

async function upload(bytes: Buffer, filename: string) {
  const boundary = "----variants-boundary";
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/admin/upload",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().file.url as string;
}

const get = (url: string, method: "GET" | "HEAD" = "GET") => t.app.inject({ method, url });

describe("uploaded image variants", () => {
  it("a PNG upload gets a WebP per width, never wider than the original, served as image/webp for a year", async () => {
    const url = await upload(await photo(800, 600, "png"), "farm.png");
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
    const id = url.slice("/uploads/".length, -".png".length);
    // Made at upload: on disk before anyone asks.
    for (const w of IMAGE_VARIANT_WIDTHS) expect(fs.existsSync(path.join(uploadsDir, `${id}-${w}w.webp`))).toBe(true);

    const srcset = uploadSrcSet(url)!;
    const entries = srcset.split(", ").map((e) => e.split(" "));
    expect(entries.map(([, d]) => d)).toEqual(IMAGE_VARIANT_WIDTHS.map((w) => `${w}w`));
    for (const [variantUrl, descriptor] of entries) {
      const res = await get(variantUrl);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("image/webp");
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.width).toBe(Math.min(800, Number.parseInt(descriptor)));
      expect(meta.height).toBe(Math.round((meta.width * 600) / 800));
    }
    // The 320 px WebP of an 800 px PNG is a fraction of it.
    const small = await get(`/uploads/${id}-320w.webp`);
    const original = await get(url);
    expect(original.headers["content-type"]).toBe("image/png");
    expect(small.rawPayload.length).toBeLessThan(original.rawPayload.length / 4);
    // HEAD answers as GET, without the body.
    const head = await get(`/uploads/${id}-320w.webp`, "HEAD");
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-type"]).toBe("image/webp");
    expect(Number(head.headers["content-length"])).toBe(small.rawPayload.length);
    expect(head.rawPayload.length).toBe(0);
  });

  it("a JPEG upload gets variants too", async () => {
    const url = await upload(await photo(400, 300, "jpeg"), "box.jpeg");
    expect(url).toMatch(/\.jpg$/);
    const res = await get(url.replace(/\.jpg$/, "-160w.webp"));
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(160);
  });

  it("an upload from before variants keeps its URL and gets its variants on first request", async () => {
    const id = "0123456789abcdef0123456789abcdef";
    fs.writeFileSync(path.join(uploadsDir, `${id}.png`), await photo(700, 700, "png"));
    const original = await get(`/uploads/${id}.png`);
    expect(original.statusCode).toBe(200);
    expect(original.headers["content-type"]).toBe("image/png");

    expect(fs.existsSync(path.join(uploadsDir, `${id}-640w.webp`))).toBe(false);
    const variant = await get(`/uploads/${id}-640w.webp`);
    expect(variant.statusCode).toBe(200);
    expect(variant.headers["content-type"]).toBe("image/webp");
    expect((await sharp(variant.rawPayload).metadata()).width).toBe(640);
    expect(fs.existsSync(path.join(uploadsDir, `${id}-640w.webp`))).toBe(true);
  });

  it("a GIF keeps its animation: no variants, and a variant URL redirects to the original", async () => {
    const url = await upload(await photo(300, 200, "gif"), "spin.gif");
    const id = url.slice("/uploads/".length, -".gif".length);
    expect(fs.readdirSync(uploadsDir).filter((f) => f.startsWith(id))).toEqual([`${id}.gif`]);
    expect(uploadSrcSet(url)).toBeNull();
    const res = await get(`/uploads/${id}-320w.webp`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(url);
    expect((await get(url)).headers["content-type"]).toBe("image/gif");
  });

  it("answers 404 for unknown files, unknown widths and names outside the folder", async () => {
    const url = await upload(await photo(200, 100, "png"), "tiny.png");
    const id = url.slice("/uploads/".length, -".png".length);
    expect((await get(`/uploads/${id}-333w.webp`)).statusCode).toBe(404);
    expect((await get("/uploads/ffffffffffffffffffffffffffffffff-320w.webp")).statusCode).toBe(404);
    expect((await get("/uploads/ffffffffffffffffffffffffffffffff.png")).statusCode).toBe(404);
    expect((await get("/uploads/..%2F..%2Fpackage.json")).statusCode).toBe(404);
    expect((await get("/uploads/.hidden")).statusCode).toBe(404);
  });
});

describe("uploadSrcSet", () => {
  it("lists the variants of resizable uploads only", () => {
    expect(uploadSrcSet("/uploads/0123456789abcdef0123456789abcdef.webp")).toBe(
      IMAGE_VARIANT_WIDTHS.map((w) => `/uploads/0123456789abcdef0123456789abcdef-${w}w.webp ${w}w`).join(", "),
    );
    for (const url of ["/demo/green-acres-farm-1.svg", "https://cdn.example/a.jpg", "/uploads/logo.png", "/uploads/0123456789abcdef0123456789abcdef.gif"]) {
      expect(uploadSrcSet(url)).toBeNull();
    }
  });
});
