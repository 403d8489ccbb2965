/**
 * The browser edge (server/web-app.ts), on a small web build written here (an index.html, one hashed
 * asset with its .br/.gz, the real robots.txt): compressed and cached assets, the app shell for navigations only,
 * real 404s, HEAD as GET, CSP and HSTS by public scheme, and a business's search and share tags in the HTML.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../server/app.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

const ASSET = "/assets/index-Ab12Cd34.js";
const ASSET_BODY = `console.log(${JSON.stringify("the app ".repeat(200))});\n`;
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="Monthly membership boxes from independent farms, roasters and bakers." />
    <title>Harvest &amp; Hearth Memberships</title>
    <script type="module" crossorigin src="${ASSET}"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;
const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const NASTY_NAME = `Tom's <script>alert("x")</script> "Farm" & Co`;
const LONG_TEXT = "Fresh vegetables picked at dawn and packed the same morning for our members. ".repeat(5);

function writeWebBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "web-edge-"));
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(path.join(dir, "index.html"), INDEX);
  const asset = path.join(dir, ASSET);
  fs.writeFileSync(asset, ASSET_BODY);
  fs.writeFileSync(`${asset}.br`, zlib.brotliCompressSync(ASSET_BODY));
  fs.writeFileSync(`${asset}.gz`, zlib.gzipSync(ASSET_BODY));
  fs.copyFileSync(path.resolve(import.meta.dirname, "../../web/public/robots.txt"), path.join(dir, "robots.txt"));
  fs.copyFileSync(path.resolve(import.meta.dirname, "../../web/public/favicon.svg"), path.join(dir, "favicon.svg"));
  return dir;
}

const decode = (body: Buffer, encoding: unknown) =>
  (encoding === "br" ? zlib.brotliDecompressSync(body) : encoding === "gzip" ? zlib.gunzipSync(body) : body).toString("utf8");

/** The content of `<meta {attr}="{key}" content="…">` in a page, entities left as sent. */
const metaContent = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];

describe("browser edge", () => {
  let t: TestApp;
  let web: string;
  let uploads: string;
  let farm: { id: number };

  beforeAll(async () => {
    web = writeWebBuild();
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), "web-edge-uploads-"));
    t = await createTestApp({ config: { webDistDir: web, uploadsDir: uploads, publicCacheTtlMs: 60_000 } });
    const f = factories(t);
    farm = await f.business({
      slug: "green-acres",
      name: NASTY_NAME,
      page: {
        descriptionHtml: `<p><strong>Green</strong> &amp; good.</p><p>${LONG_TEXT}</p>`,
        logoUrl: "/demo/green-acres-farm-logo.svg",
        gallery: [{ url: "/uploads/gallery-1.png" }, { url: "/uploads/gallery-2.png" }],
      },
    });
    await f.business({ slug: "plain-bakery", name: "Plain Bakery", page: { logoUrl: "https://cdn.example.com/logo.png" } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(web, { recursive: true, force: true });
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it("sends hashed assets with brotli or gzip as asked, cached for a year as immutable", async () => {
    for (const [acceptEncoding, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["identity", undefined],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url: ASSET, headers: { "accept-encoding": acceptEncoding } });
      expect(res.statusCode, acceptEncoding).toBe(200);
      expect(res.headers["content-encoding"], acceptEncoding).toBe(encoding);
      expect(res.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(decode(res.rawPayload, res.headers["content-encoding"])).toBe(ASSET_BODY);
    }
    const br = await t.app.inject({ method: "GET", url: ASSET, headers: { "accept-encoding": "br" } });
    expect(br.rawPayload.length).toBeLessThan(ASSET_BODY.length / 5);
  });

  it("answers a navigation with the app shell, compressed, revalidated every time (ETag, 304)", async () => {
    const res = await t.app.inject({ method: "GET", url: "/businesses?page=2", headers: { accept: HTML, "accept-encoding": "gzip, br" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(decode(res.rawPayload, "br")).toBe(INDEX);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    // CORS's Vary: Origin is kept beside it.
    const withOrigin = await t.app.inject({ method: "GET", url: "/businesses", headers: { accept: HTML, origin: "http://localhost:3000" } });
    expect(String(withOrigin.headers.vary)).toMatch(/origin.*accept-encoding/i);

    const again = await t.app.inject({ method: "GET", url: "/membership", headers: { accept: HTML, "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    // A client route the app does not know still gets the shell: the app shows its not-found page.
    const unknownPage = await t.app.inject({ method: "GET", url: "/no/such/page", headers: { accept: HTML } });
    expect(unknownPage.statusCode).toBe(200);
    expect(unknownPage.body).toBe(INDEX);
  });

  it("gives a real 404 to missing files, non-HTML requests and the API prefixes, never the shell", async () => {
    for (const [url, accept] of [
      ["/assets/missing.js", "*/*"],
      ["/favicon.ico", "image/avif,image/webp,*/*"],
      ["/uploads/nope.png", "image/*"],
      ["/uploads/nope", HTML],
      ["/some/file.txt", HTML],
      ["/businesses", "application/json"],
      ["/", "application/json"],
    ]) {
      const res = await t.app.inject({ method: "GET", url, headers: { accept } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"], url).toMatch(/^application\/json/);
      expect(res.json(), url).toEqual({ error: "Not found" });
    }
    // REST keeps its own 404 shape, GraphQL its own route.
    const api = await t.app.inject({ method: "GET", url: "/api/no-such-route", headers: { accept: HTML } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: "Not found" });
    const post = await t.app.inject({ method: "POST", url: "/businesses", headers: { accept: HTML } });
    expect(post.statusCode).toBe(404);
  });

  it("answers HEAD exactly as GET, without the body", async () => {
    for (const url of ["/", "/businesses", ASSET, "/b/green-acres", "/robots.txt", "/assets/missing.js", "/b/no-such-business"]) {
      const headers = { accept: HTML, "accept-encoding": "br" };
      const get = await t.app.inject({ method: "GET", url, headers });
      const head = await t.app.inject({ method: "HEAD", url, headers });
      expect(head.statusCode, url).toBe(get.statusCode);
      expect(head.body, url).toBe("");
      for (const name of ["content-type", "content-encoding", "content-length", "cache-control", "etag"]) {
        expect(head.headers[name], `${url} ${name}`).toEqual(get.headers[name]);
      }
    }
    const root = await t.app.inject({ method: "HEAD", url: "/" });
    expect(root.statusCode).toBe(200);
    expect(root.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("serves robots.txt (public pages allowed; admin, portal, checkout and the APIs not) and the favicon", async () => {
    const robots = await t.app.inject({ method: "GET", url: "/robots.txt" });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers["content-type"]).toMatch(/^text\/plain/);
    expect(robots.headers["cache-control"]).toBe("public, max-age=86400");
    const lines = robots.body.split("\n").map((l) => l.trim());
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Allow: /");
    for (const path of ["/admin", "/membership", "/api/", "/graphql"]) expect(lines).toContain(`Disallow: ${path}`);
    // Prefix rules only; none reaches a public page (a business's own member login and checkout included, which
    // search engines and Lighthouse's SEO audit would otherwise count as not indexable).
    const disallowed = lines.filter((l) => l.startsWith("Disallow:")).map((l) => l.slice("Disallow:".length).trim());
    for (const rule of disallowed) expect(rule).toMatch(/^\/[a-z/]+$/);
    for (const page of ["/", "/businesses", "/contact", "/b/green-acres", "/b/green-acres/membership", "/b/green-acres/membership/checkout", "/terms-of-use"]) {
      expect(disallowed.filter((rule) => page.startsWith(rule)), page).toEqual([]);
    }
    for (const page of ["/admin/businesses", "/membership", "/membership/checkout", "/api/page", "/graphql"]) {
      expect(disallowed.some((rule) => page.startsWith(rule)), page).toBe(true);
    }

    const icon = await t.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    // The built index.html links it, so browsers never ask for /favicon.ico.
    expect(fs.readFileSync(path.resolve(import.meta.dirname, "../../web/index.html"), "utf8")).toMatch(/<link rel="icon" type="image\/svg\+xml" href="\/favicon.svg"/);
  });

  it("renders a business's title, description, canonical URL, Open Graph and Twitter tags into /b/{slug}, escaped", async () => {
    const res = await t.app.inject({ method: "GET", url: "/b/Green-Acres", headers: { accept: HTML, "accept-encoding": "gzip" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.headers["cache-control"]).toBe("no-cache");
    const html = decode(res.rawPayload, "gzip");
    // Nothing of the name runs or breaks out of an attribute.
    expect(html).not.toContain("<script>alert");
    expect(html).not.toMatch(/content="[^"]*"Farm/);
    const escapedName = "Tom&#39;s &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#34;Farm&#34; &#38; Co";
    expect(html).toContain(`<title>${escapedName} · Harvest &#38; Hearth Memberships</title>`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/name="description"/g)).toHaveLength(1);

    const description = metaContent(html, "description")!;
    expect(description.startsWith("Green &#38; good. Fresh vegetables picked at dawn")).toBe(true);
    expect(description).not.toContain("<");
    const plain = description.replace(/&#38;/g, "&");
    expect(plain.length).toBeLessThanOrEqual(160);
    expect(plain.length).toBeGreaterThan(120);
    expect(plain.endsWith("…")).toBe(true);

    expect(html).toContain(`<link rel="canonical" href="http://localhost:3000/b/green-acres" />`);
    expect(metaContent(html, "og:url")).toBe("http://localhost:3000/b/green-acres");
    expect(metaContent(html, "og:title")).toBe(escapedName);
    expect(metaContent(html, "og:description")).toBe(description);
    expect(metaContent(html, "og:type")).toBe("website");
    expect(metaContent(html, "og:image")).toBe("http://localhost:3000/uploads/gallery-1.png");
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    // The rest of the shell (the app's script) is unchanged.
    expect(html).toContain(`<script type="module" crossorigin src="${ASSET}"></script>`);

    // Without a gallery the logo is the image; without a description the site's own is kept.
    const bakery = (await t.app.inject({ method: "GET", url: "/b/plain-bakery", headers: { accept: HTML } })).body;
    expect(metaContent(bakery, "og:image")).toBe("https://cdn.example.com/logo.png");
    expect(metaContent(bakery, "description")).toBe("Monthly membership boxes from independent farms, roasters and bakers.");
    expect(bakery).toContain("<title>Plain Bakery · Harvest &#38; Hearth Memberships</title>");
  });

  it("renders the same tags on a tenant's home page (subdomain or X-Tenant), and the plain shell on the main host", async () => {
    const sub = await t.app.inject({ method: "GET", url: "/", headers: { accept: HTML, host: "plain-bakery.localhost:3000" } });
    expect(sub.statusCode).toBe(200);
    expect(sub.body).toContain("<title>Plain Bakery · Harvest &#38; Hearth Memberships</title>");
    expect(String(sub.headers.vary)).toMatch(/x-tenant/i);
    const header = await t.app.inject({ method: "GET", url: "/", headers: { accept: HTML, "x-tenant": "plain-bakery" } });
    expect(header.body).toBe(sub.body);
    const main = await t.app.inject({ method: "GET", url: "/", headers: { accept: HTML } });
    expect(main.statusCode).toBe(200);
    expect(main.body).toBe(INDEX);
  });

  it("answers an unknown business with the plain shell and status 404", async () => {
    for (const [url, headers] of [
      ["/b/no-such-business", {}],
      ["/b/not%20a%20slug", {}],
      ["/", { host: "nobody.localhost:3000" }],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url, headers: { accept: HTML, ...headers } });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.body, url).toBe(INDEX);
    }
  });

  it("keeps a business's tags in the public page cache until its page changes", async () => {
    const get = async () => metaContent((await t.app.inject({ method: "GET", url: "/b/green-acres", headers: { accept: HTML } })).body, "description");
    const before = await get();
    await t.db.prisma.page.update({ where: { businessId: farm.id }, data: { descriptionHtml: "<p>Now with eggs.</p>" } });
    expect(await get()).toBe(before);
    await t.app.publicCache.changed(farm.id);
    expect(await get()).toBe("Now with eggs.");
  });

  it("still answers the page (plain shell, 200) when the business cannot be read, and logs why", async () => {
    const lines: string[] = [];
    const prisma = new Proxy(t.db.prisma, {
      get: (target, prop) => (prop === "business" ? { findUnique: () => Promise.reject(new Error("connection lost")) } : Reflect.get(target, prop, target)),
    });
    const app = await buildApp({
      config: t.config,
      db: { ...t.db, prisma },
      clock: t.clock,
      logger: pino({ level: "error" }, { write: (line: string) => void lines.push(line) }),
    });
    try {
      const res = await app.inject({ method: "GET", url: "/b/green-acres", headers: { accept: HTML } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(lines.join("")).toContain("connection lost");
    } finally {
      await app.close();
    }
  });

  describe("security headers by public scheme", () => {
    const csp = (app: App) => app.inject({ method: "GET", url: "/", headers: { accept: HTML } });

    it("sends no upgrade-insecure-requests and no HSTS over http (a LAN address loads its scripts)", async () => {
      expect(t.config.publicScheme).toBe("http");
      const res = await csp(t.app);
      expect(String(res.headers["content-security-policy"])).toContain("default-src 'self'");
      expect(String(res.headers["content-security-policy"])).not.toContain("upgrade-insecure-requests");
      expect(res.headers["strict-transport-security"]).toBeUndefined();
    });

    it("sends both over https, and builds absolute URLs on the tenant's subdomain", async () => {
      const app = await buildApp({
        config: { ...t.config, publicScheme: "https", publicHost: "boxes.example.com" },
        db: t.db,
        clock: t.clock,
        logger: pino({ level: "silent" }),
      });
      try {
        const res = await csp(app);
        expect(String(res.headers["content-security-policy"])).toContain("upgrade-insecure-requests");
        expect(String(res.headers["strict-transport-security"])).toMatch(/max-age=\d+/);
        const page = (await app.inject({ method: "GET", url: "/", headers: { accept: HTML, host: "plain-bakery.boxes.example.com" } })).body;
        expect(page).toContain(`<link rel="canonical" href="https://plain-bakery.boxes.example.com/" />`);
        const farmPage = (await app.inject({ method: "GET", url: "/b/green-acres", headers: { accept: HTML } })).body;
        expect(metaContent(farmPage, "og:image")).toBe("https://boxes.example.com/uploads/gallery-1.png");
      } finally {
        await app.close();
      }
    });
  });
});
