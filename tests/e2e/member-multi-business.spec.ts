import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { gql } from "./admin-support.ts";
import { fillCard, login, pinClock } from "./member-support.ts";
import { adminToken, checkout, connectPayouts, memberSession, runSuffix, type OwnBusiness } from "./tenant-support.ts";

/**
 * One login for every membership: a member signed in at business A manages the membership at B
 * (change the box) and checks out at C without logging in again. The businesses and the member are made
 * through the API, so the seeded demo data other specs read stays as seeded.
 */

const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";
const suffix = runSuffix();
const PASSWORD = "multi-pass-1234";
const username = `multi${suffix}`;
let a: OwnBusiness;
let b: OwnBusiness;
let c: OwnBusiness;

/** A business with the given plans (pickup only, no tax, default windows). */
async function business(request: APIRequestContext, token: string, name: string, plans: { name: string; pickupCents: number }[]): Promise<OwnBusiness> {
  const created = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on CreateBusinessSuccess { data { databaseId slug } } ... on Error { message } } }`, {
    input: { name: `${name} ${suffix}`, slug: `${name}-${suffix}`.toLowerCase().replace(/[^a-z0-9]+/g, "-") },
  });
  expect(created.data.createBusiness.__typename, JSON.stringify(created)).toBe("CreateBusinessSuccess");
  const { databaseId: id, slug } = created.data.createBusiness.data as { databaseId: number; slug: string };
  await connectPayouts(request, token, id);
  name = `${name} ${suffix}`;
  const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
    input: { businessId: id, content: { brand: { name }, fulfillment: { pickup: true, pickupAddress: "1 Orchard Road" } }, plans },
  });
  expect(saved.data.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");
  const page = await gql(request, token, `query($slug: String!) { business(slug: $slug) { plans(first: 1) { edges { node { ref } } } } }`, { slug });
  return { id, slug, name, planRef: page.data.business.plans.edges[0].node.ref };
}

async function portalShots(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);
    // No horizontal overflow at either width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: true });
    if (process.env.E2E_TMP_SHOTS) await page.screenshot({ path: `${process.env.E2E_TMP_SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.beforeAll(async ({ request }) => {
  const admin = await adminToken(request);
  a = await business(request, admin, "Alder Farm", [{ name: "Harvest Box", pickupCents: 3000 }]);
  b = await business(request, admin, "Birch Roasters", [
    { name: "Bean Box", pickupCents: 2200 },
    { name: "Espresso Box", pickupCents: 2600 },
  ]);
  c = await business(request, admin, "Cedar Bakery", [{ name: "Bread Box", pickupCents: 1800 }]);
  // The member holds memberships at A and B (paid through the API), none at C yet.
  const token = await memberSession(request, admin, username, PASSWORD);
  await checkout(request, token, a, `${username}@example.com`);
  await checkout(request, token, b, `${username}@example.com`);
});

test.beforeEach(async ({ page }) => pinClock(page));

test("signed in at A, the member changes the box at B and checks out at C", async ({ page }) => {
  // Sign in at business A: the session is made for A.
  await login(page, `/b/${a.slug}/membership`, username, PASSWORD);
  expect(await page.evaluate(() => localStorage.getItem("auth_tenant"))).toBe(a.slug);

  // The portal lists both businesses' memberships, A (the URL's business) first.
  const nextBoxes = page.getByRole("tabpanel", { name: "Next Box" }).getByTestId("next-box-group");
  await expect(nextBoxes).toHaveCount(2);
  await expect(nextBoxes.nth(0)).toContainText(a.name);
  await expect(nextBoxes.nth(1)).toContainText(b.name);
  await expect(nextBoxes.nth(1).getByRole("heading", { name: /^Your next box: / })).toBeVisible();
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const cards = page.getByTestId("subscription-card");
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText(a.name);
  await expect(cards.nth(1)).toContainText(b.name);
  // One logout control in the portal: the Log Out tab, not a second one in the header.
  await expect(page.getByRole("banner").getByRole("button", { name: "Log out" })).toHaveCount(0);
  await portalShots(page, "portal-two-businesses");

  // Change the box at B: the business page opens in change mode with the member's current box, signed in.
  await cards.filter({ hasText: b.name }).getByRole("link", { name: "Change box" }).click();
  await expect(page).toHaveURL(new RegExp(`/b/${b.slug}\\?change=true$`));
  await expect(page.getByText("Log in to change your box.")).toHaveCount(0);
  // Signed in, the business page offers the portal instead of "Member login".
  await expect(page.getByRole("link", { name: "Member login" })).toHaveCount(0);
  await expect(page.getByRole("main").getByRole("link", { name: "My Membership" })).toBeVisible();
  const update = page.getByRole("button", { name: "Update" });
  await expect(update).toBeDisabled();
  await expect(page.getByTestId("plan-card").filter({ hasText: "Bean Box" }).getByRole("radio")).toBeChecked();
  await page.getByTestId("plan-card").filter({ hasText: "Espresso Box" }).click();
  await expect(update).toBeEnabled();
  await update.click();
  await expect(page.getByText("The change takes effect next billing cycle. There is no charge today.")).toBeVisible();
  await page.getByRole("button", { name: "Confirm update" }).click();
  await expect(page.getByRole("heading", { name: "Update scheduled" })).toBeVisible();
  await expect(page).toHaveURL(/\/membership\?changed=1$/, { timeout: 10_000 });
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await expect(page.getByTestId("subscription-card").filter({ hasText: b.name })).toContainText("Scheduled change: Espresso Box");

  // Check out at C as the same member: no registration form, the account is shown read-only.
  await page.goto(`/b/${c.slug}`);
  await expect(page.getByRole("main").getByRole("link", { name: "My Membership" })).toBeVisible();
  await page.getByRole("button", { name: "Checkout" }).click();
  await expect(page).toHaveURL(new RegExp(`/b/${c.slug}/membership/checkout$`));
  await expect(page.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveValue(username);
  await expect(page.getByLabel("Username")).not.toBeEditable();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await expect(page.getByText("Already have an account?")).toHaveCount(0);
  const email = page.getByLabel("Email");
  if (await email.isEditable()) await email.fill(`${username}@example.com`);
  await page.getByRole("button", { name: "Continue to Address" }).click();
  await expect(page.getByRole("heading", { name: "Address" })).toBeVisible();
  await page.getByLabel("Full name").fill("Morgan Multi");
  await page.getByLabel("Phone").fill("330-555-0142");
  await page.getByLabel("Street address").fill("7 Cedar Lane");
  await page.getByLabel("City").fill("Akron");
  await page.getByLabel("State").selectOption("OH");
  await page.getByLabel("Zip code").fill("44303");
  await page.getByRole("button", { name: "Continue to Review" }).click();
  await expect(page.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay \$18\.00 now/ }).click();
  await expect(page.getByRole("heading", { name: "Subscription Activated!" })).toBeVisible();
  await expect(page).toHaveURL(/\/membership\?orderId=\d+&success=1$/, { timeout: 10_000 });

  // Back in the portal: three businesses, each with its card, and the order at C in the history.
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await expect(page.getByTestId("subscription-card")).toHaveCount(3);
  await expect(page.getByTestId("subscription-card").filter({ hasText: c.name })).toContainText("Active");
  await page.getByRole("tab", { name: "Order History" }).click();
  await expect(page.getByTestId("order-row").filter({ hasText: c.name })).toHaveCount(1);
  await page.getByRole("tab", { name: "Next Box" }).click();
  await portalShots(page, "portal-three-businesses");
});
