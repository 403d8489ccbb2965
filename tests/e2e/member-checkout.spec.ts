import { expect, test } from "@playwright/test";
import { fillCard, pinClock, shot } from "./member-support.ts";

test.beforeEach(async ({ page }) => pinClock(page));

test("a visitor picks a plan, add-on and shipping, registers, pays and sees the order in the portal", async ({ page }) => {
  await page.goto("/b/ember-oak-coffee");
  await expect(page.getByRole("heading", { level: 1, name: /Ember/ })).toBeVisible();
  const plans = page.getByTestId("plan-card");
  await expect(plans.first().getByRole("radio")).toBeChecked();
  await plans.nth(1).click();
  await page.getByTestId("addon-card").first().click();
  await page.getByRole("radio", { name: /Shipping/ }).check();
  await shot(page, "business");
  await page.getByRole("button", { name: "Checkout" }).click();

  await expect(page).toHaveURL(/\/b\/ember-oak-coffee\/membership\/checkout$/);
  await expect(page.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  await expect(page.getByText("We'll use this information to send you membership updates")).toBeVisible();
  await expect(page.getByTestId("order-summary")).toBeVisible();
  const username = `visitor${Date.now() % 100000}`;
  await page.getByLabel("Email").fill(`${username}@example.com`);
  await page.getByLabel("Username").fill("member");
  await expect(page.getByTestId("username-status")).toHaveText("Username is already taken. Please choose a different one.");
  await page.getByLabel("Username").fill(username);
  await expect(page.getByTestId("username-status")).toHaveText("Username is available");
  await page.getByLabel("Password").fill("secret1234");
  await shot(page, "checkout-contact");
  await page.getByRole("button", { name: "Continue to Address" }).click();

  await expect(page.getByRole("heading", { name: "Address" })).toBeVisible();
  await page.getByLabel("Full name").fill("Vera Visitor");
  await page.getByLabel("Phone").fill("330-555-0100");
  await page.getByLabel("Street address").fill("12 Bean St");
  await page.getByLabel("City").fill("Akron");
  await page.getByLabel("State").selectOption("OH");
  await page.getByLabel("Zip code").fill("44303");
  await page.getByRole("button", { name: "Continue to Review" }).click();

  await expect(page.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
  await expect(page.getByText("Ship to")).toBeVisible();
  await expect(page.getByText("Have a discount code? Enter it here to apply it to your order")).toBeVisible();
  const pay = page.getByRole("button", { name: /^Pay \$[\d.]+ now and it renews at \$[\d.]+ every month on April 1st$/ });
  await expect(pay).toBeVisible();
  await fillCard(page, "4242 4242 4242 4242");
  await shot(page, "checkout-review");
  await pay.click();
  await expect(page.getByRole("heading", { name: "Subscription Activated!" })).toBeVisible();
  await expect(page.getByText("Redirecting to your membership dashboard...")).toBeVisible();
  await expect(page).toHaveURL(/\/membership\?orderId=\d+&success=1$/, { timeout: 10_000 });
  await expect(page.getByTestId("subscription-card").filter({ hasText: "Ember" })).toBeVisible();
  await page.getByRole("tab", { name: "Order History" }).click();
  await expect(page.getByTestId("order-row")).toHaveCount(1);
  await shot(page, "portal-orders");
});

test("a declined card shows the error and Try Again, then a good card succeeds", async ({ page }) => {
  await page.goto("/b/rise-and-crumb-bakery");
  await page.getByRole("button", { name: "Checkout" }).click();
  const username = `decl${Date.now() % 100000}`;
  await page.getByLabel("Email").fill(`${username}@example.com`);
  await page.getByLabel("Username").fill(username);
  await expect(page.getByTestId("username-status")).toHaveText("Username is available");
  await page.getByLabel("Password").fill("secret1234");
  await page.getByRole("button", { name: "Continue to Address" }).click();
  await page.getByLabel("Street address").fill("1 Crumb Ln");
  await page.getByRole("button", { name: "Continue to Review" }).click();
  await fillCard(page, "4000 0000 0000 0002");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Payment Error:")).toBeVisible();
  await shot(page, "checkout-error");
  await page.getByRole("button", { name: "Try Again" }).click();
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { name: "Subscription Activated!" })).toBeVisible();
});
