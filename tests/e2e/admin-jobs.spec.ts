import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { loginAs, screenshots } from "./admin-support.ts";
import { useOwnServer } from "./own-server.ts";

// The Jobs screen needs a run that fails for sure, which the shared server cannot give on demand: this spec
// starts a server of its own (the same app, demo data, the renewal queue) with one more queue, registered by this
// test only, whose job fails its first attempt and succeeds when retried. It also runs one renewal pass, so the
// screen shows a completed run with its counts.
const root = path.resolve(import.meta.dirname, "../..");
const FLAKY_QUEUE = "e2e-export";
const imp = (file: string) => JSON.stringify(path.join(root, file));
const server = `
  import path from "node:path";
  import pino from "pino";
  import { loadConfig } from ${imp("api/config.ts")};
  import { openDatabase } from ${imp("api/db.ts")};
  import { buildApp } from ${imp("server/app.ts")};
  import { startJobQueue } from ${imp("api/queue/job-queue.ts")};
  import { RENEWALS_QUEUE, renewalsJob } from ${imp("api/jobs/renewals-job.ts")};
  import { ShiftedClock } from ${imp("api/shared/clock.ts")};
  import { seedDemoData } from ${imp("prisma/seed-data.ts")};
  const config = loadConfig();
  const log = pino({ level: "warn" });
  const clock = new ShiftedClock(config.clockStart);
  const db = await openDatabase({ pgliteDir: path.join(config.dataDir, "pglite") });
  await db.migrate();
  await seedDemoData(db.prisma, clock);
  let attempts = 0;
  const flaky = {
    queue: { name: ${JSON.stringify(FLAKY_QUEUE)}, retryLimit: 0 },
    async run() {
      if (++attempts === 1) throw new Error("export target unreachable (connection refused)");
      return { exported: 3 };
    },
  };
  const jobs = await startJobQueue({ db, log, definitions: [renewalsJob({ db: db.prisma, clock, config, log }), flaky], schedules: [], pollingIntervalSeconds: 0.5 });
  await jobs.boss.send(RENEWALS_QUEUE, {});
  await jobs.boss.send(${JSON.stringify(FLAKY_QUEUE)}, {});
  const app = await buildApp({ config, db, clock, logger: log, jobs });
  await app.listen({ host: "127.0.0.1", port: config.port });
`;

useOwnServer({ name: "jobs", program: ["--input-type=module", "-e", server] });

test("the admin sees each queue's runs, a failed run with its error, retries it and sees it complete", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Jobs", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Jobs", level: 1 })).toBeVisible();

  // The renewal pass ran to completion and shows its counts.
  const renewals = page.getByRole("region", { name: "Billing renewals runs" });
  await expect(renewals.getByRole("row").nth(1)).toContainText("Completed", { timeout: 20_000 });
  await expect(renewals.getByRole("row").nth(1)).toContainText(/(due|skipped|charged) \d+|nothing due/);

  // The test queue's job failed: outcome, error, and a Retry button. The screen shows it once refreshed.
  const exports = page.getByRole("region", { name: `${FLAKY_QUEUE} runs` });
  const run = exports.getByRole("row").nth(1);
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(run).toContainText("Failed", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(run).toContainText("export target unreachable (connection refused)");
  await expect(run).toContainText("1 of 1");
  await screenshots(page, "jobs-failed");
  // Every page's accessibility bar (accessibility.spec.ts) on this page too: no critical or serious axe violation
  // (WCAG 2.0/2.1 A and AA).
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  await run.getByRole("button", { name: "Retry" }).click();
  await expect(async () => {
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(run).toContainText("Completed", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(run).toContainText("exported 3");
  await expect(run).not.toContainText("export target unreachable");
  await expect(run.getByRole("button", { name: "Retry" })).toHaveCount(0);
});

test.describe("in the viewer's time zone", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("Run now queues a renewal pass, and passes that found nothing due fold into one row", async ({ page }) => {
    await loginAs(page, "admin", "admin1234");
    await page.goto("/admin/jobs");
    await expect(page.getByText("Times are in your time zone (Asia/Tokyo).", { exact: false })).toBeVisible();
    const renewals = page.getByRole("region", { name: "Billing renewals runs" });
    await expect(renewals.getByRole("row").nth(1)).toContainText("Completed", { timeout: 20_000 });

    // The demo data's first pass charged what was due on the demo day: each pass by hand now finds nothing due.
    // Every click waits for its run to complete (a click while one waits would only bring that one forward).
    const runNow = page.getByRole("button", { name: "Run now: Billing renewals" });
    // Idle passes on the newest row: "Nothing due ×N" folded, a lone one's counts read "nothing due".
    const foldedCount = async () => {
      const newest = (await renewals.getByRole("row").nth(1).textContent()) ?? "";
      return Number(newest.match(/Nothing due ×(\d+)/)?.[1] ?? (newest.includes("nothing due") ? 1 : 0));
    };
    for (let i = 0; i < 3; i++) {
      const before = await foldedCount();
      await runNow.click();
      await expect(async () => {
        await page.getByRole("button", { name: "Refresh" }).click();
        expect(await foldedCount()).toBeGreaterThan(before);
      }).toPass({ timeout: 20_000 });
    }
    const folded = renewals.getByRole("row").nth(1);
    const text = (await folded.textContent()) ?? "";
    // "Nothing due ×3, 21:22–21:23", or one time when every run was queued within the same minute.
    const [, count, from, until] = text.match(/Nothing due ×(\d+), (\d{2}:\d{2})(?:–(\d{2}:\d{2}))?/) ?? [];
    const to = until ?? from;
    expect(Number(count), text).toBeGreaterThanOrEqual(3);
    // Times are Tokyo's (the browser's zone), not the server's UTC: the newest run was queued a moment ago.
    const tokyoNow = new Intl.DateTimeFormat("en-US", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    const drift = Math.abs(minutes(to) - minutes(tokyoNow.format(new Date())));
    expect(Math.min(drift, 24 * 60 - drift), `${to} in Tokyo`).toBeLessThanOrEqual(2);
    expect(minutes(from) <= minutes(to) || minutes(from) - minutes(to) > 12 * 60, text).toBe(true);
    // The per-message email queue has no Run now; this spec's server runs only renewals and the test queue.
    await expect(page.getByRole("button", { name: /^Run now/ })).toHaveCount(2);
    await screenshots(page, "jobs-folded");
  });
});

test("a member is refused the Jobs data by the server", async ({ request }) => {
  const login = await request.post("/graphql", {
    data: { query: `mutation { login(input: { username: "member", password: "member1234" }) { ... on LoginSuccess { data { token } } } }` },
  });
  const token = (await login.json()).data.login.data.token as string;
  const response = await request.post("/graphql", { data: { query: "{ jobQueues { queue } }" }, headers: { Authorization: `Bearer ${token}` } });
  const body = await response.json();
  expect(body.data?.jobQueues ?? null).toBeNull();
  expect(JSON.stringify(body.errors)).toMatch(/permission|not authorized|forbidden/i);
});
