import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import relay from "vite-plugin-relay";
import { visualizer } from "rollup-plugin-visualizer";

const here = import.meta.dirname;
// The API server (npm run dev:api) that `vite` proxies to in development.
const api = `http://127.0.0.1:${process.env.API_PORT ?? process.env.PORT ?? 3000}`;

/**
 * The dependency-free rules the server and the browser share (money, calendar, slugs, fulfillment modes): one
 * copy in api/shared, imported as "@shared/money.ts". The server imports them by relative path (Node's type
 * stripping reads no tsconfig paths); web/tsconfig.json `paths` maps the same alias for tsc, and
 * web/vitest.config.ts uses this one.
 */
export const sharedAlias = { find: /^@shared\//, replacement: `${path.resolve(here, "../api/shared")}/` };

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Files worth compressing (images other than SVG are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|txt|json|xml|webmanifest)$/;
/** A `//# sourceMappingURL=…` (or `/*# … *\/`) comment on its own line: a dependency's, naming a map we do not ship. */
const SOURCE_MAP_COMMENT = /^[ \t]*(\/\/[#@] sourceMappingURL=\S*|\/\*[#@] sourceMappingURL=[^*]*\*\/)[ \t]*$/gm;

/**
 * The production build as the server sends it (api/http/web-app.ts): no stray source map comments (the build
 * writes no maps unless BUNDLE_ANALYZE asks for them), and a `.br` and a `.gz` beside every compressible file
 * of the output (assets, public files), at the highest levels, once, instead of per request. Not index.html: the
 * server fills in each business's tags and compresses the shell itself.
 */
function productionFiles(): Plugin {
  let outDir = "";
  let sourcemap = false;
  return {
    name: "production-files",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
      sourcemap = Boolean(config.build.sourcemap);
    },
    generateBundle(_options, bundle) {
      if (sourcemap) return;
      for (const file of Object.values(bundle)) {
        if (file.type === "chunk") file.code = file.code.replace(SOURCE_MAP_COMMENT, "");
      }
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true })).filter((f) => COMPRESSIBLE.test(f) && f !== "index.html");
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const data = await fs.readFile(full);
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
            gzip(data, { level: 9 }),
          ]);
          // A file that does not shrink (a tiny robots.txt) is sent as it is.
          if (br.length < data.length) await fs.writeFile(`${full}.br`, br);
          if (gz.length < data.length) await fs.writeFile(`${full}.gz`, gz);
        }),
      );
    },
  };
}

const ADMIN_MODULE = /[\\/]web[\\/]src[\\/](routes|features|ui)[\\/]admin[\\/]/;
/** A public page's route module (routes/HomeRoute.tsx…), which publicRoutes.tsx imports lazily. */
const PUBLIC_ROUTE = /[\\/]web[\\/]src[\\/]routes[\\/]\w+Route\.tsx$/;
/** Packages the entry always loads: a module importing no other package brings no component chunk with it. */
const ENTRY_PACKAGE = /[\\/]node_modules[\\/](react|react-relay|relay-runtime)[\\/]/;

interface ChunkingContext {
  getModuleInfo(id: string): { importers: readonly string[]; importedIds: readonly string[] } | null;
}

/**
 * "shared" for our own small helpers (web/src, api/shared: money, dates, the document title, the error
 * boundary, the lazy dialog, saved addresses…) that two or more public pages use, importing no package but
 * React and Relay: one chunk of about 2 kB instead of one per set of routes using each. Left to itself Rolldown
 * makes a chunk of every set of routes (admin pages included) using a module, so a public page loaded a dozen
 * chunks of 100-500 bytes, each a request costing about 1.1 kB of headers. Modules importing components
 * (Chakra) stay apart: the group would take the components along and every public page would load them. Which
 * pages use a module is read from its importers up to the route modules, admin modules skipped (an admin page
 * needing one loads the chunk too).
 */
function publicHelper(id: string, ctx: ChunkingContext): string | null {
  if (id.includes("node_modules") || id.includes("__generated__") || ADMIN_MODULE.test(id) || PUBLIC_ROUTE.test(id)) return null;
  const info = ctx.getModuleInfo(id);
  if (!info || info.importedIds.some((dep) => dep.includes("node_modules") && !ENTRY_PACKAGE.test(dep))) return null;
  const pages = new Set<string>();
  const seen = new Set<string>();
  const todo = [id];
  while (todo.length) {
    const m = todo.pop()!;
    if (seen.has(m) || ADMIN_MODULE.test(m)) continue;
    seen.add(m);
    if (PUBLIC_ROUTE.test(m)) pages.add(m);
    else todo.push(...(ctx.getModuleInfo(m)?.importers ?? []));
  }
  return pages.size >= 2 ? "shared" : null;
}

export default defineConfig({
  root: here,
  publicDir: path.join(here, "public"),
  plugins: [
    react(),
    relay,
    productionFiles(),
    // BUNDLE_ANALYZE=/tmp/treemap.html (or .json for raw data) writes which modules fill each chunk and their
    // minified size (read from source maps, which the build then also writes).
    process.env.BUNDLE_ANALYZE &&
      visualizer({
        filename: process.env.BUNDLE_ANALYZE,
        template: process.env.BUNDLE_ANALYZE.endsWith(".json") ? "raw-data" : "treemap",
        gzipSize: true,
        sourcemap: true,
      }),
  ],
  resolve: {
    alias: [
      sharedAlias,
      // react-relay's main entry also carries the legacy container API (QueryRenderer, createFragmentContainer…),
      // CommonJS that cannot be tree-shaken; the app uses hooks only, which `react-relay/hooks` exports alone.
      { find: /^react-relay$/, replacement: "react-relay/hooks" },
    ],
  },
  build: {
    outDir: path.resolve(here, "../dist/web"),
    emptyOutDir: true,
    // Chakra is one large vendor chunk; routes are split with React.lazy.
    chunkSizeWarningLimit: 900,
    // No source maps in production (none shipped, none named): only for the bundle treemap.
    sourcemap: Boolean(process.env.BUNDLE_ANALYZE),
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // What the entry imports statically: in the entry's chunk, instead of a dozen small chunks beside it
            // that Rolldown splits off because route chunks import them too.
            { name: "index", tags: ["$initial"], priority: 2 },
            { name: publicHelper, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    host: "127.0.0.1",
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: { "/graphql": api, "/api": api, "/uploads": api },
  },
});
