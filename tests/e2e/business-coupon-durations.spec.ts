import { expect, test, type Page } from "@playwright/test";
import { apiLogin, gql, loginAs } from "./admin-support.ts";
import { fillCard, shot } from "./member-support.ts";
import { useOwnServer } from "./own-server.ts";
import { checkout, createOwnBusiness, createUser, memberSession, runSuffix } from "./tenant-support.ts";

// Owners run their own business, as the Done-when walks it: the owner of a new business creates a coupon of
// 20 % off for 3 months, for one plan only and 2 redemptions; a visitor uses it at checkout (the pay button says the
// renewals return to the full price), a second member redeems it, a third is refused; the owner's dashboard expects
// the next run's amount; the demo clock moves through three billing days: April and May are discounted, June is at
// full price, and the dashboard's expected amount follows. The clock moves: a server of its own.
useOwnServer({ name: "coupon-durations", env: { SEED_DEMO: "1", BILLING_INTERVAL_MINUTES: "0", SESSION_TTL_DAYS: "365" } });

const suffix = runSuffix();
const OWNER = { username: `grower${suffix}`, password: "grower-owner-1" };
const CODE = `HARVEST${suffix}`;
const INVALID = "Invalid or inactive coupon code";
const MOVE = `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on Error { message } } }`;
const ORDERS = `query($id: Int!) { adminBusiness(id: $id) { orders(first: 20) { edges { node { period totalCents discountCents membership { username } } } } } }`;
const QUOTE = `query($s: CheckoutSelectionInput!) { checkoutQuote(selection: $s) { __typename ... on Error { message } } }`;

/** A visitor registers on the business page's checkout (the first plan, Veg Box, chosen) and reaches 'Review & Payment'. */
async function reachReview(page: Page, slug: string, username: string) {
  await page.clock.setFixedTime(new Date("2026-03-05T15:00:00Z"));
  await page.goto(`/b/${slug}`);
  await expect(page.getByTestId("plan-card").first().getByRole("radio")).toBeChecked();
  await page.getByRole("button", { name: "Checkout" }).click();
  await page.getByLabel("Email").fill(`${username}@example.com`);
  await page.getByLabel("Username").fill(username);
  await expect(page.getByTestId("username-status")).toHaveText("Username is available");
  await page.getByLabel("Password").fill("secret1234");
  await page.getByRole("button", { name: "Continue to Address" }).click();
  await page.getByLabel("Full name").fill(`Vera ${username}`);
  await page.getByLabel("Street address").fill("3 Furrow Lane");
  await page.getByRole("button", { name: "Continue to Review" }).click();
  await expect(page.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
}

async function applyCoupon(page: Page, code: string) {
  await page.getByLabel("Coupon code").fill(code);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
}

test("an owner's 3-month coupon for one plan and two redemptions: checkout and two renewals discounted, the third full, a third member refused", async ({ page, request, browser }) => {
  test.setTimeout(300_000);
  const admin = await apiLogin(request, "admin", "admin1234");
  const business = await createOwnBusiness(request, admin.token, {
    name: `Furrow Farm ${suffix}`,
    slug: `furrow-farm-${suffix}`,
    planName: "Veg Box",
    pickupCents: 2500,
    morePlans: [{ name: "Fruit Box", pickupCents: 4000 }],
  });
  await createUser(request, admin.token, OWNER.username, OWNER.password, { businessId: business.id, role: "OWNER" });

  // The owner creates the coupon on the business's Coupons screen.
  await loginAs(page, OWNER.username, OWNER.password);
  await page.goto(`/admin/business/${business.id}/coupons`);
  const form = page.locator("form");
  await form.getByLabel("Code").fill(CODE.toLowerCase());
  await form.getByLabel("Type").selectOption("PERCENT");
  await form.getByLabel("Value (%)").fill("20");
  await form.getByLabel("Duration").selectOption("REPEATING");
  await form.getByLabel("Months").fill("3");
  await form.getByLabel("Maximum redemptions (optional)").fill("2");
  await form.getByText("Veg Box", { exact: true }).click();
  await form.getByRole("button", { name: "Create Coupon" }).click();
  const row = page.getByTestId("coupon-row").filter({ hasText: CODE });
  for (const text of ["20%", "3 months", "Veg Box", "0 of 2"]) await expect(row).toContainText(text);
  await shot(page, "business-coupon-created");

  // Another plan's checkout refuses the code, with the spec's coupon error.
  const fruit = await gql(request, admin.token, `query($slug: String!) { business(slug: $slug) { plans(first: 5) { edges { node { ref name } } } } }`, { slug: business.slug });
  const fruitRef = fruit.data.business.plans.edges.find((e: { node: { name: string } }) => e.node.name === "Fruit Box").node.ref;
  const other = await gql(request, admin.token, QUOTE, { s: { businessSlug: business.slug, planRef: fruitRef, mode: "PICKUP", couponCode: CODE } });
  expect(other.data.checkoutQuote).toEqual({ __typename: "ValidationError", message: INVALID });

  // A visitor checks out with it: $25.00 less 20 %, and the pay button says the renewals return to $25.00.
  const visitor = await browser.newPage();
  await reachReview(visitor, business.slug, `vera${suffix}`);
  await applyCoupon(visitor, CODE.toLowerCase());
  await expect(visitor.getByTestId("coupon-applied")).toContainText(`${CODE} applied · −$5.00`);
  const pay = visitor.getByRole("button", { name: "Pay $20.00 now and it renews at $20.00 for 2 more months, then $25.00, every month on April 1st" });
  await expect(pay).toBeVisible();
  await shot(visitor, "checkout-coupon-months");
  await fillCard(visitor, "4242 4242 4242 4242");
  await pay.click();
  await expect(visitor.getByText("Amount charged: $20.00")).toBeVisible();
  await visitor.close();

  // A second member redeems it; the third is refused: both redemptions are taken.
  const second = await memberSession(request, admin.token, `otto${suffix}`, "otto-member-1");
  expect((await checkout(request, second, business, `otto${suffix}@example.com`, CODE)).chargedCents).toBe(2000);
  const third = await browser.newPage();
  await reachReview(third, business.slug, `tess${suffix}`);
  await applyCoupon(third, CODE);
  await expect(third.getByText(INVALID)).toBeVisible();
  await expect(third.getByRole("button", { name: "Pay $25.00 now and it renews at $25.00 every month on April 1st" })).toBeVisible();
  await third.close();

  // The owner: the coupon's redemptions, the member's page, the dashboard's next run.
  await page.reload();
  await expect(row).toContainText("2 of 2");
  await page.goto(`/admin/business/${business.id}/memberships`);
  await page.getByTestId("membership-row").filter({ hasText: `vera${suffix}` }).getByRole("link").click();
  await expect(page.getByLabel("Membership", { exact: true })).toContainText(`${CODE} · 20 % off · 2 months left`);
  await expect(page.getByTestId("next-charge")).toContainText("Apr 1, 2026 · $20.00");
  const outlook = async (date: string, detail: string) => {
    await page.goto(`/admin/business/${business.id}`);
    const run = page.getByTestId("owner-outlook").getByText("Next billing run").locator("..");
    await expect(run).toContainText(date);
    await expect(run).toContainText(detail);
  };
  await outlook("Apr 1, 2026", "2 memberships · $40.00 expected");
  await shot(page, "business-dashboard-coupon");

  // The billing days, on the demo clock: each run charges both members, discounted while the coupon lasts.
  const charged = async (period: string) =>
    (await gql(request, admin.token, ORDERS, { id: business.id })).data.adminBusiness.orders.edges
      .map((e: { node: { period: string; totalCents: number; membership: { username: string } } }) => e.node)
      .filter((o: { period: string }) => o.period === period)
      .map((o: { totalCents: number; membership: { username: string } }) => `${o.membership.username} ${o.totalCents}`)
      .sort();
  const move = async (to: string) => {
    const moved = await gql(request, admin.token, MOVE, { to });
    expect(moved.data.moveDemoClock.__typename, JSON.stringify(moved)).toBe("MoveDemoClockSuccess");
  };
  const both = (cents: number) => [`otto${suffix} ${cents}`, `vera${suffix} ${cents}`];
  expect(await charged("2026-03")).toEqual(both(2000));
  for (const [to, period, cents] of [
    ["2026-04-01T16:00:00Z", "2026-04", 2000],
    ["2026-05-01T16:00:00Z", "2026-05", 2000],
  ] as const) {
    await move(to);
    await expect.poll(() => charged(period), { timeout: 60_000, intervals: [1000] }).toEqual(both(cents));
  }
  // The coupon's three months are used: June's run is expected at the full price, and charges it.
  await outlook("Jun 1, 2026", "2 memberships · $50.00 expected");
  await move("2026-06-01T16:00:00Z");
  await expect.poll(() => charged("2026-06"), { timeout: 60_000, intervals: [1000] }).toEqual(both(2500));
});
