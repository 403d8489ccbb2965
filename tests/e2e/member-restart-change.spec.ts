import fs from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiLogin, gql } from "./admin-support.ts";
import { fillCard, login, pinClock } from "./member-support.ts";
import { adminToken, checkout, connectPayouts, memberSession, runSuffix, type OwnBusiness } from "./tenant-support.ts";

/**
 * The amounts a member confirms are the server's: the restart dialog names today's charge and the next one (the
 * server's quote) under the §5 sentence; a change of box names the first month it is charged (past a skipped month) with
 * its new monthly price, on the card and in the dialog; the pre-charge notice's links open a membership's Skip
 * dialog or change flow. The server runs on the fixed demo clock (March 5th, 2026). The businesses and members are
 * the spec's own (the demo member's memberships stay as other specs expect), except the demo member sofia's
 * canceled Green Acres membership, which no other spec touches.
 */

const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";
const suffix = runSuffix();
const PASSWORD = "restart-pass-1234";
const username = `rc${suffix}`;
let memberToken: string;
/** Two plans and 5.75 % tax: the change of box. */
let quince: OwnBusiness;
/** One plan, no tax: a membership canceled in a month it paid for (restart charges nothing today). */
let rowan: OwnBusiness;
/** One plan: the portal links. */
let sorrel: OwnBusiness;

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** A business with the given plans (pickup only, default windows), with tax when given. */
async function business(request: APIRequestContext, token: string, name: string, plans: { name: string; pickupCents: number }[], taxPercent?: number): Promise<OwnBusiness> {
  const created = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on CreateBusinessSuccess { data { databaseId slug } } ... on Error { message } } }`, {
    input: { name: `${name} ${suffix}`, slug: `${name}-${suffix}`.toLowerCase().replace(/[^a-z0-9]+/g, "-") },
  });
  expect(created.data.createBusiness.__typename, JSON.stringify(created)).toBe("CreateBusinessSuccess");
  const { databaseId: id, slug } = created.data.createBusiness.data as { databaseId: number; slug: string };
  await connectPayouts(request, token, id);
  const fullName = `${name} ${suffix}`;
  const content = { brand: { name: fullName }, fulfillment: { pickup: true, pickupAddress: "1 Orchard Road" }, ...(taxPercent ? { tax: { enabled: true, ratePercent: taxPercent } } : {}) };
  const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, { input: { businessId: id, content, plans } });
  expect(saved.data.saveBusinessPage.__typename, JSON.stringify(saved)).toBe("SaveBusinessPageSuccess");
  const page = await gql(request, token, `query($slug: String!) { business(slug: $slug) { plans(first: 1) { edges { node { ref } } } } }`, { slug });
  return { id, slug, name: fullName, planRef: page.data.business.plans.edges[0].node.ref };
}

/** The member's memberships: global id and number, by business slug. */
async function memberships(request: APIRequestContext, token: string): Promise<Map<string, { id: string; databaseId: number }>> {
  const mine = await gql(request, token, `{ viewer { subscriptions { id databaseId business { slug } } } }`);
  return new Map((mine.data.viewer.subscriptions as { id: string; databaseId: number; business: { slug: string } }[]).map((s) => [s.business.slug, { id: s.id, databaseId: s.databaseId }]));
}

/**
 * Screenshots at phone and desktop widths (under test-results, and E2E_TMP_SHOTS when set): the whole page from
 * its top, or with a dialog open what the screen shows (a full-page shot paints a scrolled page's sticky header mid-page).
 */
async function shots(page: Page, name: string, { dialog = false } = {}) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: dialog ? 800 : 900 });
    if (!dialog) await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    // No horizontal overflow at either width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const paths = [`${SCREENSHOT_DIR}/${name}-${width}.png`, ...(process.env.E2E_TMP_SHOTS ? [`${process.env.E2E_TMP_SHOTS}/${name}-${width}.png`] : [])];
    for (const path of paths) {
      fs.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await page.screenshot({ path, fullPage: !dialog });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.beforeAll(async ({ request }) => {
  const admin = await adminToken(request);
  quince = await business(request, admin, "Quince Farm", [
    { name: "Harvest Box", pickupCents: 2200 },
    { name: "Orchard Box", pickupCents: 2600 },
  ], 5.75);
  rowan = await business(request, admin, "Rowan Roasters", [{ name: "Bean Box", pickupCents: 2400 }]);
  sorrel = await business(request, admin, "Sorrel Bakery", [{ name: "Bread Box", pickupCents: 1800 }]);
  memberToken = await memberSession(request, admin, username, PASSWORD);
  for (const b of [quince, rowan, sorrel]) await checkout(request, memberToken, b, `${username}@example.com`);
  // Rowan's membership is canceled by the admin in March, the month it paid for.
  const rowanMembership = (await memberships(request, memberToken)).get(rowan.slug)!;
  const canceled = await gql(request, admin, `mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { __typename ... on Error { message } } }`, { input: { subscriptionId: rowanMembership.id } });
  expect(canceled.data.cancelSubscription.__typename, JSON.stringify(canceled)).toBe("CancelSubscriptionSuccess");
  // Quince's April (the next month billed) is skipped: a change is charged from May.
  const skipped = await gql(request, memberToken, `mutation($input: SkipMonthInput!) { skipMonth(input: $input) { __typename ... on Error { message } } }`, { input: { subscriptionId: (await memberships(request, memberToken)).get(quince.slug)!.id } });
  expect(skipped.data.skipMonth.__typename, JSON.stringify(skipped)).toBe("SkipMonthSuccess");
});

test.beforeEach(async ({ page }) => pinClock(page));

test("restarting a canceled membership names today's charge and the next one before charging", async ({ page, request }) => {
  // Sofia's Green Acres membership was canceled last month and paid through January: a restart pays for March.
  const sofia = await apiLogin(request, "sofia", "member1234");
  const green = (await memberships(request, sofia.token)).get("green-acres-farm")!;
  const quoted = await gql(request, sofia.token, `query($id: ID!) { restartQuote(subscriptionId: $id) { __typename ... on RestartQuoteSuccess { data { todayCents nextChargeCents nextChargeDate period } } ... on Error { message } } }`, { id: green.id });
  const quote = quoted.data.restartQuote.data as { todayCents: number; nextChargeCents: number; nextChargeDate: string; period: string };
  expect(quote, JSON.stringify(quoted)).toMatchObject({ period: "2026-03", nextChargeDate: "2026-04-01" });
  expect(quote.todayCents).toBeGreaterThan(0);

  await login(page, "/membership", "sofia", "member1234");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = page.getByTestId("subscription-card").filter({ hasText: "Green Acres" });
  await card.getByRole("button", { name: "Restart subscription" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "Restart subscription" })).toBeVisible();
  // Spec §5's sentence, word for word, then the server's amounts to the cent and the month's breakdown.
  await expect(dialog.getByText("Restart this subscription? You will be charged for the current period now.", { exact: true })).toBeVisible();
  await expect(dialog.getByTestId("restart-amounts")).toHaveText(`${dollars(quote.todayCents)} today, then ${dollars(quote.nextChargeCents)} on April 1.`);
  const breakdown = dialog.getByTestId("price-breakdown");
  await expect(breakdown.getByRole("row", { name: /^Each month/ })).toContainText(dollars(quote.nextChargeCents));
  await expect(breakdown.getByRole("row", { name: /^Tax \(5\.75%\)/ })).toBeVisible();
  // The focus is in the dialog (on its first button), not left on the page behind it.
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await shots(page, "restart-dialog", { dialog: true });

  await dialog.getByRole("button", { name: "Restart", exact: true }).click();
  const cardForm = dialog.getByLabel("Card number");
  if (await cardForm.isVisible({ timeout: 3000 }).catch(() => false)) {
    await expect(dialog.getByRole("button", { name: `Pay ${dollars(quote.todayCents)} and restart` })).toBeVisible();
    await fillCard(page, "4242 4242 4242 4242");
    await dialog.getByRole("button", { name: /and restart$/ }).click();
  }
  const confirmation = page.getByTestId("restart-confirmation");
  await expect(confirmation).toContainText(`You were charged ${dollars(quote.todayCents)} for the current period.`, { timeout: 10_000 });
  await expect(confirmation).toContainText("Next billing: April 1, 2026");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(card.getByText("Active", { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(card.getByRole("button", { name: "Restart subscription" })).toHaveCount(0);
});

test("a restart whose amount changed meanwhile is refused, quoted again and confirmed at the new amount", async ({ page }) => {
  await login(page, "/membership", username, PASSWORD);
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = page.getByTestId("subscription-card").filter({ hasText: rowan.name });
  await card.getByRole("button", { name: "Restart subscription" }).click();
  const dialog = page.getByRole("alertdialog");
  // Canceled in March, which it paid for: nothing today, the next charge on April 1st.
  await expect(dialog.getByTestId("restart-amounts")).toHaveText("Nothing today (March is already paid), then $24.00 on April 1.");
  await expect(dialog.getByTestId("price-breakdown").getByRole("row", { name: /^Each month/ })).toContainText("$24.00");

  // The first confirmation carries another amount (as if the month had turned since the dialog opened): the server
  // refuses it (price_mismatch) and charges nothing; the dialog says so and shows the amounts asked again.
  let tampered = false;
  await page.route("**/graphql", async (route) => {
    const body = route.request().postDataJSON() as { query?: string; variables?: { input?: Record<string, unknown> } } | null;
    if (!tampered && body?.query?.includes("RestartDialogMutation") && body.variables?.input) {
      tampered = true;
      body.variables.input.expectedTotalCents = 2400;
      await route.continue({ postData: JSON.stringify(body) });
      return;
    }
    await route.continue();
  });
  await dialog.getByRole("button", { name: "Restart", exact: true }).click();
  await expect(dialog.getByTestId("restart-amount-changed")).toHaveText("The amount of your restart has changed. Please review it and confirm again.");
  await expect(dialog.getByTestId("restart-amounts")).toHaveText("Nothing today (March is already paid), then $24.00 on April 1.");
  await expect(card.getByText("Canceled", { exact: true })).toBeVisible();
  expect(tampered).toBe(true);
  await shots(page, "restart-amount-changed", { dialog: true });

  await dialog.getByRole("button", { name: "Restart", exact: true }).click();
  const confirmation = page.getByTestId("restart-confirmation");
  await expect(confirmation).toContainText("The current period was already paid, so nothing was charged today.", { timeout: 10_000 });
  await expect(confirmation).toContainText("Next billing: April 1, 2026");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(card.getByText("Active", { exact: true })).toBeVisible({ timeout: 10_000 });
});

test("with the next month skipped, a change of box names the month after it with its new monthly price", async ({ page }) => {
  await login(page, `/b/${quince.slug}/membership`, username, PASSWORD);
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = page.getByTestId("subscription-card").filter({ hasText: quince.name });
  await expect(card.getByTestId("skipped-month")).toHaveText("Skipped: April 2026 · payments resume May 1st");
  await card.getByRole("link", { name: "Change box" }).click();
  await expect(page).toHaveURL(new RegExp(`/b/${quince.slug}\\?change=true$`));
  await page.getByTestId("plan-card").filter({ hasText: "Orchard Box" }).click();
  await page.getByRole("button", { name: "Update" }).click();

  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByText("The change takes effect next billing cycle. There is no charge today.")).toBeVisible();
  const quoteLine = dialog.getByTestId("change-quote");
  await expect(quoteLine).toHaveText(/^New monthly price: \$27\.\d{2} \/ month \(incl\. \$1\.\d{2} tax at 5\.75%\), from May 2026\.$/);
  const monthly = /New monthly price: (\$\d+\.\d{2})/.exec((await quoteLine.textContent()) ?? "")![1];
  const breakdown = dialog.getByTestId("price-breakdown");
  await expect(breakdown.getByRole("row", { name: /^Orchard Box/ })).toContainText("$26.00");
  await expect(breakdown.getByRole("row", { name: /^Tax \(5\.75%\)/ })).toBeVisible();
  await expect(breakdown.getByRole("row", { name: /^Monthly from May 2026/ })).toContainText(monthly);
  await shots(page, "change-confirm-dialog", { dialog: true });

  await dialog.getByRole("button", { name: "Confirm update" }).click();
  await expect(page.getByRole("heading", { name: "Update scheduled" })).toBeVisible();
  await expect(page).toHaveURL(/\/membership\?changed=1$/, { timeout: 10_000 });
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const pending = card.getByTestId("pending-change");
  await expect(pending.getByText(/^Scheduled change: /)).toHaveText("Scheduled change: Orchard Box, Pickup (1 Orchard Road) from May 2026");
  await expect(pending.getByTestId("pending-change-price")).toHaveText(`New monthly price: ${monthly} / month`);
  await shots(page, "card-pending-change");
});

test("the pre-charge notice's links open that membership's Skip dialog or its change, after login", async ({ page, request }) => {
  const mine = await memberships(request, memberToken);
  const sorrelId = mine.get(sorrel.slug)!.databaseId;

  // Signed out: the link shows the login, and after it that membership's Skip dialog on the Subscriptions tab.
  // (The login helper waits for the portal's heading, which the open dialog hides from the accessibility tree.)
  await page.goto(`/membership?tab=subscriptions&membership=${sorrelId}&open=skip`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "Skip April?" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Subscriptions", includeHidden: true }).first()).toHaveAttribute("aria-selected", "true");
  await shots(page, "deep-link-skip-dialog", { dialog: true });
  await expect(dialog).toContainText(`Your ${sorrel.name} box for April 2026 will be skipped`);
  // Taken once: the URL drops the request, so a reload does not open the dialog again.
  await expect(page).toHaveURL(/\/membership\?tab=subscriptions$/);
  await dialog.getByRole("button", { name: "Keep my box" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByTestId("subscription-card").first()).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // Through the login's redirect (`r`, as the admin guard and the checkout send it): the query it carries is kept.
  await page.evaluate(() => localStorage.clear());
  await page.goto(`/membership?r=${encodeURIComponent(`/membership?tab=subscriptions&membership=${sorrelId}&open=skip`)}`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(dialog.getByRole("heading", { name: "Skip April?" })).toBeVisible();
  await expect(page).toHaveURL(/\/membership\?tab=subscriptions$/);
  await dialog.getByRole("button", { name: "Keep my box" }).click();
  await expect(dialog).toBeHidden();

  // An unknown membership: the portal as usual, no dialog.
  await page.goto(`/membership?tab=subscriptions&membership=987654321&open=skip`);
  await expect(page.getByTestId("subscription-card").filter({ hasText: sorrel.name })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // A membership whose skip is not allowed (Quince's April is already skipped): its card as usual, with its reason.
  const quinceCard = page.getByTestId("subscription-card").filter({ hasText: quince.name });
  await page.goto(`/membership?tab=subscriptions&membership=${mine.get(quince.slug)!.databaseId}&open=skip`);
  await expect(quinceCard.getByTestId("skipped-month")).toBeVisible();
  await expect(quinceCard.getByRole("button", { name: "Skip a month" })).toBeDisabled();
  await expect(dialog).toHaveCount(0);

  // open=change goes where that card's "Change box" goes: its business page in change mode.
  await page.goto(`/membership?tab=subscriptions&membership=${sorrelId}&open=change`);
  await expect(page).toHaveURL(new RegExp(`/b/${sorrel.slug}\\?change=true$`));
  await expect(page.getByRole("button", { name: "Update" })).toBeVisible();
});
