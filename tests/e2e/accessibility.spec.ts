import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { gql, loginAs } from "./admin-support.ts";
import { fillCard, login, pinClock } from "./member-support.ts";
import { adminToken, checkout, createOwnBusiness, memberSession, runSuffix } from "./tenant-support.ts";

// No critical or serious axe-core violation (WCAG 2.0/2.1 A and AA) on any public, portal or admin page,
// each portal tab and each dialog open. Every check is soft, so one run lists every page that fails, each
// violation by rule id and the elements it names.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

type NodeResult = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number]["nodes"][number];

/** Waits for enter animations (dialogs fade and scale in): axe measures colours as painted. Spinners never end. */
async function settle(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity));
}

/** An element as axe names it, its markup, and for contrast the colours measured. */
function describeNode(node: NodeResult): string {
  const contrast = node.any.find((c) => c.id === "color-contrast")?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
  const colours = contrast?.fgColor ? ` [${contrast.fgColor} on ${contrast.bgColor}, ${contrast.contrastRatio}:1]` : "";
  return `${node.target.join(" > ")} ${node.html.slice(0, 120)}${colours}`;
}

async function expectAccessible(page: Page, name: string) {
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const serious = violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map(describeNode).join(" | ")}`);
  expect.soft(serious, `axe violations on ${name}`).toEqual([]);
}

test("public pages", async ({ page }) => {
  test.setTimeout(120_000);
  await pinClock(page);
  const pages: [string, string, () => Promise<void>][] = [
    ["home", "/", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible()],
    ["contact", "/contact", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible()],
    ["businesses", "/businesses", () => expect(page.getByTestId("business-card").first()).toBeVisible()],
    ["business page", "/b/green-acres-farm", () => expect(page.getByTestId("plan-card").first()).toBeVisible()],
    ["business page with a dark footer", "/b/ember-oak-coffee", () => expect(page.getByTestId("plan-card").first()).toBeVisible()],
    ["terms of use", "/terms-of-use", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible()],
    ["privacy policy", "/privacy-policy", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible()],
    ["refund policy", "/refund-policy", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible()],
    ["not found", "/no-such-page", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible()],
    ["unknown business", "/b/no-such-business", () => expect(page.getByRole("heading", { level: 1 })).toBeVisible()],
    ["member login", "/membership", () => expect(page.getByRole("button", { name: "Log In" })).toBeVisible()],
  ];
  for (const [name, path, ready] of pages) {
    await page.goto(path);
    await ready();
    await expectAccessible(page, name);
  }

  // Checkout, each step, from a business page.
  await page.goto("/b/rise-and-crumb-bakery");
  await page.getByRole("button", { name: "Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  await expectAccessible(page, "checkout: contact");
  const username = `a11y${Date.now() % 100000}`;
  await page.getByLabel("Email").fill(`${username}@example.com`);
  await page.getByLabel("Username").fill(username);
  await expect(page.getByTestId("username-status")).toHaveText("Username is available");
  await page.getByLabel("Password").fill("secret1234");
  await page.getByRole("button", { name: "Continue to Address" }).click();
  await expect(page.getByRole("heading", { name: "Address" })).toBeVisible();
  await expectAccessible(page, "checkout: address");
  await page.getByLabel("Full name").fill("Ada Access");
  await page.getByLabel("Phone").fill("330-555-0100");
  await page.getByLabel("Street address").fill("1 Contrast Way");
  await page.getByLabel("City").fill("Akron");
  await page.getByLabel("State").selectOption("OH");
  await page.getByLabel("Zip code").fill("44303");
  await page.getByRole("button", { name: "Continue to Review" }).click();
  await expect(page.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
  await fillCard(page, "4000 0000 0000 0002");
  await expectAccessible(page, "checkout: review");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByText("Your card was declined.")).toBeVisible();
  await expectAccessible(page, "checkout: declined card");
  // A card that asks for 3-D Secure: the sandbox's challenge dialog, failed (nothing is charged).
  await page.getByRole("button", { name: "Try Again" }).click();
  await fillCard(page, "4000 0027 6000 3184");
  await page.getByRole("button", { name: /^Pay / }).click();
  const challenge = page.getByRole("alertdialog");
  await expect(challenge.getByRole("heading", { name: "3D Secure authentication" })).toBeVisible();
  await expectAccessible(page, "checkout: 3-D Secure challenge");
  await challenge.getByRole("button", { name: "Fail authentication" }).click();
  await expect(challenge).toBeHidden();
  await expect(page.getByText("Payment Error:")).toBeVisible();

  await page.goto("/checkout");
  await expect(page.getByRole("heading", { level: 1, name: "Your selection" })).toBeVisible();
  await expectAccessible(page, "legacy checkout");

  // The phone layout: the header's menu open.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "home at 375 px");
});

test("a business page and checkout in the spec's default theme (orange, white text)", async ({ page, request }) => {
  await pinClock(page);
  const suffix = runSuffix();
  // A page saved without a theme: the spec's defaults (primary #f97316 with #ffffff text).
  const business = await createOwnBusiness(request, await adminToken(request), { name: `Zz Default Theme Dairy ${suffix}`, slug: `zz-default-theme-${suffix}`, planName: "Milk Share", pickupCents: 2000 });
  await page.goto(`/b/${business.slug}`);
  await expect(page.getByTestId("plan-card").first()).toBeVisible();
  await expectAccessible(page, "default-theme business page");
  await page.getByRole("button", { name: "Checkout" }).click();
  await expect(page.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  await expectAccessible(page, "default-theme checkout");
});

test("a business page on a mid-grey background (dark by spec §9, yet white text there is only 4.3:1)", async ({ page, request }) => {
  await pinClock(page);
  const suffix = runSuffix();
  const token = await adminToken(request);
  const business = await createOwnBusiness(request, token, { name: `Zz Grey Page Farm ${suffix}`, slug: `zz-grey-page-${suffix}`, planName: "Grey Box", pickupCents: 2500 });
  const theme = { primary: "#f97316", selection: "#2563eb", primaryText: "#ffffff", buttonBorder: "transparent", pageBg: "#7a7a7a", footerButtonBg: "", footerButtonText: "", footerButtonBorder: "" };
  const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename } }`, {
    input: { businessId: business.id, content: { brand: { name: business.name }, descriptionHtml: '<p>Grey skies, <a href="https://example.com">bright boxes</a>.</p>', theme, social: { facebook: "https://facebook.com/example" } } },
  });
  expect(saved.data.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");
  await page.goto(`/b/${business.slug}`);
  await expect(page.getByTestId("plan-card").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveCSS("color", "rgb(0, 0, 0)");
  await expectAccessible(page, "mid-grey business page");
});

test("member portal: every tab and dialog", async ({ page }) => {
  test.setTimeout(120_000);
  await pinClock(page);
  await login(page, "/b/green-acres-farm/membership");
  for (const tab of ["Next Box", "Subscriptions", "Order History", "Profile"]) {
    await page.getByRole("tab", { name: tab }).click();
    await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
    await expectAccessible(page, `portal: ${tab}`);
  }

  // Card update form (Profile).
  const cardSection = page.getByRole("region", { name: "Payment card" });
  await cardSection.getByRole("button", { name: "Update card" }).click();
  await expect(page.getByLabel("Card number")).toBeVisible();
  await expectAccessible(page, "portal: card update");
  await fillCard(page, "4000 0000 0000 0002");
  await cardSection.getByRole("button", { name: "Save card" }).click();
  await expect(cardSection.getByRole("alert")).toContainText("Your card was declined.");
  await expectAccessible(page, "portal: card update declined");
  await cardSection.getByRole("button", { name: "Cancel" }).click();

  // Skip confirmation.
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const green = page.getByTestId("subscription-card").filter({ hasText: "Green Acres" });
  await green.getByRole("button", { name: "Skip a month" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await expectAccessible(page, "portal: skip confirmation");
  await page.getByRole("alertdialog").getByRole("button", { name: "Keep my box" }).click();
  await expect(page.getByRole("alertdialog")).toBeHidden();

  // Restart confirmation.
  const rise = page.getByTestId("subscription-card").filter({ hasText: "Rise" });
  await rise.getByRole("button", { name: "Restart subscription" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await expectAccessible(page, "portal: restart confirmation");
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("alertdialog")).toBeHidden();

  // Change of box: the business page in change mode and its confirmation.
  await green.getByRole("link", { name: "Change box" }).click();
  await expect(page).toHaveURL(/\?change=true$/);
  await expect(page.getByRole("button", { name: "Update" })).toBeVisible();
  await expectAccessible(page, "business page in change mode");
  await page.getByTestId("plan-card").filter({ has: page.locator("input:not(:checked)") }).first().click();
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByTestId("change-quote")).toBeVisible();
  await expectAccessible(page, "change confirmation");
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();

  // The phone layout with the portal menu open.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/membership");
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.locator("#portal-menu")).toBeVisible();
  await expectAccessible(page, "portal menu at 375 px");
});

test("portal result dialogs: month skipped, restart payment and restarted", async ({ page, request }) => {
  test.setTimeout(90_000);
  await pinClock(page);
  // A member of two businesses of this test's own (the demo member's memberships stay as other specs expect).
  const suffix = runSuffix();
  const token = await adminToken(request);
  const skipFarm = await createOwnBusiness(request, token, { name: `Zz A11y Skip Farm ${suffix}`, slug: `zz-a11y-skip-${suffix}`, planName: "Skip Box", pickupCents: 2200 });
  const restartFarm = await createOwnBusiness(request, token, { name: `Zz A11y Restart Farm ${suffix}`, slug: `zz-a11y-restart-${suffix}`, planName: "Restart Box", pickupCents: 2400 });
  const username = `a11ym${suffix}`;
  const memberToken = await memberSession(request, token, username, "member12345");
  await checkout(request, memberToken, skipFarm, `${username}@example.com`);
  await checkout(request, memberToken, restartFarm, `${username}@example.com`);
  const mine = await gql(request, memberToken, `{ viewer { subscriptions { id business { slug } } } }`);
  const toCancel = mine.data.viewer.subscriptions.find((m: { business: { slug: string } }) => m.business.slug === restartFarm.slug);
  const canceled = await gql(request, token, `mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { __typename } }`, { input: { subscriptionId: toCancel.id } });
  expect(canceled.data.cancelSubscription.__typename).toBe("CancelSubscriptionSuccess");

  await login(page, "/membership", username, "member12345");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
  await page.getByTestId("subscription-card").filter({ hasText: skipFarm.name }).getByRole("button", { name: "Skip a month" }).click();
  await dialog.getByRole("button", { name: "Skip month" }).click();
  await expect(dialog.getByRole("heading", { name: "Month skipped" })).toBeVisible();
  await expectAccessible(page, "portal: month skipped");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  await page.getByTestId("subscription-card").filter({ hasText: restartFarm.name }).getByRole("button", { name: "Restart subscription" }).click();
  await dialog.getByRole("button", { name: "Restart", exact: true }).click();
  const cardNumber = dialog.getByLabel("Card number");
  if (await cardNumber.isVisible({ timeout: 3000 }).catch(() => false)) {
    await expectAccessible(page, "portal: restart payment");
    await fillCard(page, "4242 4242 4242 4242");
    await dialog.getByRole("button", { name: /and restart$/ }).click();
  }
  await expect(page.getByTestId("restart-confirmation")).toBeVisible({ timeout: 10_000 });
  await expectAccessible(page, "portal: restarted");
});

test("admin area: every page and dialog", async ({ page, context }) => {
  test.setTimeout(180_000);
  const session = await loginAs(page, "admin", "admin1234");
  const list = await gql(page.request, session.token, `{ business(slug: "green-acres-farm") { databaseId } }`);
  const id = list.data.business.databaseId;
  const h1 = (name: string) => expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await page.goto("/admin");
  await h1("Dashboard");
  await expect(page.getByRole("heading", { name: "Recent subscriptions" })).toBeVisible();
  await expectAccessible(page, "admin dashboard");

  await page.goto(`/admin/business/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "business dashboard");

  await page.goto("/admin/businesses");
  await expect(page.getByRole("button", { name: "Manage Users of Green Acres Farm" })).toBeVisible();
  await expectAccessible(page, "businesses");
  await page.getByRole("button", { name: "Manage Users of Green Acres Farm" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "manage users dialog");
  await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).first().click();

  await page.goto("/admin/my");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "my businesses");

  // The page editor, its item and add-on editors, and the preview.
  await page.goto(`/admin/business/${id}/page`);
  await h1("Edit Page");
  await expect(page.getByTestId("item-card").first()).toBeVisible();
  await expectAccessible(page, "business page editor");
  await page.getByRole("button", { name: "Add new item" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog").getByText("Please enter a package name.")).toBeVisible();
  await expectAccessible(page, "item editor");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByRole("button", { name: "Add new add-on" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "add-on editor");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  const [preview] = await Promise.all([context.waitForEvent("page"), page.getByRole("button", { name: "Preview" }).click()]);
  await expect(preview.getByTestId("brand-row")).toBeVisible();
  await expectAccessible(preview, "page preview");
  await preview.getByRole("button", { name: "Mobile" }).click();
  await expect(preview.frameLocator('iframe[title="Mobile preview"]').getByTestId("brand-row")).toBeVisible();
  await expectAccessible(preview, "page preview, mobile");

  // A theme pair below 4.5:1: the editor warns, and the preview's button shows black text on the orange.
  const primary = page.getByLabel("Primary", { exact: true });
  const stored = await primary.inputValue();
  await expect(page.getByTestId("contrast-warning")).toHaveCount(0);
  await primary.fill("#f97316");
  await expect(page.getByTestId("contrast-warning")).toHaveText("Low contrast: the primary text on the primary colour is 2.8:1 (4.5:1 is needed), so the page shows it in black to keep it readable.");
  // The open preview follows the unsaved change.
  await preview.getByRole("button", { name: "Desktop" }).click();
  await expect(preview.getByRole("button", { name: "Checkout" })).toHaveCSS("color", "rgb(0, 0, 0)");
  await preview.close();
  await expectAccessible(page, "page editor with the default orange");
  await primary.fill(stored);
  await expect(page.getByTestId("contrast-warning")).toHaveCount(0);

  await page.goto("/admin/page");
  await h1("Home Page");
  await expectAccessible(page, "home page editor");

  await page.goto("/admin/next-boxes");
  await h1("Next Box Management");
  await expectAccessible(page, "next boxes");
  await page.goto(`/admin/business/${id}/next-box`);
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeVisible();
  await expectAccessible(page, "next box editor");

  await page.goto("/admin/memberships");
  const rows = page.getByTestId("membership-row");
  await expect(rows.first()).toBeVisible();
  await expectAccessible(page, "memberships");
  await rows.first().getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await expectAccessible(page, "cancel membership confirmation");
  await page.getByRole("alertdialog").getByRole("button", { name: "Keep membership" }).click();
  await page.goto(`/admin/business/${id}/memberships`);
  await expect(page.getByTestId("membership-row").first()).toBeVisible();
  await expectAccessible(page, "business memberships");
  await page.goto(`/admin/business/${id}/fulfilment/2026-03`);
  await expect(page.getByTestId("cycle-state")).toBeVisible();
  await expectAccessible(page, "fulfilment");

  await page.goto("/admin/coupons");
  await h1("Coupons");
  await page.locator("form").getByRole("button", { name: "Create Coupon" }).click();
  await expect(page.getByText("Please enter a coupon code")).toBeVisible();
  await expectAccessible(page, "coupons");
  await page.getByRole("button", { name: /^Redemptions of WELCOME10/ }).filter({ visible: true }).click();
  await expect(page.getByTestId("coupon-redemptions").filter({ visible: true })).toBeVisible();
  await expectAccessible(page, "coupons with a coupon's redemptions");
  await page.goto(`/admin/business/${id}/coupons`);
  await h1("Coupons");
  await page.locator("form").getByRole("combobox", { name: "Duration" }).selectOption("REPEATING");
  await expect(page.locator("form").getByLabel("Months")).toBeVisible();
  await expectAccessible(page, "business coupons");

  await page.goto("/admin/users");
  await expect(page.getByRole("button", { name: "Create User" })).toBeVisible();
  await expectAccessible(page, "users");

  await page.goto("/admin/change-password");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page, "change password");

  await page.goto(`/admin/business/${id}/api-tokens`);
  await page.getByLabel("Token name").fill("A11y check");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();
  await expectAccessible(page, "api tokens: new secret");
  await page.getByRole("button", { name: "Done, I have stored it" }).click();
  await page.getByRole("button", { name: "Revoke A11y check" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await expectAccessible(page, "revoke token confirmation");
  await page.getByRole("alertdialog").getByRole("button", { name: "Keep token" }).click();

  // The phone layout with the navigation drawer open.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/admin");
  await h1("Dashboard");
  await expectAccessible(page, "admin dashboard at 375 px");
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(page.getByRole("dialog").getByRole("navigation", { name: "Admin" })).toBeVisible();
  await expectAccessible(page, "admin navigation drawer at 375 px");
});
