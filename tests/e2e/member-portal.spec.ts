import { expect, test } from "@playwright/test";
import { fillCard, login, pinClock, shot } from "./member-support.ts";

test.beforeEach(async ({ page }) => pinClock(page));

test("a member skips a month inside the skip window", async ({ page }) => {
  await login(page, "/b/green-acres-farm/membership");
  await shot(page, "portal-next-box");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = page.getByTestId("subscription-card").filter({ hasText: "Green Acres" });
  await expect(card.getByTestId("window-note")).toContainText("Skip window closes March 14, 2026");
  // On March 5th, March is billed and its box (the 6th) is still to come, so a skip pauses April,
  // the month the server records: the modal names April, not the next box's March.
  await expect(card.getByText("Next box: March 6, 2026")).toBeVisible();
  await expect(card.getByTestId("skipped-month")).toHaveCount(0);
  await card.getByRole("button", { name: "Skip a month" }).click();
  const modal = page.getByRole("alertdialog");
  await expect(modal.getByRole("heading", { name: "Skip April?" })).toBeVisible();
  await expect(modal).toContainText("Your Green Acres Farm box for April 2026 will be skipped and you won't be charged for it. Payments resume May 1st.");
  await shot(page, "portal-skip-modal");
  await page.getByRole("button", { name: "Skip month" }).click();
  await expect(page.getByText("Payments paused until May 1st", { exact: true })).toBeVisible();
  await shot(page, "portal-skipped");
  await page.getByRole("button", { name: "Done" }).click();
  // The card shows the skipped month, and Skip is disabled instead of answering "This month is already skipped".
  await expect(card.getByTestId("skipped-month")).toHaveText("Skipped: April 2026 · payments resume May 1st");
  await expect(card.getByRole("button", { name: "Skip a month" })).toBeDisabled();
  await expect(card.getByText("Next box: March 6, 2026")).toBeVisible();
  await shot(page, "portal-skipped-card");
});

test("a member changes the box through ?change=true", async ({ page }) => {
  await login(page, "/b/green-acres-farm/membership");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await page.getByTestId("subscription-card").filter({ hasText: "Green Acres" }).getByRole("link", { name: "Change box" }).click();
  await expect(page).toHaveURL(/\/b\/green-acres-farm\?change=true$/);
  const update = page.getByRole("button", { name: "Update" });
  await expect(update).toBeDisabled();
  const unchecked = page.getByTestId("plan-card").filter({ has: page.locator("input:not(:checked)") }).first();
  await unchecked.click();
  await expect(update).toBeEnabled();
  await update.click();
  await expect(page.getByText("The change takes effect next billing cycle. There is no charge today.")).toBeVisible();
  // The price quoted is the server's, with Green Acres' 5.75 % tax (and the member's WELCOME10 coupon).
  // April was skipped in the test above, so the change takes effect from May, the first month charged.
  await expect(page.getByTestId("change-quote")).toHaveText(/^New monthly price: \$\d+\.\d{2} \/ month \(after \$\d+\.\d{2} discount, incl\. \$\d+\.\d{2} tax at 5\.75%\), from May 2026\.$/);
  await shot(page, "change-dialog");
  await page.getByRole("button", { name: "Confirm update" }).click();
  await expect(page.getByRole("heading", { name: "Update scheduled" })).toBeVisible();
  await expect(page).toHaveURL(/\/membership\?changed=1$/, { timeout: 10_000 });
  // The scheduled change names its month, not a raw period.
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await expect(page.getByTestId("subscription-card").filter({ hasText: "Green Acres" }).getByText(/^Scheduled change: .+ from May 2026$/)).toBeVisible();
});

test("a member restarts a canceled membership", async ({ page }) => {
  await login(page, "/b/rise-and-crumb-bakery/membership");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = page.getByTestId("subscription-card").filter({ hasText: "Rise" });
  await card.getByRole("button", { name: "Restart subscription" }).click();
  await expect(page.getByText("Restart this subscription? You will be charged for the current period now.")).toBeVisible();
  await page.getByRole("button", { name: "Restart", exact: true }).click();
  const cardForm = page.getByLabel("Card number");
  if (await cardForm.isVisible({ timeout: 3000 }).catch(() => false)) {
    await fillCard(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: /and restart$/ }).click();
  }
  // The charge is confirmed (amount and next billing date) before the dialog closes.
  const confirmation = page.getByTestId("restart-confirmation");
  await expect(confirmation).toContainText(/You were charged \$\d+\.\d{2} for the current period\. Your Rise & Crumb Bakery membership is active again\./, { timeout: 10_000 });
  await expect(confirmation).toContainText("Next billing: April 5, 2026");
  await shot(page, "portal-restarted");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("subscription-card").filter({ hasText: "Rise" }).getByText("Active")).toBeVisible({ timeout: 10_000 });
});

test("profile password form checks its fields", async ({ page }) => {
  await login(page, "/membership");
  await page.getByRole("tab", { name: "Profile" }).click();
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Please fill all password fields")).toBeVisible();
  await page.getByLabel("Current password").fill("member1234");
  await page.getByLabel("New password", { exact: true }).fill("a-new-pass1");
  await page.getByLabel("Confirm new password").fill("different");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("New password and confirmation do not match")).toBeVisible();
  await shot(page, "portal-profile");
});
