import { expect, test } from "@playwright/test";
import { apiLogin, gql, loginAs } from "./admin-support.ts";
import { useOwnServer } from "./own-server.ts";
import { checkout, createOwnBusiness, createUser, memberSession, runSuffix, type OwnBusiness } from "./tenant-support.ts";

// Payouts, part 1, as its people do it: a new business takes no members; its owner connects payouts in the sandbox;
// a member then checks out; the administrator schedules next month's fee; next month's renewal goes to the
// business's account with that fee, as its books (the ledger, read by the API) show. The renewal needs the demo
// clock moved, which the shared server of the other specs must not see: a server of its own.
useOwnServer({ name: "payouts", env: { SEED_DEMO: "1", BILLING_INTERVAL_MINUTES: "0", SESSION_TTL_DAYS: "365" } });

const suffix = runSuffix();
const OWNER = { username: `orchard${suffix}`, password: "orchard-owner-1" };
let business: OwnBusiness;

const LEDGER = `query($slug: String!) { business(slug: $slug) { ledgerEntries(first: 10) { edges { node { kind period grossCents platformFeeCents processingFeeCents netCents } } } } }`;

test("a new business takes no members until its owner connects payouts in the sandbox", async ({ page, request }) => {
  const admin = await apiLogin(request, "admin", "admin1234");
  business = await createOwnBusiness(request, admin.token, { name: `Payout Orchard ${suffix}`, slug: `payout-orchard-${suffix}`, planName: "Orchard Box", pickupCents: 2500, connect: false });
  await createUser(request, admin.token, OWNER.username, OWNER.password, { businessId: business.id, role: "OWNER" });

  await page.goto(`/b/${business.slug}`);
  await expect(page.getByText(`${business.name} isn't taking new members yet.`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Checkout" })).toBeDisabled();

  await loginAs(page, OWNER.username, OWNER.password);
  await page.goto(`/admin/business/${business.id}/payouts`);
  await expect(page.getByText("Not connected")).toBeVisible();
  await page.getByRole("button", { name: "Connect payouts" }).click();
  await expect(page.getByRole("heading", { name: "Sandbox onboarding" })).toBeVisible();
  await expect(page.getByText(business.name)).toBeVisible();
  await page.getByRole("button", { name: "Complete onboarding" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/business/${business.id}/payouts$`));
  await expect(page.getByText("Enabled", { exact: true })).toBeVisible();
  await expect(page.getByText("Members' payments go to your own account from March 2026")).toBeVisible();

  await page.goto(`/b/${business.slug}`);
  await expect(page.getByText(`${business.name} isn't taking new members yet.`)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Checkout" })).toBeEnabled();
});

test("a member's checkout and next month's renewal go to the business's account, with the fee the admin scheduled", async ({ page, request }) => {
  const admin = await apiLogin(request, "admin", "admin1234");
  const member = await memberSession(request, admin.token, `picker${suffix}`, "picker-member-1");
  await checkout(request, member, business, `picker${suffix}@example.com`);
  // March's charge: the default fees (5 % and 2.9 % + 30¢ of $25.00).
  const march = (await gql(request, admin.token, LEDGER, { slug: business.slug })).data.business.ledgerEntries.edges.map((e: { node: object }) => e.node);
  expect(march).toEqual([{ kind: "CHARGE", period: "2026-03", grossCents: 2500, platformFeeCents: 125, processingFeeCents: 103, netCents: 2272 }]);

  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin/fees");
  const form = page.getByRole("form", { name: "Schedule fees" });
  await form.getByLabel("Business").selectOption({ label: business.name });
  await expect(form.getByLabel("Month")).toHaveValue("2026-04");
  await form.getByLabel("Platform fee %").fill("4");
  await form.getByLabel("Platform fee fixed ($)").fill("0.00");
  await form.getByLabel("Processing fee %").fill("2.9");
  await form.getByLabel("Processing fee fixed ($)").fill("0.30");
  await form.getByRole("button", { name: "Schedule fees" }).click();
  await expect(page.getByText("Fees scheduled from April 2026.")).toBeVisible();

  // April 1st, the billing day: the demo clock's renewal charges April with April's fees.
  const moved = await gql(request, admin.token, `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on Error { message } } }`, { to: "2026-04-01T16:00:00Z" });
  expect(moved.data.moveDemoClock.__typename, JSON.stringify(moved)).toBe("MoveDemoClockSuccess");
  await expect
    .poll(async () => (await gql(request, admin.token, LEDGER, { slug: business.slug })).data.business.ledgerEntries.edges.length, { timeout: 60_000, intervals: [1000] })
    .toBe(2);
  const [april] = (await gql(request, admin.token, LEDGER, { slug: business.slug })).data.business.ledgerEntries.edges.map((e: { node: object }) => e.node);
  expect(april).toEqual({ kind: "CHARGE", period: "2026-04", grossCents: 2500, platformFeeCents: 100, processingFeeCents: 103, netCents: 2297 });
});
