import AxeBuilder from "@axe-core/playwright";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Locator, type Page, type TestInfo } from "@playwright/test";
import { apiLogin, gql, loginAs } from "./admin-support.ts";
import { useOwnServer } from "./own-server.ts";
import { checkLayout } from "./layout-support.ts";
import { fillCard, pinClock } from "./member-support.ts";
import { connectPayouts, runSuffix } from "./tenant-support.ts";

// Past its cutoff day, a business whose page takes sign-ups for next month's box (afterCutoff NEXT_MONTH)
// signs a visitor up today with the card saved and nothing charged; the first charge comes on the first month's
// billing day, and that month's packing list has the box. The business day is March 5th (CLOCK_START); the spec's
// businesses cut off on the 4th and bill on the 6th, so a sign-up today is April's. The charge needs the demo clock
// moved to April 6th, which the shared server of the other specs must not see (its clock only moves forward): like
// fulfilment.spec.ts, this spec starts a server of its own (server/main.ts on a fresh embedded database, CLOCK_START,
// the job queue) and moves only its clock.
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";

useOwnServer({
  name: "next-month",
  // Renewals run when the test moves the clock, not on a schedule; sessions outlive the month walked through.
  env: { SEED_DEMO: "1", BILLING_INTERVAL_MINUTES: "0", SESSION_TTL_DAYS: "365" },
});

/** §8's refusal for a page that cuts off on the 4th. */
const REFUSAL = "The last day to subscribe for this month has passed. The cutoff day is the 4th of each month. Please try again next month.";
const TERMS = "Your first box will be April's. Nothing is charged today; $21.00 will be charged on April 6.";
const SAVE_CARD = "Save card · first charge $21.00 on April 6";

/** A business past its cutoff day (the 4th), billed on the 6th, with one $21.00 pickup plan. */
async function pastCutoffBusiness(request: APIRequestContext, token: string, name: string, afterCutoff: "REFUSE" | "NEXT_MONTH") {
  const slug = `${name.toLowerCase().replace(/\W+/g, "-")}-${runSuffix()}`;
  const created = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on CreateBusinessSuccess { data { databaseId } } ... on Error { message } } }`, {
    input: { name, slug },
  });
  expect(created.data.createBusiness.__typename, JSON.stringify(created)).toBe("CreateBusinessSuccess");
  const businessId = created.data.createBusiness.data.databaseId as number;
  await connectPayouts(request, token, businessId);
  const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
    input: {
      businessId,
      content: { brand: { name }, subscriptionCutoffDay: 4, billingDay: 6, afterCutoff, fulfillment: { pickup: true, pickupAddress: "4 Creamery Lane" } },
      plans: [{ name: "Cheese Box", pickupCents: 2100 }],
    },
  });
  expect(saved.data.saveBusinessPage.__typename, JSON.stringify(saved)).toBe("SaveBusinessPageSuccess");
  return { businessId, slug };
}

/**
 * Checks the layout at 375 and 1280 px (checkLayout) and keeps the two screenshots under SHOTS too; no critical or
 * serious axe-core violation (WCAG 2.0/2.1 A and AA), as accessibility.spec.ts asks of every page (axe needs the
 * page's timers: not while its clock is paused).
 */
async function shoot(page: Page, testInfo: TestInfo, name: string, visible: (page: Page) => Locator[], { axe = true } = {}) {
  const { violations } = axe ? await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze() : { violations: [] };
  expect.soft(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), `axe on ${name}`).toEqual([]);
  await checkLayout(page, testInfo, `next-month-${name}`, visible);
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [375, 1280]) fs.copyFileSync(testInfo.outputPath(`next-month-${name}-${width}.png`), path.join(SHOTS, `next-month-${name}-${width}.png`));
}

test("the page editor's Subscription Settings choose what happens past the cutoff day, saved with the page", async ({ page, request }) => {
  const admin = await loginAs(page, "admin", "admin1234");
  const { businessId, slug } = await pastCutoffBusiness(request, admin.token, "Refusing Dairy", "REFUSE");

  await page.goto(`/b/${slug}`);
  await expect(page.getByTestId("cutoff-notice")).toHaveText(REFUSAL);
  await expect(page.getByTestId("next-month-notice")).toHaveCount(0);

  await page.goto(`/admin/business/${businessId}/page`);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible();
  const select = page.getByLabel("After the cutoff day");
  await expect(select).toHaveValue("REFUSE");
  await expect(select.getByRole("option")).toHaveText(["Refuse sign-ups until next month", "Take sign-ups for next month's box"]);
  await expect(
    page.getByText("Past the cutoff day, new members either wait until next month or sign up now for next month's box (their card is saved; the first charge is on next month's billing day)."),
  ).toBeVisible();
  await select.selectOption({ label: "Take sign-ups for next month's box" });
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();

  // Saved with the page: the editor loads it again, and the server and the public page follow it.
  await page.reload();
  await expect(page.getByLabel("After the cutoff day")).toHaveValue("NEXT_MONTH");
  const read = await gql(request, admin.token, `query($slug: String!) { business(slug: $slug) { checkoutClosedMessage signupStartsNextMonth signupFirstPeriod page { afterCutoff subscriptionCutoffDay billingDay } } }`, { slug });
  expect(read.data.business).toEqual({ checkoutClosedMessage: null, signupStartsNextMonth: true, signupFirstPeriod: "2026-04", page: { afterCutoff: "NEXT_MONTH", subscriptionCutoffDay: 4, billingDay: 6 } });
  await page.goto(`/b/${slug}`);
  await expect(page.getByTestId("next-month-notice")).toContainText("Sign up now for your April box");
  await expect(page.getByTestId("cutoff-notice")).toHaveCount(0);

  // And back: refused again.
  await page.goto(`/admin/business/${businessId}/page`);
  await page.getByLabel("After the cutoff day").selectOption("REFUSE");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("After the cutoff day")).toHaveValue("REFUSE");
  await page.goto(`/b/${slug}`);
  await expect(page.getByTestId("cutoff-notice")).toHaveText(REFUSAL);
});

const MEMBERSHIP = `query($slug: String!) {
  business(slug: $slug) {
    memberships(first: 10) { edges { node { databaseId status memberName totalCents paidThroughPeriod orders(first: 10) { edges { node { id } } } } } }
    orders(first: 10) { edges { node { kind period status totalCents membership { databaseId } } } }
    metrics { totals { totalRevenueCents } }
  }
}`;
const CYCLE = `query($slug: String!, $month: String) { business(slug: $slug) { fulfilment(month: $month) { state members { memberName outlook amountCents chargeDate } } } }`;

test("a visitor signs up past the cutoff for next month's box: the card is saved, April's billing day charges it and packs the box", async ({ page, request, browser }, testInfo) => {
  test.setTimeout(240_000);
  const admin = await apiLogin(request, "admin", "admin1234");
  const { businessId, slug } = await pastCutoffBusiness(request, admin.token, "Next Month Creamery", "NEXT_MONTH");
  const read = await gql(request, admin.token, `query($slug: String!) { business(slug: $slug) { checkoutClosedMessage signupStartsNextMonth signupFirstPeriod } }`, { slug });
  expect(read.data.business).toEqual({ checkoutClosedMessage: null, signupStartsNextMonth: true, signupFirstPeriod: "2026-04" });

  // The business page: next month's box on offer instead of §8's refusal, and Checkout open.
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await pinClock(visitor);
  await visitor.goto(`/b/${slug}`);
  await expect(visitor.getByTestId("next-month-notice")).toContainText("Sign up now for your April box");
  await expect(visitor.getByTestId("next-month-notice")).toContainText("Nothing is charged today: your card is saved and first charged on April 6.");
  await expect(visitor.getByTestId("cutoff-notice")).toHaveCount(0);
  await expect(visitor.getByRole("button", { name: "Checkout" })).toBeEnabled();
  await shoot(visitor, testInfo, "business", (p) => [p.getByText("Sign up now for your April box"), p.getByRole("button", { name: "Checkout" })]);
  await visitor.getByRole("button", { name: "Checkout" }).click();

  // Checkout: register, the address, then the review with the next-month terms and the save-card button.
  await expect(visitor.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  await expect(visitor.getByTestId("checkout-closed")).toHaveCount(0);
  const username = `nora${Date.now() % 100000}`;
  await visitor.getByLabel("Email").fill(`${username}@example.com`);
  await visitor.getByLabel("Username").fill(username);
  await expect(visitor.getByTestId("username-status")).toHaveText("Username is available");
  await visitor.getByLabel("Password").fill("secret1234");
  await visitor.getByRole("button", { name: "Continue to Address" }).click();
  await expect(visitor.getByRole("heading", { name: "Address" })).toBeVisible();
  await visitor.getByLabel("Full name").fill("Nora Nextmonth");
  await visitor.getByLabel("Street address").fill("6 Whey Street");
  await visitor.getByLabel("City").fill("Akron");
  await visitor.getByLabel("State").selectOption("OH");
  await visitor.getByLabel("Zip code").fill("44303");
  await visitor.getByRole("button", { name: "Continue to Review" }).click();

  await expect(visitor.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
  await expect(visitor.getByTestId("next-month-terms")).toHaveText(TERMS);
  const summary = visitor.getByTestId("order-summary");
  await expect(summary).toContainText("Monthly charge, first charged on April 6");
  await expect(visitor.getByTestId("order-summary-next-month")).toContainText("First boxApril 2026");
  await expect(visitor.getByTestId("order-summary-next-month")).toContainText("Due today$0.00");
  await expect(visitor.getByRole("button", { name: /^Pay / })).toHaveCount(0);
  const save = visitor.getByRole("button", { name: SAVE_CARD, exact: true });
  await expect(save).toBeVisible();
  await fillCard(visitor, "4242 4242 4242 4242");
  await shoot(visitor, testInfo, "review", (p) => [p.getByTestId("next-month-terms"), p.getByRole("button", { name: SAVE_CARD, exact: true })]);
  await save.click();

  // The success panel claims no charge: the card saved, when the first box comes and what is charged then.
  const panel = visitor.getByRole("status").filter({ has: visitor.getByRole("heading", { name: "Subscription Activated!" }) });
  await expect(panel).toBeVisible();
  // Hold the redirect while the panel is looked at (it leaves 2 s after the success).
  // A margin the call itself cannot outrun on a busy machine (pauseAt refuses a time already past); the redirect is 2 s away.
  await visitor.clock.pauseAt((await visitor.evaluate(() => Date.now())) + 300);
  await expect(panel.getByTestId("paid-with")).toHaveText("Card saved: VISA ending in 4242");
  await expect(panel.getByTestId("next-month-charge")).toHaveText("Your first box will be April's. $21.00 will be charged on April 6.");
  await expect(panel).not.toContainText("Amount charged");
  await expect(panel).not.toContainText("Order ID");
  await expect(panel).not.toContainText("Paid with");
  await expect(panel.getByText("Redirecting to your membership dashboard...")).toBeVisible();
  await shoot(visitor, testInfo, "success", (p) => [p.getByRole("heading", { name: "Subscription Activated!" }), p.getByTestId("next-month-charge")], { axe: false });
  await visitor.clock.resume();
  await expect(visitor).toHaveURL(/\/membership\?success=1$/, { timeout: 10_000 });
  await expect(visitor.getByRole("heading", { name: "My membership" })).toBeVisible();
  // No order to point at: the portal's thanks for an order stays away.
  await expect(visitor.getByText(/Order #\d+ is in your order history/)).toHaveCount(0);
  await shoot(visitor, testInfo, "portal", (p) => [p.getByRole("heading", { name: "My membership" })]);
  await context.close();

  // The server: an active membership paid through March, with no order and nothing taken; April will charge it.
  const signedUp = (await gql(request, admin.token, MEMBERSHIP, { slug })).data.business;
  expect(signedUp.memberships.edges).toHaveLength(1);
  const membership = signedUp.memberships.edges[0].node;
  expect(membership).toMatchObject({ status: "ACTIVE", memberName: "Nora Nextmonth", totalCents: 2100, paidThroughPeriod: "2026-03" });
  expect(membership.orders.edges).toEqual([]);
  expect(signedUp.orders.edges).toEqual([]);
  expect(signedUp.metrics.totals.totalRevenueCents).toBe(0);
  expect((await gql(request, admin.token, CYCLE, { slug, month: "2026-03" })).data.business.fulfilment.members).toEqual([]);
  expect((await gql(request, admin.token, CYCLE, { slug, month: "2026-04" })).data.business.fulfilment.members).toEqual([
    { memberName: "Nora Nextmonth", outlook: "WILL_CHARGE", amountCents: 2100, chargeDate: "2026-04-06" },
  ]);

  // April 6th, the first month's billing day: the renewal run makes the first charge, an INITIAL order of the quote.
  const moved = await gql(request, admin.token, `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on MoveDemoClockSuccess { data { renewalQueued } } ... on Error { message } } }`, {
    to: "2026-04-06T16:00:00Z",
  });
  expect(moved.data.moveDemoClock, JSON.stringify(moved)).toMatchObject({ __typename: "MoveDemoClockSuccess", data: { renewalQueued: true } });
  await expect
    .poll(async () => (await gql(request, admin.token, MEMBERSHIP, { slug })).data.business.orders.edges.length, { timeout: 60_000, intervals: [1000] })
    .toBe(1);
  const charged = (await gql(request, admin.token, MEMBERSHIP, { slug })).data.business;
  expect(charged.orders.edges[0].node).toEqual({ kind: "INITIAL", period: "2026-04", status: "PAID", totalCents: 2100, membership: { databaseId: membership.databaseId } });
  expect(charged.memberships.edges[0].node).toMatchObject({ status: "ACTIVE", paidThroughPeriod: "2026-04" });
  expect(charged.metrics.totals.totalRevenueCents).toBe(2100);

  // April's packing list has the box.
  await loginAs(page, "admin", "admin1234");
  await page.goto(`/admin/business/${businessId}/fulfilment/2026-04`);
  await expect(page.getByText("Next Month Creamery · April 2026")).toBeVisible();
  const row = page.getByTestId("packing-row").filter({ hasText: "Nora Nextmonth" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Cheese Box");
  await expect(page.getByTestId("members-preview").getByRole("row").filter({ hasText: "Nora Nextmonth" })).toContainText("Paid $21.00");
});
