import { expect, test } from "@playwright/test";
import { apiLogin, gql, loginAs } from "./admin-support.ts";
import { useOwnServer } from "./own-server.ts";
import { checkout, createOwnBusiness, createUser, memberSession, runSuffix } from "./tenant-support.ts";

// Payouts, part 2, as an owner follows the money: a connected business's member pays on Thursday March 5th; the
// demo clock moves to Monday the 9th (the money is available after two days, and Mondays pay it out) and then to
// its arrival on the 11th. The owner's Payouts page shows the balance, the paid payout and March's statement to the
// cent (as the ledger has it), and downloads the statement; the administrator's Fees collected lists the fees; the
// Jobs screen's reconciliation of the days passed found no difference. The clock moves: a server of its own.
useOwnServer({ name: "payouts-statement", env: { SEED_DEMO: "1", BILLING_INTERVAL_MINUTES: "0", SESSION_TTL_DAYS: "365" } });

const suffix = runSuffix();
const OWNER = { username: `ledger${suffix}`, password: "ledger-owner-1" };

const PAYOUTS = `query($slug: String!) { business(slug: $slug) { payouts(first: 5) { edges { node { status amountCents } } } } }`;

test("an owner follows a charge to a paid payout and March's statement; the admin sees the fees and a clean reconciliation", async ({ page, request, browser, baseURL }) => {
  test.setTimeout(180_000);
  const admin = await apiLogin(request, "admin", "admin1234");
  const business = await createOwnBusiness(request, admin.token, { name: `Ledger Dairy ${suffix}`, slug: `ledger-dairy-${suffix}`, planName: "Milk Box", pickupCents: 2500 });
  await createUser(request, admin.token, OWNER.username, OWNER.password, { businessId: business.id, role: "OWNER" });
  const member = await memberSession(request, admin.token, `milk${suffix}`, "milk-member-1");
  await checkout(request, member, business, `milk${suffix}@example.com`);

  // $25.00 less 5 % ($1.25) and 2.9 % + 30¢ ($1.03): $22.72 is the business's, paid out on Monday, arriving Wednesday.
  const payouts = async () => (await gql(request, admin.token, PAYOUTS, { slug: business.slug })).data.business.payouts.edges.map((e: { node: object }) => e.node);
  for (const [to, status] of [["2026-03-09T16:00:00Z", "IN_TRANSIT"], ["2026-03-11T16:00:00Z", "PAID"]]) {
    const moved = await gql(request, admin.token, `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on Error { message } } }`, { to });
    expect(moved.data.moveDemoClock.__typename, JSON.stringify(moved)).toBe("MoveDemoClockSuccess");
    // A move queues a payouts pass; one still running from the move before may absorb it, so ask again as the Jobs
    // screen's "Run now" does until the pass has seen the new day.
    await expect
      .poll(async () => {
        const now = await payouts();
        if (now[0]?.status !== status) await gql(request, admin.token, `mutation { runJobNow(queue: "payouts-sandbox") { __typename } }`);
        return now;
      }, { timeout: 60_000, intervals: [2000] })
      .toEqual([{ status, amountCents: 2272 }]);
  }

  await loginAs(page, OWNER.username, OWNER.password);
  await page.clock.setFixedTime(new Date("2026-03-11T16:00:00Z"));
  await page.goto(`/admin/business/${business.id}/payouts?month=2026-03`);
  await expect(page.getByText("$22.72").first()).toBeVisible();
  await expect(page.getByText("Paid", { exact: true })).toBeVisible();
  const totals = page.getByTestId("statement-totals");
  for (const [label, amount] of [["Gross", "$25.00"], ["Refunds", "$0.00"], ["Platform fee", "$1.25"], ["Processing fee", "$1.03"], ["Net", "$22.72"]]) {
    await expect(totals.getByText(label, { exact: true }).locator("..")).toContainText(amount);
  }
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).or(page.getByRole("link", { name: "Download CSV" })).first().click()]);
  expect(download.suggestedFilename()).toBe(`statement-${business.slug}-2026-03.csv`);

  // The administrator, in a browser of their own.
  const adminPage = await (await browser.newContext({ baseURL })).newPage();
  await loginAs(adminPage, "admin", "admin1234");
  await adminPage.goto("/admin/fees");
  const collected = adminPage.getByRole("row").filter({ hasText: business.name });
  await expect(collected).toContainText("$1.25");
  await expect(collected).toContainText("$1.03");

  await adminPage.goto("/admin/jobs");
  const reconciliation = adminPage.getByRole("region", { name: "Payment reconciliation (daily) runs" });
  await expect(reconciliation.getByText("Completed").first()).toBeVisible({ timeout: 30_000 });
  await expect(reconciliation.getByText("Failed")).toHaveCount(0);
});
