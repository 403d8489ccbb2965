import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { apiLogin, gql, loginAs } from "./admin-support.ts";
import { useOwnServer } from "./own-server.ts";
import { checkout, createOwnBusiness, createUser, memberSession, runSuffix } from "./tenant-support.ts";

// Payouts, part 2, as an owner follows the money: the owner of a new business connects payouts in the sandbox, a
// member pays on Thursday March 5th; the demo clock moves to April 1st, the billing day (the renewal charges April),
// and then past the next Monday to Wednesday April 8th. The Mondays passed paid out what was available (March's
// checkout on the 9th, April's renewal on the 6th), both arrived. The owner's Payouts page shows the balance, the
// paid payouts and April's statement to the cent as the ledger has it, and downloads it; the administrator's Fees
// collected lists the fees; the Jobs screen's reconciliation of the days passed found no difference. The clock
// moves: a server of its own.
useOwnServer({ name: "payouts-statement", env: { SEED_DEMO: "1", BILLING_INTERVAL_MINUTES: "0", SESSION_TTL_DAYS: "365" } });

const suffix = runSuffix();
const OWNER = { username: `ledger${suffix}`, password: "ledger-owner-1" };

const PAYOUTS = `query($slug: String!) { business(slug: $slug) { payouts(first: 5) { edges { node { status amountCents arrivalDate } } } } }`;
const LEDGER = `query($slug: String!) { business(slug: $slug) { ledgerEntries(first: 10) { edges { node { kind period grossCents platformFeeCents processingFeeCents netCents } } } } }`;
const MOVE = `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on Error { message } } }`;

const dollars = (cents: number) => `${cents < 0 ? "-" : ""}$${(Math.abs(cents) / 100).toFixed(2)}`;

test("an owner connects, a member pays and renews; the owner follows it to paid payouts and April's statement; the admin sees the fees and a clean reconciliation", async ({ page, request, browser, baseURL }) => {
  test.setTimeout(240_000);
  const admin = await apiLogin(request, "admin", "admin1234");
  const business = await createOwnBusiness(request, admin.token, { name: `Ledger Dairy ${suffix}`, slug: `ledger-dairy-${suffix}`, planName: "Milk Box", pickupCents: 2500, connect: false });
  await createUser(request, admin.token, OWNER.username, OWNER.password, { businessId: business.id, role: "OWNER" });

  // The owner connects payouts through the sandbox's onboarding page.
  await loginAs(page, OWNER.username, OWNER.password);
  await page.goto(`/admin/business/${business.id}/payouts`);
  await page.getByRole("button", { name: "Connect payouts" }).click();
  await expect(page.getByRole("heading", { name: "Sandbox onboarding" })).toBeVisible();
  await page.getByRole("button", { name: "Complete onboarding" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/business/${business.id}/payouts$`));
  await expect(page.getByText("Enabled", { exact: true })).toBeVisible();

  const member = await memberSession(request, admin.token, `milk${suffix}`, "milk-member-1");
  await checkout(request, member, business, `milk${suffix}@example.com`);

  const ledger = async () => (await gql(request, admin.token, LEDGER, { slug: business.slug })).data.business.ledgerEntries.edges.map((e: { node: Record<string, number | string> }) => e.node);
  const payouts = async () => (await gql(request, admin.token, PAYOUTS, { slug: business.slug })).data.business.payouts.edges.map((e: { node: object }) => e.node);
  const move = async (to: string) => {
    const moved = await gql(request, admin.token, MOVE, { to });
    expect(moved.data.moveDemoClock.__typename, JSON.stringify(moved)).toBe("MoveDemoClockSuccess");
  };

  // April 1st, the billing day: the renewal charges April.
  await move("2026-04-01T16:00:00Z");
  await expect.poll(async () => (await ledger()).length, { timeout: 60_000, intervals: [1000] }).toBe(2);
  const [april, march] = await ledger();
  expect([march.period, april.period]).toEqual(["2026-03", "2026-04"]);
  for (const charge of [march, april]) expect(charge).toMatchObject({ kind: "CHARGE", grossCents: 2500 });

  // Past the next Monday: March's money went out on Monday the 9th, April's on Monday the 6th; both have arrived.
  await move("2026-04-08T16:00:00Z");
  await expect
    .poll(payouts, { timeout: 60_000, intervals: [1000] })
    .toEqual([
      { status: "PAID", amountCents: april.netCents, arrivalDate: "2026-04-08" },
      { status: "PAID", amountCents: march.netCents, arrivalDate: "2026-03-11" },
    ]);

  await page.clock.setFixedTime(new Date("2026-04-08T16:00:00Z"));
  await page.goto(`/admin/business/${business.id}/payouts?month=2026-04`);
  const balance = page.getByTestId("payout-balance");
  await expect(balance.getByText("Available", { exact: true }).locator("..")).toContainText("$0.00");
  await expect(balance.getByText("Pending", { exact: true }).locator("..")).toContainText("$0.00");
  await expect(balance.getByText("Next payout", { exact: true }).locator("..")).toContainText("13");
  const payoutRows = page.getByRole("region", { name: "Payouts" }).getByRole("row").filter({ hasText: "Paid" });
  await expect(payoutRows).toHaveCount(2);
  await expect(payoutRows.first()).toContainText(dollars(Number(april.netCents)));

  // April's statement, to the cent against the ledger: the renewal, its fees, what is left and what was paid out.
  const totals = page.getByTestId("statement-totals");
  const expected: [string, number][] = [
    ["Gross", Number(april.grossCents)],
    ["Refunds", 0],
    ["Platform fee", Number(april.platformFeeCents)],
    ["Processing fee", Number(april.processingFeeCents)],
    ["Net", Number(april.netCents)],
    ["Paid out", Number(april.netCents)],
  ];
  expect(expected.map(([, cents]) => cents)).toEqual([2500, 0, 125, 103, 2272, 2272]);
  for (const [label, cents] of expected) await expect(totals.getByText(label, { exact: true }).locator("..")).toContainText(dollars(cents));

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).or(page.getByRole("link", { name: "Download CSV" })).first().click()]);
  expect(download.suggestedFilename()).toBe(`statement-${business.slug}-2026-04.csv`);
  const csv = (await readFile(await download.path(), "utf8")).trim().split(/\r?\n/);
  expect(csv[0]).toBe("date,member,membership_id,period,kind,provider_id,gross,platform_fee,processing_fee,net");
  expect(csv).toHaveLength(3);
  expect(csv[1]).toMatch(/^2026-04-01,.*,2026-04,Charge,.*,25\.00,1\.25,1\.03,22\.72$/);
  expect(csv[2]).toBe("Total,,,,,,25.00,1.25,1.03,22.72");

  // The administrator, in a browser of their own.
  const adminPage = await (await browser.newContext({ baseURL })).newPage();
  await loginAs(adminPage, "admin", "admin1234");
  await adminPage.clock.setFixedTime(new Date("2026-04-08T16:00:00Z"));
  await adminPage.goto("/admin/fees");
  const collected = adminPage.getByRole("row").filter({ hasText: business.name });
  await expect(collected).toContainText(dollars(Number(april.platformFeeCents)));
  await expect(collected).toContainText(dollars(Number(april.processingFeeCents)));

  await adminPage.goto("/admin/jobs");
  const reconciliation = adminPage.getByRole("region", { name: "Payment reconciliation (daily) runs" });
  // One run per UTC day the clock passed (34 of them): every one completes.
  await expect(async () => {
    await adminPage.reload();
    await expect(reconciliation.getByText("Completed").first()).toBeVisible();
    await expect(reconciliation.getByRole("cell", { name: /^(Queued|Running)$/ })).toHaveCount(0);
  }).toPass({ timeout: 90_000, intervals: [2000] });
  await expect(reconciliation.getByText("Failed")).toHaveCount(0);
});
