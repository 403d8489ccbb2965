/**
 * The browser edge: the built web app (WEB_DIST_DIR) and every answer no other route gives.
 *
 * - `/assets/*` (content-hashed by Vite): one year, `immutable`; brotli or gzip from the `.br`/`.gz` files the
 *   build writes beside each file (web/vite.config.ts), chosen by Accept-Encoding.
 * - Other public files (favicon, robots.txt, demo images): a day, compressed the same way.
 * - `/demo/<name>.png`: the PNG of a demo logo `/demo/<name>.svg`, for email (api/uploads/email-png.ts).
 * - The app shell (index.html) answers navigations only: a GET or HEAD accepting text/html, outside /api,
 *   /graphql, /uploads and /assets, for a path without a file extension. It is revalidated on every use
 *   (`no-cache` with an ETag; If-None-Match gets a 304) and compressed once, in memory.
 * - `/b/{slug}` and a tenant's home page carry the business's title, description, canonical URL and Open Graph
 *   tags in the HTML itself; an unknown business gets the plain shell with status 404 (the app shows its
 *   not-found page).
 * - Anything else is a real 404: `{ "error": "Not found" }`. HEAD answers as GET does, without the body.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Negotiator } from "@fastify/accept-negotiator";
import fastifyStatic from "@fastify/static";
import type { Config } from "../api/config.ts";
import type { ServiceContext } from "../api/context.ts";
import { businessBySlug } from "../api/businesses/service.ts";
import { businessPage } from "../api/pages/service.ts";
import { galleryOf } from "../api/pages/content.ts";
import { cachedPublicPage } from "../api/cache/public-pages.ts";
import { richTextToPlain } from "../api/rules/richtext.ts";
import { NotFoundError } from "../api/shared/errors.ts";
import { isValidSlug } from "../api/shared/slug.ts";
import { requestTenant } from "./tenancy.ts";
import { DEMO_PNG_FILE, demoLogoPng } from "../api/uploads/email-png.ts";
import { absoluteUrl, businessUrl } from "../api/shared/public-urls.ts";
import { ShellTemplate } from "./share-tags.ts";

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Paths the shell never answers: the APIs, uploaded files and built assets have their own 404s. */
const NOT_PAGES = /^\/(api|graphql|uploads|assets)(\/|$)/;
/** A last path segment with an extension names a file, not a page. */
const FILE_PATH = /\/[^/]*\.[^/]*$/;

/** Whether an Accept header takes HTML (absent, text/html, text/* or *\/*, with q above 0). */
function acceptsHtml(accept: string | undefined): boolean {
  if (!accept) return true;
  return accept.split(",").some((part) => {
    const [type = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    if (q && !(Number(q.slice(2)) > 0)) return false;
    return type === "text/html" || type === "text/*" || type === "*/*";
  });
}

/** Encodings of the shell: negotiated as @fastify/static negotiates the assets' (q-values, `*`); none: identity. */
const SHELL_ENCODINGS = new Negotiator<"br" | "gzip">({ supportedValues: ["br", "gzip"] });

/** An HTML answer in its three encodings, with its ETag. */
interface HtmlBody {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

function htmlBody(html: string): HtmlBody {
  const identity = Buffer.from(html);
  return {
    etag: `"${createHash("sha1").update(identity).digest("base64url")}"`,
    identity,
    br: zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip: zlib.gzipSync(identity, { level: 9 }),
  };
}

/** Compressed business pages by their HTML, newest kept (a map's insertion order is the eviction order). */
class HtmlBodies {
  private readonly entries = new Map<string, HtmlBody>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  get(html: string): HtmlBody {
    let body = this.entries.get(html);
    if (body) {
      this.entries.delete(html);
    } else {
      body = htmlBody(html);
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(html, body);
    return body;
  }
}

function etagMatches(header: string | undefined, etag: string): boolean {
  return !!header && header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

/** Adds names to the Vary header, keeping those already there (CORS's Origin). */
function addVary(reply: FastifyReply, names: string) {
  const present = reply.getHeader("vary");
  reply.header("vary", present ? `${String(present)}, ${names}` : names);
}

function sendHtml(req: FastifyRequest, reply: FastifyReply, body: HtmlBody, status: number, vary = "Accept-Encoding") {
  reply.header("cache-control", "no-cache").header("etag", body.etag);
  addVary(reply, vary);
  if (status === 200 && etagMatches(req.headers["if-none-match"], body.etag)) return reply.status(304).send();
  const encoding = SHELL_ENCODINGS.negotiate(req.headers["accept-encoding"] ?? "");
  if (encoding) reply.header("content-encoding", encoding);
  return reply
    .status(status)
    .type("text/html; charset=utf-8")
    .send(encoding ? body[encoding] : body.identity);
}

const notFound = (reply: FastifyReply) => reply.status(404).send({ error: "Not found" });

export interface WebAppOptions {
  config: Config;
  /** The request's service context (tenant, database): business pages are read through the domain services. */
  serviceContext: (req: FastifyRequest) => Promise<ServiceContext>;
}

/** Serves the built web app from config.webDistDir; without one (tests, API-only), every unknown path is a 404. */
/** What React's development runtime says in the console, and its production runtime never contains. */
const REACT_DEVELOPMENT_MARKER = "Download the React DevTools";

/**
 * Which build a web app folder holds: "development" when a script of it carries React's development runtime (a
 * build made with NODE_ENV=development before builds forced production, or by hand), else "production".
 */
export function webBuildKind(dist: string): "production" | "development" {
  const assets = path.join(dist, "assets");
  const scripts = fs.existsSync(assets) ? fs.readdirSync(assets).filter((f) => f.endsWith(".js")) : [];
  return scripts.some((f) => fs.readFileSync(path.join(assets, f), "utf8").includes(REACT_DEVELOPMENT_MARKER)) ? "development" : "production";
}

export async function serveWebApp(app: FastifyInstance<any, any, any, any, any>, { config, serviceContext }: WebAppOptions) {
  const dist = config.webDistDir;
  const indexFile = path.join(dist, "index.html");
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ webDistDir: dist }, "no web app build to serve: pages answer 404 (npm run web:build, or npm start, builds it)");
    app.setNotFoundHandler((_req, reply) => notFound(reply));
    return;
  }
  const build = webBuildKind(dist);
  app.log[build === "production" ? "info" : "warn"]({ webDistDir: dist, build }, `serving the web app: a ${build} build`);

  // One route per built file (new files appear on restart, as a new build does); the .br/.gz siblings are
  // picked by preCompressed, never served under their own names.
  const staticOptions = { wildcard: false, index: false, preCompressed: true, decorateReply: false } as const;
  if (fs.existsSync(path.join(dist, "assets"))) {
    await app.register(fastifyStatic, { ...staticOptions, root: path.join(dist, "assets"), prefix: "/assets/", maxAge: YEAR_MS, immutable: true, globIgnore: ["**/*.br", "**/*.gz"] });
  }
  await app.register(fastifyStatic, { ...staticOptions, root: dist, prefix: "/", maxAge: DAY_MS, globIgnore: ["assets/**", "index.html", "**/*.br", "**/*.gz"] });
  // Drawn once per process from the build's SVG. 30 days, not immutable: a new build may redraw a logo under its name.
  app.get<{ Params: { file: string } }>("/demo/:file", async (req, reply) => {
    const name = DEMO_PNG_FILE.exec(req.params.file)?.[1];
    const png = name ? await demoLogoPng(dist, name) : null;
    if (!png) return reply.callNotFound();
    return reply.type("image/png").header("cache-control", "public, max-age=2592000").send(png.bytes);
  });

  const template = new ShellTemplate(fs.readFileSync(indexFile, "utf8"));
  const shell = htmlBody(template.html);
  const businessPages = new HtmlBodies(200);
  const origin = `${config.publicScheme}://${config.publicHost}`;

  /**
   * The head tags of a business (from the public page cache; page edits drop them); null when there is no such
   * business, undefined when they could not be read.
   */
  async function businessTags(req: FastifyRequest, slug: string): Promise<string | null | undefined> {
    if (!isValidSlug(slug)) return null;
    const ctx = await serviceContext(req);
    try {
      const cached = await cachedPublicPage(ctx, `share-tags:${slug}`, async () => {
        const business = await businessBySlug(ctx, slug);
        const { page } = await businessPage(ctx, business.id);
        const image = absoluteUrl(galleryOf(page?.gallery)[0]?.url, origin) ?? absoluteUrl(page?.logoUrl, origin);
        const tags = template.businessTags({
          name: business.name,
          description: richTextToPlain(page?.descriptionHtml),
          url: businessUrl(business.slug, config.publicScheme, config.publicHost),
          image,
        });
        return { businessId: business.id, value: tags };
      });
      return JSON.parse(cached.body) as string;
    } catch (e) {
      if (e instanceof NotFoundError) return null;
      // The page still works without its tags (the app loads the business itself): the plain shell, logged.
      req.log.error({ err: e }, "share tags of a business page could not be read");
      return undefined;
    }
  }

  async function sendBusinessPage(req: FastifyRequest, reply: FastifyReply, slug: string, vary?: string) {
    const tags = await businessTags(req, slug);
    if (tags === null) return sendHtml(req, reply, shell, 404, vary);
    if (tags === undefined) return sendHtml(req, reply, shell, 200, vary);
    return sendHtml(req, reply, businessPages.get(template.withHead(tags)), 200, vary);
  }

  // The main host's home page, or a tenant's business page on its subdomain (or named by X-Tenant).
  app.get("/", (req, reply) => {
    if (!acceptsHtml(req.headers.accept)) return notFound(reply);
    const tenant = requestTenant(req.headers, config.publicHost);
    // The same URL is a different page per tenant: X-Tenant joins the Vary list.
    if (tenant) return sendBusinessPage(req, reply, tenant, "Accept-Encoding, X-Tenant");
    return sendHtml(req, reply, shell, 200, "Accept-Encoding, X-Tenant");
  });

  app.get<{ Params: { slug: string } }>("/b/:slug", (req, reply) => {
    if (!acceptsHtml(req.headers.accept)) return notFound(reply);
    return sendBusinessPage(req, reply, req.params.slug.toLowerCase());
  });

  // Every other page of the app routes on the client.
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split("?")[0];
    const page = (req.method === "GET" || req.method === "HEAD") && !NOT_PAGES.test(pathname) && !FILE_PATH.test(pathname) && acceptsHtml(req.headers.accept);
    return page ? sendHtml(req, reply, shell, 200) : notFound(reply);
  });
}
