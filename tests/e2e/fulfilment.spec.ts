import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiLogin, gql, loginAs } from "./admin-support.ts";

// An owner walks Green Acres Farm (billed on the 1st, cutoff on the 25th, New York) through April 2026 on the
// Fulfilment screen while an administrator moves the demo clock (moveDemoClock). The clock moves, renewals run and
// April freezes, which the shared server of the other specs must not see: this spec starts a server of its own
// (api/main.ts on a fresh embedded database with the demo data, CLOCK_START, the job queue).
const root = path.resolve(import.meta.dirname, "../..");
const port = Number(
  execFileSync(process.execPath, ["-e", "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"]).toString(),
);
const base = `http://127.0.0.1:${port}`;
const APRIL = "2026-04";
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";

let child: ChildProcess | undefined;
let dataDir = "";

test.describe.configure({ mode: "serial" });
test.use({ baseURL: base });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "membership-e2e-fulfilment-"));
  child = spawn(path.join(root, "node_modules/.bin/node"), ["api/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_HOST: `localhost:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "1",
      LOG_LEVEL: "warn",
      CLOCK_START: "2026-03-05T15:00:00Z",
      // Renewals run when the test moves the clock, not on a schedule; sessions outlive the month walked through.
      BILLING_INTERVAL_MINUTES: "0",
      SESSION_TTL_DAYS: "365",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  await expect
    .poll(
      async () => {
        if (child!.exitCode !== null) return `exited: ${out}`;
        return fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      { timeout: 140_000, intervals: [500] },
    )
    .toBe(true);
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const CYCLE = `query($slug: String!, $month: String) { business(slug: $slug) { databaseId fulfilment(month: $month) { state totals { expectedRevenueCents paidCents boxes held } members { memberName outlook amountCents } } } }`;
const cycleOf = async (request: APIRequestContext, token: string) => (await gql(request, token, CYCLE, { slug: "green-acres-farm", month: APRIL })).data.business.fulfilment;
const dollars = (cents: number) => `$${(cents / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;

async function moveClock(request: APIRequestContext, adminToken: string, to: string) {
  const res = await gql(request, adminToken, `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on MoveDemoClockSuccess { data { now renewalQueued } } ... on Error { message } } }`, { to });
  expect(res.data.moveDemoClock, JSON.stringify(res)).toMatchObject({ __typename: "MoveDemoClockSuccess", data: { renewalQueued: true } });
}

/** Pages of a PDF Chromium printed (its page objects are not compressed). */
const pdfPages = (pdf: Buffer) => (pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g) ?? []).length;

async function shoot(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/fulfilment-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an owner follows April from the preview through the renewal run and the freeze, prints the slips and downloads the list", async ({ page, request }) => {
  test.setTimeout(240_000);
  const admin = await apiLogin(request, "admin", "admin1234");
  const owner = await loginAs(page, "owner", "owner1234");
  const before = await cycleOf(request, owner.token);
  const businessId = (await gql(request, owner.token, `{ business(slug: "green-acres-farm") { databaseId } }`)).data.business.databaseId as number;
  expect(before.state).toBe("OPEN");
  const toCharge = before.members.filter((m: { outlook: string }) => m.outlook === "WILL_CHARGE");
  expect(toCharge.length).toBeGreaterThan(0);

  // The preview: opened from the sidebar (the month whose box is next, March here), then April.
  await page.goto(`/admin/business/${businessId}`);
  await page.getByRole("link", { name: "Fulfilment" }).first().click();
  await expect(page.getByRole("heading", { name: "Fulfilment", level: 1 })).toBeVisible();
  await expect(page.getByText("Green Acres Farm · March 2026")).toBeVisible();
  await page.getByRole("button", { name: "Next month" }).click();
  await expect(page.getByText("Green Acres Farm · April 2026")).toBeVisible();
  await expect(page.getByTestId("cycle-state")).toHaveText("Open: preview");
  await expect(page.getByTestId("expected-revenue")).toHaveText(dollars(before.totals.expectedRevenueCents));
  const preview = page.getByTestId("members-preview");
  for (const m of toCharge) await expect(preview.getByRole("row").filter({ hasText: m.memberName }).first()).toContainText(`Will be charged on Apr 1, 2026 for ${dollars(m.amountCents)}`);
  await shoot(page, "preview");
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  // The billing day: the renewal run charges April, to the cent what the preview said.
  await moveClock(request, admin.token, "2026-04-01T16:00:00Z");
  await expect.poll(async () => (await cycleOf(request, owner.token)).members.filter((m: { outlook: string }) => m.outlook === "WILL_CHARGE").length, { timeout: 60_000, intervals: [1000] }).toBe(0);
  const charged = await cycleOf(request, owner.token);
  const orders = (await gql(request, owner.token, `{ business(slug: "green-acres-farm") { orders(first: 100) { edges { node { period kind totalCents } } } } }`)).data.business.orders.edges
    .map((e: { node: { period: string; kind: string; totalCents: number } }) => e.node)
    .filter((o: { period: string; kind: string }) => o.period === APRIL && o.kind === "RENEWAL");
  const renewed = orders.reduce((n: number, o: { totalCents: number }) => n + o.totalCents, 0);
  expect(orders).toHaveLength(toCharge.length);
  expect(renewed).toBe(toCharge.reduce((n: number, m: { amountCents: number }) => n + m.amountCents, 0));
  expect(charged.totals.paidCents).toBe(before.totals.expectedRevenueCents);
  await page.reload();
  await expect(page.getByTestId("expected-revenue")).toHaveText(dollars(charged.totals.expectedRevenueCents));
  await expect(page.getByText(`Paid ${dollars(charged.totals.paidCents)}`)).toBeVisible();
  await expect(page.getByTestId("totals-grand")).toHaveText(String(charged.totals.boxes));

  // Past the cutoff day (the 25th): the next renewal pass completes and the freeze follows it.
  await moveClock(request, admin.token, "2026-04-26T13:00:00Z");
  await expect.poll(async () => (await cycleOf(request, owner.token)).state, { timeout: 60_000, intervals: [1000] }).toBe("FROZEN");
  await page.reload();
  await expect(page.getByTestId("cycle-state")).toContainText("Frozen at Apr 26, 2026");
  await expect(page.getByText("No changes since the freeze.")).toBeVisible();

  // A late change: the owner cancels one member's membership; the frozen lists keep the box, the differences say so.
  const memberships = (await gql(request, owner.token, `{ business(slug: "green-acres-farm") { fulfilment(month: "${APRIL}") { boxes(first: 1) { edges { node { membershipId memberName } } } } } }`)).data.business.fulfilment.boxes.edges;
  const leaving = memberships[0].node as { membershipId: string; memberName: string };
  const cancel = await gql(request, owner.token, `mutation($id: ID!) { cancelSubscription(input: { subscriptionId: $id, mode: NOW }) { __typename ... on Error { message } } }`, { id: leaving.membershipId });
  expect(cancel.data.cancelSubscription.__typename, JSON.stringify(cancel)).toBe("CancelSubscriptionSuccess");
  await page.reload();
  const differences = page.getByTestId("differences");
  await expect(differences.getByRole("listitem").filter({ hasText: leaving.memberName })).toContainText("Removed");
  await expect(page.getByRole("row").filter({ hasText: leaving.memberName }).first()).toBeVisible();
  await shoot(page, "frozen");

  // Print: the lists, then one packing slip per box (page.pdf() prints with the print stylesheet).
  const boxes = await page.getByTestId("packing-row").count();
  expect(boxes).toBe(charged.totals.boxes + charged.totals.held);
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: `${SHOTS}/fulfilment-print-lists.png`, fullPage: true });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  const lists = await page.pdf({ format: "A4" });
  expect(lists.subarray(0, 5).toString()).toBe("%PDF-");
  // A page per pickup point and delivery area, and one for the shipping list when it has boxes.
  const groups = await page.locator(".packing-group").count();
  const shipping = await page.locator('section[aria-labelledby="packing-shipping"]:not([data-empty])').count();
  expect(pdfPages(lists)).toBe(groups + shipping);
  await page.emulateMedia({ media: "screen" });
  await page.getByRole("button", { name: "Packing slips" }).click();
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: `${SHOTS}/fulfilment-print-slips.png`, fullPage: true });
  const slips = await page.pdf({ format: "Letter" });
  expect(pdfPages(slips)).toBe(boxes);
  await page.emulateMedia({ media: "screen" });

  // The CSV of all three lists: the header and one row per frozen box, the canceled member's still in it.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV: all lists" }).click()]);
  expect(download.suggestedFilename()).toBe(`packing-green-acres-farm-${APRIL}.csv`);
  const csv = fs.readFileSync(await download.path(), "utf8").trimEnd().split("\r\n");
  expect(csv[0]).toBe("mode,point_or_area,member,email,phone,plan,addons,address_line1,address_line2,city,state,zip,country,instructions,gift_recipient,gift_message,hold,total");
  expect(csv).toHaveLength(boxes + 1);
  expect(csv.some((line) => line.includes(leaving.memberName))).toBe(true);
});

test("an administrator reaches a business's Fulfilment screen through the business filter", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Fulfilment" }).first().click();
  await expect(page.getByRole("heading", { name: "Fulfilment", level: 1 })).toBeVisible();
  await page.getByLabel("Business").selectOption({ label: "Green Acres Farm" });
  await expect(page).toHaveURL(/\/admin\/business\/\d+\/fulfilment$/);
  // The server's clock stands on April 26 (the journey above): April's box was ready on the 6th, May's is next.
  await expect(page.getByText("Green Acres Farm · May 2026")).toBeVisible();
  await expect(page.getByTestId("cycle-state")).toHaveText("Open: preview");
  await page.getByRole("button", { name: "Previous month" }).click();
  await expect(page.getByText("Green Acres Farm · April 2026")).toBeVisible();
  await expect(page.getByTestId("cycle-state")).toContainText("Frozen at");
});
