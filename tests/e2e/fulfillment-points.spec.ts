import { expect, test } from "@playwright/test";
import { fillCard, pinClock, shot } from "./member-support.ts";

/**
 * A visitor chooses a delivery area on the business page (the page lists three), gives delivery
 * instructions and a gift message at checkout, sees them on review and in the Order Summary, pays, and finds the
 * area and the message on their membership in the portal.
 */

test.beforeEach(async ({ page }) => pinClock(page));

test("a visitor chooses a delivery area, gives instructions and a gift message, and sees them through to the portal", async ({ page }) => {
  await page.goto("/b/green-acres-farm");
  await expect(page.getByTestId("plan-card").first()).toBeVisible();
  // Two pickup points: the page asks for one before checkout.
  await expect(page.getByRole("radiogroup", { name: "Choose a pickup point" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Checkout" })).toBeDisabled();

  await page.getByRole("radio", { name: /^Delivery/ }).check();
  const areas = page.getByRole("radiogroup", { name: "Choose a delivery area" });
  await expect(areas).toBeVisible();
  await expect(page.getByTestId("point-missing")).toHaveText("Choose a delivery area to continue.");
  await areas.getByRole("radio", { name: "Hudson and Stow" }).check();
  await shot(page, "business-delivery-area");
  await page.getByRole("button", { name: "Checkout" }).click();

  await expect(page.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  await expect(page.getByTestId("order-summary")).toContainText("Hudson and Stow");
  const username = `area${Date.now() % 100000}`;
  await page.getByLabel("Email").fill(`${username}@example.com`);
  await page.getByLabel("Username").fill(username);
  await expect(page.getByTestId("username-status")).toHaveText("Username is available");
  await page.getByLabel("Password").fill("secret1234");
  await expect(page.getByLabel("Gift message (optional)")).toHaveCount(0);
  await page.getByText("This is a gift subscription").click();
  await page.getByLabel("Gift message (optional)").fill("Happy birthday, Sam!");
  await page.getByRole("button", { name: "Continue to Address" }).click();

  await expect(page.getByRole("heading", { name: "Address" })).toBeVisible();
  await page.getByLabel("Full name").fill("Sam Giftee");
  await page.getByLabel("Phone").fill("330-555-0199");
  await page.getByLabel("Street address").fill("8 Orchard Ln");
  await page.getByLabel("City").fill("Hudson");
  await page.getByLabel("State").selectOption("OH");
  await page.getByLabel("Zip code").fill("44236");
  await page.getByLabel("Delivery instructions (optional)").fill("Leave by the side gate");
  await page.getByRole("button", { name: "Continue to Review" }).click();

  await expect(page.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
  const review = page.getByRole("region", { name: "Review" }).or(page.locator("section[aria-label='Review']"));
  await expect(review.getByTestId("review-point")).toHaveText("Hudson and Stow");
  await expect(review.getByTestId("review-gift-message")).toHaveText("Happy birthday, Sam!");
  await expect(review).toContainText("Leave by the side gate");
  await expect(page.getByTestId("order-summary")).toContainText("Happy birthday, Sam!");
  await fillCard(page, "4242 4242 4242 4242");
  await shot(page, "checkout-review-delivery-area");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { name: "Subscription Activated!" })).toBeVisible();

  await expect(page).toHaveURL(/\/membership\?orderId=\d+&success=1$/, { timeout: 10_000 });
  const card = page.getByTestId("subscription-card").filter({ hasText: "Green Acres" });
  await expect(card.getByTestId("membership-point")).toHaveText("Delivery area: Hudson and Stow");
  await expect(card.getByTestId("membership-gift-message")).toHaveText("Gift message: Happy birthday, Sam!");
});
