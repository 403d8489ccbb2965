import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { loginAs } from "./admin-support.ts";
import { login, pinClock, shot } from "./member-support.ts";
import { adminToken, createOwnBusiness, createUser, runSuffix, subscribeMember, type OwnBusiness } from "./tenant-support.ts";

/**
 * A member's own cancel (issue 40) at a business that takes it from the membership page: its owner chooses that in
 * the page editor with the offers, then a member gives a reason, declines the offers, sees "Ends after …" and keeps
 * the membership; another takes the discount instead. The server runs on the fixed demo clock (March 5th, 2026:
 * inside the default skip and change windows). The business and its members are the spec's own: March is paid at
 * sign-up, so a cancel ends the membership after the March box.
 */

const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";
const suffix = runSuffix();
const PASSWORD = "cancel-pass-1234";
const owner = `co${suffix}`;
/** Declines the offers, then keeps the membership. */
const leaver = `cl${suffix}`;
/** Takes the discount instead. */
const stayer = `cs${suffix}`;
let business: OwnBusiness;

test.describe.configure({ mode: "serial" });

/** The accessibility bar of every page (accessibility.spec.ts): no critical or serious axe violation (WCAG 2.0/2.1 A and AA). */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** The member's card at this spec's business, on the Subscriptions tab. */
async function membershipCard(page: Page, username: string) {
  await pinClock(page);
  await login(page, `/b/${business.slug}/membership`, username, PASSWORD);
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  return page.getByTestId("subscription-card").filter({ hasText: business.name });
}

/** Opens the cancel flow and gives a reason, up to the offers. */
async function giveReason(page: Page, card: ReturnType<Page["getByTestId"]>, reason: string, screenshot?: string) {
  await card.getByRole("button", { name: "Cancel membership" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Why are you leaving?" });
  await expect(dialog.getByRole("radio")).toHaveCount(7);
  await dialog.getByRole("radio", { name: reason }).check();
  await dialog.getByLabel(/Anything you'd like to tell us/).fill("We have a garden of our own now.");
  await expect(dialog.getByTestId("cancel-note-count")).toHaveText("32/500");
  if (screenshot) {
    await shot(page, screenshot);
    await expectAccessible(page);
  }
  await dialog.getByRole("button", { name: "Continue" }).click();
  return page.getByRole("alertdialog", { name: "Before you go" });
}

test.beforeAll(async ({ request }) => {
  const admin = await adminToken(request);
  // A smaller box than the Harvest Box, so switching plan is on offer.
  business = await createOwnBusiness(request, admin, { name: `Cancel Farm ${suffix}`, slug: `cancel-farm-${suffix}`, planName: "Harvest Box", pickupCents: 3200, morePlans: [{ name: "Half Box", pickupCents: 1800 }] });
  await createUser(request, admin, owner, PASSWORD, { businessId: business.id, role: "OWNER" });
  for (const username of [leaver, stayer]) await subscribeMember(request, admin, business, username, PASSWORD);
});

test("the owner lets members cancel from their membership page, with a discount among the offers", async ({ page }) => {
  await loginAs(page, owner, PASSWORD);
  await page.goto(`/admin/business/${business.id}/page`);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible();
  const policy = page.getByLabel("How members cancel");
  await expect(policy).toHaveValue("PHONE");
  await expect(page.getByRole("group", { name: "Offers before cancelling" })).toHaveCount(0);
  await policy.selectOption({ label: "From their membership page" });
  const offers = page.getByRole("group", { name: "Offers before cancelling" });
  for (const name of ["Skip a month", "Pause", "Switch plan"]) await expect(offers.getByRole("checkbox", { name })).toBeChecked();
  await expect(page.getByLabel("Discount (%)")).toHaveCount(0);
  await offers.getByText("Discount", { exact: true }).click();
  await expect(page.getByLabel("Discount (%)")).toHaveValue("10");
  // Beyond 50 % the server refuses the save and says why under the field.
  await page.getByLabel("Discount (%)").fill("60");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.locator("#panel-subscription").getByText("Retention discount must be a whole percent from 5 to 50")).toBeVisible();
  await page.getByLabel("Discount (%)").fill("20");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("How members cancel")).toHaveValue("SELF_SERVICE");
  await expect(page.getByRole("group", { name: "Offers before cancelling" }).getByRole("checkbox", { name: "Discount" })).toBeChecked();
  await expect(page.getByLabel("Discount (%)")).toHaveValue("20");
  await page.getByLabel("Discount (%)").evaluate((e) => e.scrollIntoView({ block: "center" }));
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/cancel-editor-settings-1280.png` });
});

test("a member gives a reason, declines the offers, sees when it ends, then keeps the membership", async ({ page }) => {
  const card = await membershipCard(page, leaver);
  await expect(card.getByText("Next box: April 1, 2026")).toBeVisible();
  // The footer no longer says cancelling is by phone only: this business takes it from the card.
  await expect(page.getByTestId("portal-note")).toContainText("You can cancel from your membership card (Subscriptions tab).");

  const offers = await giveReason(page, card, "Too much food", "cancel-reason");
  await expect(offers.getByRole("heading", { level: 3 })).toHaveText(["Skip April instead", "Pause for 1–3 months", "Switch to a smaller box", "20 % off your next box"]);
  await expect(offers.getByTestId("cancel-ends")).toHaveText("If you cancel, your membership ends after your March box.");
  await shot(page, "cancel-offers");
  // A phone scrolls the dialog itself, which a full-page shot leaves out: its end, as the member scrolls to it.
  await page.setViewportSize({ width: 375, height: 900 });
  await offers.getByRole("button", { name: "No thanks, cancel my membership" }).scrollIntoViewIfNeeded();
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/cancel-offers-end-375.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAccessible(page);
  await offers.getByRole("button", { name: "No thanks, cancel my membership" }).click();
  const ending = page.getByRole("dialog", { name: "Your membership will end" });
  await expect(ending.getByText("Your membership ends after your March box.")).toBeVisible();
  await ending.getByRole("button", { name: "Done" }).click();

  // The card: ending after the paid March box, still active until then, with one way back.
  await expect(card.getByTestId("ends-after")).toHaveText("Ends after your March box");
  await expect(card.getByText("Active", { exact: true })).toBeVisible();
  await expect(card.getByText("Next box: April 1, 2026")).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Cancel membership" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Skip a month" })).toHaveCount(0);
  await shot(page, "cancel-card-ending");
  await expectAccessible(page);
  // It stays so after a reload: the server's.
  await page.reload();
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await expect(card.getByTestId("ends-after")).toHaveText("Ends after your March box");

  await card.getByRole("button", { name: "Keep my membership" }).click();
  await expect(card.getByRole("status")).toHaveText("Your membership goes on as before.");
  await expect(card.getByTestId("ends-after")).toHaveCount(0);
  await expect(card.getByText("Next box: April 1, 2026")).toBeVisible();
  await expect(card.getByRole("button", { name: "Skip a month" })).toBeEnabled();
  await expect(card.getByRole("button", { name: "Cancel membership" })).toBeVisible();
  await shot(page, "cancel-card-kept");
});

test("a member takes the discount instead of cancelling", async ({ page }) => {
  const card = await membershipCard(page, stayer);
  await expect(card).toContainText("$32.00 / month");
  const offers = await giveReason(page, card, "It's too expensive");
  await offers.getByRole("group", { name: "20 % off your next box" }).getByRole("button", { name: "Accept" }).click();
  const done = page.getByRole("dialog", { name: "Thanks for staying" });
  await expect(done.getByTestId("retained-message")).toHaveText("You'll get 20 % off your April box. Thanks for staying with us!");
  await shot(page, "cancel-retained");
  await done.getByRole("button", { name: "Done" }).click();
  // The card's price says the discount is for one box: the server's terms of the coupon.
  await expect(card).toContainText("$25.60 / month (20 % off · 1 month left)");
  await expect(card.getByTestId("ends-after")).toHaveCount(0);
  await expect(card.getByText("Next box: April 1, 2026")).toBeVisible();
  // The offer is once a year: asked again, the discount is no longer among the offers.
  const again = await giveReason(page, card, "It's too expensive");
  await expect(again.getByRole("heading", { level: 3 })).toHaveText(["Skip April instead", "Pause for 1–3 months", "Switch to a smaller box"]);
  await again.getByRole("button", { name: "Keep my membership" }).click();
  await expect(card.getByRole("button", { name: "Cancel membership" })).toBeVisible();
});

test("the owner's dashboard says why members asked to cancel and what the offers kept", async ({ page }) => {
  await loginAs(page, owner, PASSWORD);
  await page.goto(`/admin/business/${business.id}`);
  // Three requests this month: the leaver's (too much food), the stayer's two (too expensive), one kept by the discount.
  const requests = page.getByTestId("cancel-requests");
  await expect(requests).toContainText("3 members asked to cancel · 1 kept by an offer");
  await expect(requests).toContainText("Too expensive 2 · Too much 1");
  await shot(page, "cancel-dashboard");
});

test("the legal pages keep §9's phone-only sentence and say a business may offer cancelling from the membership page", async ({ page }) => {
  for (const [path, sentence] of [
    ["/terms-of-use", "Cancellation is by phone only: call the business's support line."],
    ["/refund-policy", "Cancellation is by phone only. Instead of canceling you can skip a month, change your product, or pause."],
  ]) {
    await page.goto(path);
    await expect(page.getByText(sentence, { exact: true })).toBeVisible();
    await expect(page.getByText("Where a business offers it, you can also cancel from your membership page.", { exact: true })).toBeVisible();
  }
});
