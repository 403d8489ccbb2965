import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { gql, loginAs } from "./admin-support.ts";
import { login, pinClock } from "./member-support.ts";
import { adminToken, connectPayouts, memberSession, runSuffix } from "./tenant-support.ts";

/**
 * Boxes follow the member. A member changes the delivery address of a delivery membership on its card (the
 * area with it), and the business's packing list and slips for the month the portal names show the new address; a
 * Profile address change asks "Also send my boxes here?" and moves only the ticked membership. The businesses and
 * members are made through the API, so the seeded demo data other specs read stays as seeded.
 */

const suffix = runSuffix();
const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";
const PASSWORD = "address-pass-1234";
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const AREAS = ["North Hills", "River District"];
/** Where each member's boxes go at checkout (and their profile address), under their own name. */
const START = { fullName: "", phone: "330-555-0161", street: "12 Elm St", apt: "", city: "Akron", state: "OH", zip: "44303", country: "US" };

interface Business {
  id: number;
  slug: string;
  name: string;
  planRef: string;
}

let farm: Business; // shipping and delivery (two areas)
let roaster: Business; // shipping only

async function ok(request: APIRequestContext, token: string, field: string, query: string, variables: Record<string, unknown>) {
  const body = await gql(request, token, query, variables);
  expect(body.data?.[field]?.__typename, `${field}: ${JSON.stringify(body)}`).toMatch(/Success$/);
  return body.data[field].data;
}

async function business(request: APIRequestContext, token: string, name: string, fulfillment: Record<string, unknown>, plan: Record<string, unknown>): Promise<Business> {
  name = `${name} ${suffix}`;
  const created = await ok(request, token, "createBusiness", `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on CreateBusinessSuccess { data { databaseId slug } } ... on Error { message } } }`, {
    input: { name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, "-") },
  });
  await ok(request, token, "saveBusinessPage", `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on SaveBusinessPageSuccess { data { __typename } } ... on Error { message } } }`, {
    input: { businessId: created.databaseId, content: { brand: { name }, fulfillment }, plans: [plan] },
  });
  await connectPayouts(request, token, created.databaseId);
  const page = await gql(request, token, `query($slug: String!) { business(slug: $slug) { plans(first: 1) { edges { node { ref } } } } }`, { slug: created.slug });
  return { id: created.databaseId, slug: created.slug, name, planRef: page.data.business.plans.edges[0].node.ref };
}

/** Pays the first month at `b` in `mode` (the sandbox's good card), to `address`. */
async function subscribe(request: APIRequestContext, token: string, b: Business, email: string, address: typeof START, mode: "SHIPPING" | "DELIVERY", fulfillmentPoint?: string) {
  const started = await ok(request, token, "startCheckout", `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId } } ... on Error { message } } }`, {
    input: { selection: { businessSlug: b.slug, planRef: b.planRef, mode, fulfillmentPoint }, email, address, idempotencyKey: `e2e-address-${b.slug}-${email}` },
  });
  await ok(request, token, "confirmSandboxPayment", `mutation($secret: String!, $card: SandboxCardInput!) { confirmSandboxPayment(clientSecret: $secret, card: $card) { __typename ... on ConfirmSandboxPaymentSuccess { data { status } } ... on Error { message } } }`, {
    secret: started.clientSecret,
    card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
  });
  await ok(request, token, "completeCheckout", `mutation($id: String!) { completeCheckout(paymentIntentId: $id) { __typename ... on CompleteCheckoutSuccess { data { chargedCents } } ... on Error { message } } }`, {
    id: started.paymentIntentId,
  });
}

let movers = 0;

/**
 * A new member (each test its own) with a delivery membership at the farm (first area) and a shipping one at the
 * roaster, both to START under the member's name, as is their profile address.
 */
async function mover(request: APIRequestContext) {
  const n = ++movers;
  const username = `mover${n}x${suffix}`;
  const name = `${["Avery", "Blake", "Casey", "Devon"][(n - 1) % 4]} Mover ${n}`;
  const address = { ...START, fullName: name };
  const token = await memberSession(request, await adminToken(request), username, PASSWORD);
  const email = `${username}@example.com`;
  await ok(request, token, "updateProfile", `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename ... on UpdateProfileSuccess { data { id } } ... on Error { message } } }`, {
    input: { name, email, phone: START.phone, address },
  });
  await subscribe(request, token, farm, email, address, "DELIVERY", AREAS[0]);
  await subscribe(request, token, roaster, email, address, "SHIPPING");
  return { username, email, name };
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const admin = await adminToken(request);
  farm = await business(request, admin, "Fern Valley Farm", { pickup: false, shipping: true, delivery: true, deliveryAreas: AREAS }, { name: "Valley Box", shippingCents: 3200, deliveryCents: 2800 });
  roaster = await business(request, admin, "Willow Roasters", { pickup: false, shipping: true, delivery: false }, { name: "Bean Box", shippingCents: 2200 });
});

test.beforeEach(async ({ page }) => pinClock(page));

const cardOf = (page: Page, b: Business) => page.getByTestId("subscription-card").filter({ hasText: b.name });
const addressOf = (card: Locator) => card.getByRole("region", { name: "Delivery address" });

/** No serious or critical axe finding on the page as it stands (an open dialog included). */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/**
 * Screenshots at phone and desktop widths: the whole page, or (an open dialog) what the screen shows, the dialog
 * scrolled to `scrollTo` when given.
 */
async function shot(page: Page, name: string, opts: { fullPage?: boolean; scrollTo?: Locator } = {}) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    if (opts.scrollTo) await opts.scrollTo.scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: opts.fullPage ?? true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** No horizontal scrolling at a phone's width. */
async function fitsPhone(page: Page) {
  await page.setViewportSize({ width: 375, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a member sends a delivery membership's boxes to a new address; the packing list and slip show it", async ({ page, browser, request }) => {
  const first = await mover(request);
  await login(page, "/membership", first.username, PASSWORD);
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = cardOf(page, farm);
  const section = addressOf(card);
  await expect(section).toContainText(first.name);
  await expect(section).toContainText("12 Elm St");
  await expect(section).toContainText("Akron, OH 44303");
  await expect(section.getByTestId("membership-point")).toHaveText("Delivery area: North Hills");
  // The delivery area is said once, in the address section.
  await expect(card.getByTestId("membership-point")).toHaveCount(1);
  await expect(addressOf(cardOf(page, roaster))).toContainText("12 Elm St");
  await fitsPhone(page);
  await shot(page, "address-card");

  await section.getByRole("button", { name: "Change address" }).click();
  const dialog = page.getByRole("dialog", { name: "Change delivery address" });
  await expect(dialog).toBeVisible();
  // Prefilled with the address on file, the current area chosen.
  await expect(dialog.getByLabel("Name on the address")).toHaveValue(first.name);
  await expect(dialog.getByLabel("Street address")).toHaveValue("12 Elm St");
  await expect(dialog.getByLabel("State")).toHaveValue("OH");
  await expect(dialog.getByRole("radiogroup", { name: "Choose a delivery area" }).getByRole("radio", { name: "North Hills" })).toBeChecked();
  // Cancel keeps the address; the next opening starts again from the address on file.
  await dialog.getByLabel("Street address").fill("1 Wrong Way");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(section).toContainText("12 Elm St");
  await section.getByRole("button", { name: "Change address" }).click();
  await expect(dialog.getByLabel("Street address")).toHaveValue("12 Elm St");
  await dialog.getByLabel("Street address").fill("77 Harbor Rd");
  await dialog.getByLabel("Apt, suite, unit (optional)").fill("Unit 3");
  await dialog.getByLabel("City").fill("Kent");
  await dialog.getByLabel("Zip code").fill("44240");
  await dialog.getByLabel("Delivery instructions (optional)").fill("Leave at the back door");
  await dialog.getByRole("radio", { name: "River District" }).check();
  await expectAccessible(page);
  await shot(page, "address-dialog", { fullPage: false });
  await shot(page, "address-dialog-end", { fullPage: false, scrollTo: dialog.getByRole("radiogroup", { name: "Choose a delivery area" }) });

  // The server refuses an address without a street: its words in the dialog, nothing typed is lost.
  await dialog.getByLabel("Street address").fill("");
  await dialog.getByRole("button", { name: "Save address" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Please enter the street, city and zip code the box goes to.");
  await expect(dialog.getByLabel("Street address")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("City")).toHaveValue("Kent");
  await expect(dialog.getByLabel("Apt, suite, unit (optional)")).toHaveValue("Unit 3");
  await expect(dialog.getByRole("radio", { name: "River District" })).toBeChecked();
  await shot(page, "address-dialog-error", { fullPage: false, scrollTo: dialog.getByRole("alert") });

  await dialog.getByLabel("Street address").fill("77 Harbor Rd");
  await dialog.getByRole("button", { name: "Save address" }).click();
  await expect(dialog).toBeHidden();
  const status = section.getByRole("status");
  await expect(status).toHaveText(/^Your boxes go to the new address from \w+ \d{4}\.$/);
  const [, monthName, year] = /from (\w+) (\d{4})\./.exec((await status.textContent()) ?? "")!;
  const month = `${year}-${String(MONTHS.indexOf(monthName) + 1).padStart(2, "0")}`;
  // March 5: the business's March box was ready on the 1st, so its next box, April's (not yet frozen), is the
  // first one at the new address.
  await expect(card.getByText("Next box: April 1, 2026")).toBeVisible();
  expect(month).toBe("2026-04");
  await expect(section).toContainText("77 Harbor Rd, Unit 3");
  await expect(section).toContainText("Kent, OH 44240");
  await expect(section).toContainText("Instructions: Leave at the back door");
  await expect(section.getByTestId("membership-point")).toHaveText("Delivery area: River District");
  await expect(section).not.toContainText("12 Elm St");
  // The other membership keeps its address.
  await expect(addressOf(cardOf(page, roaster))).toContainText("12 Elm St");
  await fitsPhone(page);
  await shot(page, "address-card-changed");

  // The business's Fulfilment screen for that month: the box goes to the new address in the new area.
  const context = await browser.newContext();
  const owner = await context.newPage();
  await loginAs(owner, "admin", "admin1234");
  await owner.goto(`/admin/business/${farm.id}/fulfilment/${month}`);
  await expect(owner.getByRole("heading", { name: "Fulfilment", level: 1 })).toBeVisible();
  await expect(owner.getByText(`${farm.name} · ${monthName} ${year}`)).toBeVisible();
  const area = owner.locator(".packing-group").filter({ has: owner.getByRole("heading", { name: /^Delivery area: River District \(\d+\)$/ }) });
  const row = area.getByTestId("packing-row").filter({ hasText: first.email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("77 Harbor Rd");
  await expect(row).not.toContainText("12 Elm St");
  await owner.getByRole("button", { name: "Packing slips" }).click();
  await owner.emulateMedia({ media: "print" });
  const slip = owner.getByTestId("packing-slip").filter({ hasText: first.name });
  await expect(slip).toHaveCount(1);
  await expect(slip).toContainText("77 Harbor Rd, Unit 3");
  await expect(slip).toContainText("Delivery: River District");
  await expect(slip).toContainText("Kent, OH 44240");
  await expect(slip).toContainText("Instructions: Leave at the back door");
  await expect(slip).not.toContainText("12 Elm St");
  await context.close();
});

test("a Profile address change asks which memberships' boxes go there too, and moves only the ticked one", async ({ page, request }) => {
  const second = await mover(request);
  await login(page, "/membership", second.username, PASSWORD);
  await page.getByRole("tab", { name: "Profile" }).click();
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Save profile" }) });
  await expect(form.getByLabel("Street address")).toHaveValue("12 Elm St");
  await form.getByLabel("Street address").fill("5 Lantern Way");
  await form.getByLabel("City").fill("Stow");
  await form.getByLabel("Zip code").fill("44224");
  await form.getByRole("button", { name: "Save profile" }).click();

  const prompt = page.getByRole("dialog", { name: "Also send my boxes here?" });
  await expect(prompt).toBeVisible();
  // Cancel saves nothing; saving again asks again.
  await prompt.getByRole("button", { name: "Cancel" }).click();
  await expect(prompt).toBeHidden();
  await expect(form.getByRole("status")).toHaveCount(0);
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText("5 Lantern Way");
  const farmChoice = prompt.getByRole("checkbox", { name: new RegExp(`^${farm.name} · Valley Box · Delivery`) });
  const roasterChoice = prompt.getByRole("checkbox", { name: new RegExp(`^${roaster.name} · Bean Box · Shipping`) });
  await expect(prompt.getByRole("checkbox")).toHaveCount(2);
  await expect(farmChoice).not.toBeChecked();
  await expect(roasterChoice).not.toBeChecked();
  await expect(prompt.getByTestId("move-boxes-choice").filter({ hasText: roaster.name })).toContainText(`Now: ${second.name}, 12 Elm St, Akron, OH 44303`);
  await roasterChoice.check();
  await expectAccessible(page);
  await shot(page, "address-profile-prompt", { fullPage: false });
  await prompt.getByRole("button", { name: "Save profile" }).click();
  await expect(prompt).toBeHidden();
  await expect(form.getByRole("status")).toHaveText(`Profile saved. Boxes now going to the new address: ${roaster.name} · Bean Box · Shipping.`);
  await shot(page, "address-profile-saved");

  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await expect(addressOf(cardOf(page, roaster))).toContainText("5 Lantern Way");
  await expect(addressOf(cardOf(page, roaster))).toContainText("Stow, OH 44224");
  await expect(addressOf(cardOf(page, farm))).toContainText("12 Elm St");
  await expect(addressOf(cardOf(page, farm))).not.toContainText("5 Lantern Way");

  // Asked again, nothing ticked: the profile is saved and no membership moves.
  await page.getByRole("tab", { name: "Profile" }).click();
  await form.getByLabel("Street address").fill("6 Lantern Way");
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(prompt.getByRole("checkbox", { checked: true })).toHaveCount(0);
  await prompt.getByRole("button", { name: "Save profile" }).click();
  await expect(form.getByRole("status")).toHaveText("Profile saved.");
  // The address is saved: saving again without a change asks nothing.
  await form.getByRole("button", { name: "Save profile" }).click();
  await expect(form.getByRole("status")).toHaveText("Profile saved.");
  await expect(prompt).toHaveCount(0);
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await expect(addressOf(cardOf(page, roaster))).toContainText("5 Lantern Way");
  await expect(addressOf(cardOf(page, farm))).toContainText("12 Elm St");
});
