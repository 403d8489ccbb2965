/**
 * Production bundle sizes per route (gzip) from dist/web (`npm run web:build` first), and the JavaScript each
 * public route loads before it renders: the entry's static import closure plus the route chunk's own.
 * Run alone (no database): `npx tsx tests/bench/web-bundles.ts [--dist dist/web]`.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export interface RouteBundle {
  route: string;
  /** The route chunk alone, gzip bytes. */
  chunkGzip: number;
  /** Everything loaded to show the route (entry closure + route closure), gzip bytes. */
  initialGzip: number;
  /** Admin or editor chunks in that set (must be empty for public routes). */
  adminChunks: string[];
}

const PUBLIC_ROUTES = ["HomeRoute", "BusinessesRoute", "BusinessRoute", "CheckoutRoute", "MembershipRoute", "ContactRoute", "LegalRoute"];
const ADMIN_CHUNK = /^(Admin|ApiTokens|BusinessPageEditor|HomePageEditor|NextBoxEditor|RichTextEditor|PageEditor|BusinessDashboard|MembershipsPanel|Coupons|Users|RecentSubscriptions|editorjs)/i;

export function measureBundles(distDir: string): { entry: string; entryGzip: number; routes: RouteBundle[] } | null {
  const indexHtml = path.join(distDir, "index.html");
  if (!fs.existsSync(indexHtml)) return null;
  const assets = path.join(distDir, "assets");
  const gz = new Map<string, number>();
  const size = (file: string) => {
    let n = gz.get(file);
    if (n === undefined) gz.set(file, (n = gzipSync(fs.readFileSync(path.join(assets, file)), { level: 9 }).length));
    return n;
  };
  const staticImports = (file: string): string[] => {
    const src = fs.readFileSync(path.join(assets, file), "utf8");
    // import{…}from"./x.js" and import"./x.js" (not dynamic import("./x.js"), which loads later).
    return [...src.matchAll(/import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']\.\/([\w.-]+\.js)["']/g)].map((m) => m[1]);
  };
  const closure = (roots: string[]) => {
    const seen = new Set<string>();
    const todo = [...roots];
    while (todo.length) {
      const f = todo.pop()!;
      if (seen.has(f) || !fs.existsSync(path.join(assets, f))) continue;
      seen.add(f);
      todo.push(...staticImports(f));
    }
    return seen;
  };
  const html = fs.readFileSync(indexHtml, "utf8");
  const entry = /<script[^>]+src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) return null;
  const preloads = [...html.matchAll(/rel="modulepreload"[^>]*href="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
  const base = closure([entry, ...preloads]);
  const chunkNames = fs.readdirSync(assets).filter((f) => f.endsWith(".js"));
  const routeFiles = chunkNames.filter((f) => /Route-[\w-]+\.js$/.test(f));
  const routes = routeFiles.map((file): RouteBundle => {
    const route = file.replace(/-[\w-]+\.js$/, "");
    const all = new Set([...base, ...closure([file])]);
    return {
      route,
      chunkGzip: size(file),
      initialGzip: [...all].reduce((s, f) => s + size(f), 0),
      adminChunks: [...all].filter((f) => ADMIN_CHUNK.test(f)),
    };
  });
  routes.sort((a, b) => Number(PUBLIC_ROUTES.includes(b.route)) - Number(PUBLIC_ROUTES.includes(a.route)) || a.route.localeCompare(b.route));
  return { entry, entryGzip: [...base].reduce((s, f) => s + size(f), 0), routes };
}

export const isPublicRoute = (route: string) => PUBLIC_ROUTES.includes(route);

/** The target: initial JS of every public page ≤ 250 kB gzip (kB = 1,000 bytes). */
export const PUBLIC_INITIAL_BUDGET = 250_000;

// `npx tsx tests/bench/web-bundles.ts [--dist dir]`: the table alone, without a database.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({ options: { dist: { type: "string", default: "dist/web" } } });
  const web = measureBundles(path.resolve(values.dist));
  if (!web) {
    console.error(`${values.dist}: no index.html with an entry script (run npm run web:build)`);
    process.exit(1);
  }
  console.log(`Web bundles (gzip, kB = 1000 bytes): entry and its static imports ${(web.entryGzip / 1000).toFixed(1)} kB`);
  console.log("| route | route chunk | initial JS to show it | admin/editor chunks loaded |");
  console.log("|---|---|---|---|");
  for (const r of web.routes) {
    console.log(`| ${r.route}${isPublicRoute(r.route) ? " (public)" : ""} | ${(r.chunkGzip / 1000).toFixed(1)} | ${(r.initialGzip / 1000).toFixed(1)} | ${r.adminChunks.join(", ") || "none"} |`);
  }
  const publicRoutes = web.routes.filter((r) => isPublicRoute(r.route));
  const largest = publicRoutes.reduce((a, b) => (b.initialGzip > a.initialGzip ? b : a));
  const over = publicRoutes.filter((r) => r.initialGzip > PUBLIC_INITIAL_BUDGET || r.adminChunks.length);
  console.log(
    `\nPublic pages: largest initial JS ${(largest.initialGzip / 1000).toFixed(1)} kB (${largest.route}); target ≤ ${PUBLIC_INITIAL_BUDGET / 1000} kB and no admin chunk: ${over.length ? `NOT met by ${over.map((r) => r.route).join(", ")}` : "met"}`,
  );
}
