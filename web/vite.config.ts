import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import relay from "vite-plugin-relay";
import { visualizer } from "rollup-plugin-visualizer";
import type * as Theme from "./src/ui/theme.ts";

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
 * The production build as the server sends it (server/web-app.ts): no stray source map comments (the build
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
    // A build is always a production build: with NODE_ENV=development in the environment (a developer's shell, a
    // .env) Vite would bundle React's development runtime (about 60 kB more, several times the main-thread
    // time), and the server would serve it as it is. `npm run dev:web` is the development build.
    config() {
      process.env.NODE_ENV = "production";
    },
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

/** The stylesheet main.tsx imports: Chakra's global CSS for web/src/ui/theme.ts's system (see chakraGlobalCss). */
const CHAKRA_GLOBAL_CSS = "virtual:chakra-global.css";

/**
 * Chakra's global CSS (the `@layer` order, preflight, global styles, keyframes and every token's CSS variable,
 * ~48 kB, 5.7 kB brotli) as a stylesheet built from the same system, instead of ChakraProvider building it at
 * startup: its `<Global>` elements serialised, hashed (murmur2 over the whole text), parsed by stylis and
 * inserted these rules on every page load, about 15 % of the entry's main-thread time in a CPU profile. The
 * CSS is what emotion inserts (rendered by emotion's server build), checked rule by rule against the CSSOM of
 * the runtime version when this was written (tests/bench/README.md, "Startup main thread").
 * web/src/ui/theme.ts `appSystem` is the system without these styles, for the app's root provider.
 */
function chakraGlobalCss(): Plugin {
  const resolved = `\0${CHAKRA_GLOBAL_CSS}`;
  const theme = path.join(here, "src/ui/theme.ts");
  return {
    name: "chakra-global-css",
    resolveId(id) {
      return id === CHAKRA_GLOBAL_CSS ? resolved : null;
    },
    async load(id) {
      if (id !== resolved) return null;
      this.addWatchFile(theme);
      // Node runs theme.ts itself (type stripping; the query re-reads it after an edit under `vite` dev), and
      // the provider renders on the server as emotion renders for server rendering: one <style> per <Global>,
      // holding the rules its browser build inserts (same serializer, stylis plugins and order).
      const [{ system }, { ChakraProvider }, { createElement }, { renderToStaticMarkup }] = await Promise.all([
        import(`${pathToFileURL(theme).href}?t=${Date.now()}`) as Promise<typeof Theme>,
        import("@chakra-ui/react"),
        import("react"),
        import("react-dom/server"),
      ]);
      const html = renderToStaticMarkup(createElement(ChakraProvider, { value: system, children: null }));
      const rules = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
      if (rules.join("").length < 10_000) throw new Error(`chakra-global-css: no global styles in ${html.slice(0, 200)}`);
      return rules.join("\n");
    },
  };
}

/** Chakra's createSystem (3.37.0), whose global styles chakraGlobalCss builds ahead of time. */
const CHAKRA_SYSTEM = /[\\/]@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]system\.js$/;
const EAGER_GLOBAL = "const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];";

/**
 * createSystem builds its global styles (`_global`: every token's CSS variable through its css function, the
 * preflight and global CSS) when called, about 5 % of the entry's main-thread time, although only
 * ChakraProvider reads them, and the app's provider gets none (chakraGlobalCss, theme.ts `appSystem`). Built
 * on first read instead; the build fails if Chakra's code no longer reads as expected.
 */
function lazyChakraGlobals(): Plugin {
  return {
    name: "lazy-chakra-globals",
    apply: "build",
    transform(code, id) {
      if (!CHAKRA_SYSTEM.test(id)) return null;
      if (code.split(EAGER_GLOBAL).length !== 2 || code.split("\n    _global,\n").length !== 2) {
        this.error(`lazy-chakra-globals: ${id} changed; update or remove this plugin`);
      }
      return code
        .replace(EAGER_GLOBAL, "let _global;")
        .replace("\n    _global,\n", "\n    get _global() { return _global ??= [getPreflightCss(), getGlobalCss(), getTokenCss()]; },\n");
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
    chakraGlobalCss(),
    lazyChakraGlobals(),
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
    // The only CSS is Chakra's global styles (chakraGlobalCss), kept exactly as emotion would insert them: the
    // minifier reorders declarations and rewrites values (38.7 kB instead of 48; 5.6 kB brotli either way).
    cssMinify: false,
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
