import { expect, test, type Page } from "@playwright/test";
import { gql, loginAs } from "./admin-support.ts";
import { fillCard, pinClock, shot } from "./member-support.ts";
import { adminToken, createOwnBusiness, runSuffix, type OwnBusiness } from "./tenant-support.ts";

// One business of this spec's own (a $40.00 pickup plan, no tax); the coupon is created, used, then disabled.
test.describe.configure({ mode: "serial" });

const suffix = runSuffix();
const CODE = `ORCHARD${suffix}`;
const INVALID = "Invalid or inactive coupon code";
let business: OwnBusiness;
let token: string;

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  business = await createOwnBusiness(request, token, { name: `Coupon Orchard ${suffix}`, slug: `coupon-orchard-${suffix}`, planName: "Fruit Box", pickupCents: 4000 });
});

/** A visitor registers on the business page's checkout and reaches step 2 'Review & Payment'. */
async function reachReview(page: Page, username: string) {
  await pinClock(page);
  await page.goto(`/b/${business.slug}`);
  await expect(page.getByRole("heading", { level: 1, name: business.name })).toBeVisible();
  await page.getByRole("button", { name: "Checkout" }).click();
  await page.getByLabel("Email").fill(`${username}@example.com`);
  await page.getByLabel("Username").fill(username);
  await expect(page.getByTestId("username-status")).toHaveText("Username is available");
  await page.getByLabel("Password").fill("secret1234");
  await page.getByRole("button", { name: "Continue to Address" }).click();
  await page.getByLabel("Full name").fill("Cora Coupon");
  await page.getByLabel("Street address").fill("7 Orchard Way");
  await page.getByRole("button", { name: "Continue to Review" }).click();
  await expect(page.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
}

async function applyCoupon(page: Page, code: string) {
  await page.getByLabel("Coupon code").fill(code);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
}

const summary = (page: Page) => page.getByTestId("order-summary");
const payButton = (page: Page, total: string) => page.getByRole("button", { name: `Pay ${total} now and it renews at ${total} every month on April 1st` });

test("the admin creates a percent coupon in the coupons screen", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin/coupons");
  const form = page.locator("form");
  await form.getByLabel("Code").fill(CODE.toLowerCase());
  await expect(form.getByLabel("Code")).toHaveValue(CODE);
  await form.getByLabel("Type").selectOption("PERCENT");
  await form.getByLabel("Value (%)").fill("25");
  await form.getByRole("button", { name: "Create Coupon" }).click();
  const row = page.getByTestId("coupon-row").filter({ hasText: CODE });
  await expect(row).toContainText("25%");
  await expect(row).toContainText("Yes");
});

test("a member checks out with the coupon: summary, pay button and charge are discounted, and so is the membership", async ({ page }) => {
  const username = `cora${suffix}`;
  await reachReview(page, username);
  await expect(summary(page).getByText("Total", { exact: true }).locator("..")).toContainText("$40.00");
  await expect(payButton(page, "$40.00")).toBeVisible();

  // An unknown code: the server's message under the field, nothing discounted, the code not shown as applied.
  await applyCoupon(page, "NOSUCHCODE");
  await expect(page.getByText(INVALID)).toBeVisible();
  await expect(summary(page)).not.toContainText("NOSUCHCODE");
  await expect(summary(page)).not.toContainText("Discount");
  await expect(payButton(page, "$40.00")).toBeVisible();

  // The new coupon (typed in lower case; the field shows it upper case): 25 % of $40.00.
  await applyCoupon(page, CODE.toLowerCase());
  // The accepted code, upper case, with the server's discount and Remove in place of the field.
  await expect(page.getByTestId("coupon-applied")).toContainText(`${CODE} applied · −$10.00`);
  await expect(page.getByTestId("coupon-applied").getByRole("button", { name: "Remove" })).toBeVisible();
  await expect(page.getByText(INVALID)).toBeHidden();
  await expect(summary(page).getByText(`Discount (${CODE})`)).toBeVisible();
  await expect(summary(page)).toContainText("-$10.00");
  await expect(summary(page).getByText("Total", { exact: true }).locator("..")).toContainText("$30.00");
  await expect(page.getByRole("region", { name: "Review" })).toContainText(CODE);
  const pay = payButton(page, "$30.00");
  await expect(pay).toBeVisible();
  await shot(page, "checkout-coupon");

  await fillCard(page, "4242 4242 4242 4242");
  await pay.click();
  await expect(page.getByRole("heading", { name: "Subscription Activated!" })).toBeVisible();
  await expect(page.getByText("Amount charged: $30.00")).toBeVisible();
  await expect(page).toHaveURL(/\/membership\?orderId=\d+&success=1$/, { timeout: 10_000 });

  // The portal: the membership renews at the discounted price and the order was charged it.
  const card = page.getByTestId("subscription-card").filter({ hasText: "Fruit Box" });
  await expect(card).toContainText("$30.00 / month");
  await page.getByRole("tab", { name: "Order History" }).click();
  await expect(page.getByTestId("order-row")).toHaveCount(1);
  await expect(page.getByTestId("order-row")).toContainText("$30.00");

  // The server's records, as the admin reads them.
  const res = await gql(
    page.request,
    token,
    `query($id: Int!) { adminBusiness(id: $id) { memberships(first: 5) { edges { node { username planAmountCents discountCents totalCents status } } } orders(first: 5) { edges { node { subtotalCents discountCents totalCents } } } } }`,
    { id: business.id },
  );
  expect(res.data.adminBusiness.memberships.edges.map((e: { node: unknown }) => e.node)).toEqual([
    { username, planAmountCents: 4000, discountCents: 1000, totalCents: 3000, status: "ACTIVE" },
  ]);
  expect(res.data.adminBusiness.orders.edges.map((e: { node: unknown }) => e.node)).toEqual([{ subtotalCents: 4000, discountCents: 1000, totalCents: 3000 }]);
});

test("the admin deactivates the coupon", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin/coupons");
  const row = page.getByTestId("coupon-row").filter({ hasText: CODE });
  await row.getByRole("button", { name: "Deactivate" }).click();
  await expect(row).toContainText("No");
  await expect(row.getByRole("button", { name: "Activate" })).toBeVisible();
});

test("a deactivated coupon is refused at checkout and the price stays whole", async ({ page }) => {
  await reachReview(page, `late${suffix}`);
  await applyCoupon(page, CODE);
  await expect(page.getByText(INVALID)).toBeVisible();
  // Applying it again keeps the refusal on screen.
  await applyCoupon(page, CODE);
  await expect(page.getByText(INVALID)).toBeVisible();
  await expect(summary(page)).not.toContainText("Discount");
  await expect(summary(page)).not.toContainText(CODE);
  await expect(payButton(page, "$40.00")).toBeVisible();
});
