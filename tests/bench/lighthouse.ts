/**
 * Lighthouse on the public pages: `npm run bench:lighthouse` (build first: `npm run web:build`; this
 * script builds nothing and stops when dist/web is missing).
 *
 * Starts the server as `npm start` runs it, in production mode (NODE_ENV=production) on a fresh embedded database
 * in a temporary DATA_DIR with the demo data seeded and sandbox payments, then runs Lighthouse 13 (its default
 * mobile profile and simulated throttling) in Debian's Chromium, RUNS times per page (default 3), and prints per
 * page the median of each figure: the four category scores, LCP, TBT, CLS and the JavaScript transferred.
 * Nothing leaves the machine: Chromium runs with background networking, component updates and the like off, and
 * Lighthouse's own error reporting is off (it never downloads anything for the categories measured).
 *
 * Options: --runs N (3), --only home,businesses,business,login,checkout, --slug <demo business> (green-acres-farm),
 * --dist <dir> (the build to serve, default dist/web), --url <origin> (measure a server already running instead
 * of starting one), --json <file> (every run's figures), --reports <dir> (each run's whole Lighthouse report, JSON).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const root = path.resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    only: { type: "string" },
    slug: { type: "string", default: "green-acres-farm" },
    url: { type: "string" },
    json: { type: "string" },
    dist: { type: "string", default: "dist/web" },
    reports: { type: "string" },
  },
});
const RUNS = Number(values.runs);
const dist = path.resolve(root, values.dist);
const slug = values.slug;

/** The pages measured; checkout needs a stored membership selection (made as the business page makes it). */
const PAGES = [
  { key: "home", name: "home", path: "/" },
  { key: "businesses", name: "businesses", path: "/businesses" },
  { key: "business", name: `business page (/b/${slug})`, path: `/b/${slug}` },
  { key: "login", name: "member login", path: `/b/${slug}/membership` },
  { key: "checkout", name: "checkout", path: `/b/${slug}/membership/checkout`, needsSelection: true },
].filter((p) => !values.only || values.only.split(",").includes(p.key));

const CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu"];

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsKb: number;
  /** Audits of a category below 1, by category, to read what costs points. */
  failing: Record<string, string[]>;
}

/** A port free right now on the loopback interface. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mp-lighthouse-"));
  // The public host is the address Chromium opens, so canonical URLs and share tags name the page measured.
  const port = await freePort();
  const child: ChildProcess = spawn(path.join(root, "node_modules/.bin/node"), ["server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "1",
      PAYMENT_PROVIDER: "sandbox",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_HOST: `127.0.0.1:${port}`,
      // Served over plain http here (production's default, https, would upgrade every request to a port that
      // does not answer it).
      PUBLIC_SCHEME: "http",
      BILLING_INTERVAL_MINUTES: "0",
      LOG_LEVEL: "info",
      REDIS_URL: "",
      WEB_DIST_DIR: dist,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl;
      while ((nl = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        try {
          const entry = JSON.parse(line);
          if (entry.msg === "membership platform ready") resolve(`http://127.0.0.1:${port}`);
        } catch {
          /* not a log line */
        }
      }
    });
    child.on("exit", (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
  });
  return {
    origin,
    stop: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await gone;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A selection as the business page stores it: the first plan of the business, picked up. */
async function demoSelection(origin: string) {
  const res = await fetch(`${origin}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: `query($slug: String!) { business(slug: $slug) { plans(first: 1) { edges { node { ref name } } } } }`, variables: { slug } }),
  });
  const body = (await res.json()) as { data?: { business?: { plans: { edges: { node: { ref: string; name: string } }[] } } } };
  const plan = body.data?.business?.plans.edges[0]?.node;
  if (!plan) throw new Error(`no plan found for ${slug}: ${JSON.stringify(body)}`);
  return { businessSlug: slug, mode: "pickup", fulfillmentMode: "pickup", chosenItemId: plan.ref, chosenItemName: plan.name, chosenAddonIds: [], chosenAddons: [], price: "$0.00", ts: Date.now() };
}

async function measure(origin: string, page: (typeof PAGES)[number], run: number): Promise<Figures> {
  const chrome = await chromeLauncher.launch({ chromePath: "/usr/bin/chromium", chromeFlags: CHROME_FLAGS });
  try {
    if (page.needsSelection) {
      // Lighthouse clears the origin's caches and cache storage before loading, but not localStorage.
      const selection = JSON.stringify(await demoSelection(origin));
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const tab = await browser.newPage();
      await tab.goto(`${origin}/favicon.svg`);
      await tab.evaluate((value) => localStorage.setItem("membership_selection", value), selection);
      await tab.close();
      await browser.disconnect();
    }
    let lhr;
    // A trace Lighthouse could not read (NO_NAVSTART, NO_FCP under load) asks for another try: at most three.
    for (let attempt = 1; ; attempt++) {
      const result = await lighthouse(`${origin}${page.path}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility", "best-practices", "seo"] });
      if (!result) throw new Error("Lighthouse returned nothing");
      lhr = result.lhr;
      if (!lhr.runtimeError) break;
      if (attempt === 3) throw new Error(`${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      console.error(`${page.path}: ${lhr.runtimeError.code}, trying again`);
    }
    if (values.reports) {
      fs.mkdirSync(values.reports, { recursive: true });
      fs.writeFileSync(path.join(values.reports, `${page.key}-${run}.json`), JSON.stringify(lhr));
    }
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const requests = ((lhr.audits["network-requests"]?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? []);
    const js = requests.filter((r) => r.resourceType === "Script").reduce((s, r) => s + (r.transferSize ?? 0), 0);
    const failing: Record<string, string[]> = {};
    for (const [id, cat] of Object.entries(lhr.categories)) {
      failing[id] = cat.auditRefs
        .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${ref.id} (${lhr.audits[ref.id].displayValue ?? lhr.audits[ref.id].score})`);
    }
    return {
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
      lcpMs: audit("largest-contentful-paint"),
      tbtMs: audit("total-blocking-time"),
      cls: audit("cumulative-layout-shift"),
      jsKb: js / 1000,
      failing,
    };
  } finally {
    chrome.kill();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

if (!values.url && !fs.existsSync(path.join(dist, "index.html"))) {
  console.error(`${path.relative(root, dist) || dist} has no build: run \`npm run web:build\` first (this script measures the build, it builds nothing).`);
  process.exit(1);
}
const server = values.url ? { origin: values.url.replace(/\/$/, ""), stop: async () => {} } : await startServer();
const loadBefore = os.loadavg();
const all: Record<string, Figures[]> = {};
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const page of PAGES) {
      const figures = await measure(server.origin, page, run);
      (all[page.key] ??= []).push(figures);
      console.error(`run ${run}/${RUNS} ${page.name}: perf ${figures.performance} a11y ${figures.accessibility} bp ${figures.bestPractices} seo ${figures.seo} LCP ${Math.round(figures.lcpMs)} ms TBT ${Math.round(figures.tbtMs)} ms CLS ${figures.cls.toFixed(3)} JS ${figures.jsKb.toFixed(1)} kB (load ${os.loadavg()[0].toFixed(2)})`);
    }
  }
} finally {
  await server.stop();
}
const loadAfter = os.loadavg();

const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
console.log(`\nLighthouse ${JSON.parse(fs.readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8")).version}, mobile, simulated throttling, ${RUNS} run(s) per page, medians. ${os.cpus().length} CPUs; load average (1/5/15 min) ${fmtLoad(loadBefore)} before, ${fmtLoad(loadAfter)} after.\n`);
console.log("| page | performance | accessibility | best practices | SEO | LCP s | TBT ms | CLS | JS transferred kB |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const page of PAGES) {
  const runs = all[page.key];
  const m = (f: (x: Figures) => number) => median(runs.map(f));
  console.log(`| ${page.name} | ${m((x) => x.performance)} | ${m((x) => x.accessibility)} | ${m((x) => x.bestPractices)} | ${m((x) => x.seo)} | ${(m((x) => x.lcpMs) / 1000).toFixed(1)} | ${Math.round(m((x) => x.tbtMs))} | ${m((x) => x.cls).toFixed(3)} | ${m((x) => x.jsKb).toFixed(0)} |`);
}
console.log("\nAudits below full marks (first run of each page):");
for (const page of PAGES) {
  const f = all[page.key][0].failing;
  const lines = Object.entries(f).filter(([, ids]) => ids.length).map(([cat, ids]) => `  ${cat}: ${ids.join(", ")}`);
  if (lines.length) console.log(`${page.name}\n${lines.join("\n")}`);
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify(all, null, 2));
