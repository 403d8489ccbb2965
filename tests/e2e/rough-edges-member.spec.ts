import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { apiLogin, gql, loginAs } from "./admin-support.ts";
import { login, pinClock } from "./member-support.ts";
import { adminToken, connectPayouts, memberSession, runSuffix } from "./tenant-support.ts";

/**
 * Small fixes on the member's side: each portal card names its own windows and support line; a
 * business's checkout and portal card paint their primary buttons in its theme's primary; an applied coupon shows
 * "applied · −$x" with Remove; the Profile tells "Your name" from "Name on the address" and its state select names
 * the states (DC included). The seeded member (three businesses) is only read; the rest is made through the API.
 */

const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";
const suffix = runSuffix();
const PASSWORD = "rough-pass-1234";
// A light primary: white text would not reach 4.5:1 on it, so the buttons paint black text.
const THEME = { primary: "#facc15", primaryText: "#ffffff" };
let business: { id: number; slug: string; name: string };

async function shots(page: Page, name: string, widths = [375, 1280]) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no horizontal overflow at ${width}px`).toBe(true);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/rough-edges-member-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** "2026-03-14" as the portal writes it: "March 14, 2026". */
const longDate = (iso: string) => new Date(`${iso}T12:00:00Z`).toLocaleDateString("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });

/** "#facc15" as a computed style reads it: "rgb(250, 204, 21)". */
function rgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/** The WCAG contrast of a button's computed text colour on its computed background. */
async function buttonColors(button: Locator) {
  return button.evaluate((el) => {
    const style = getComputedStyle(el);
    const channels = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: string) => {
      const [r, g, b] = channels(c).map((v) => {
        const s = v / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [a, b] = [lum(style.backgroundColor), lum(style.color)];
    return { background: style.backgroundColor, color: style.color, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  });
}

async function expectPrimary(button: Locator, primary: string) {
  await expect(button).toBeVisible();
  // Away from the button: a hovered one is drawn a shade darker.
  await button.page().mouse.move(0, 0);
  const colors = await buttonColors(button);
  expect(colors.background).toBe(rgb(primary));
  expect(colors.contrast).toBeGreaterThanOrEqual(4.5);
  return colors;
}

/** A business of this spec's own with a $41.50 pickup plan (WELCOME10 takes $4.15 off) and the light theme. */
async function createThemedBusiness(request: APIRequestContext, token: string) {
  const name = `Rough Lemon Grove ${suffix}`;
  const created = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on CreateBusinessSuccess { data { databaseId slug } } ... on Error { message } } }`, {
    input: { name, slug: `rough-lemon-${suffix}` },
  });
  expect(created.data.createBusiness.__typename, JSON.stringify(created)).toBe("CreateBusinessSuccess");
  const { databaseId: id, slug } = created.data.createBusiness.data;
  await connectPayouts(request, token, id);
  const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
    input: {
      businessId: id,
      content: { brand: { name }, fulfillment: { pickup: true, pickupAddress: "1 Grove Lane" }, theme: THEME, supportPhone: "(614) 555-0134" },
      plans: [{ name: "Citrus Box", pickupCents: 4150 }],
    },
  });
  expect(saved.data.saveBusinessPage.__typename, JSON.stringify(saved)).toBe("SaveBusinessPageSuccess");
  return { id, slug, name };
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  business = await createThemedBusiness(request, await adminToken(request));
});

test.beforeEach(async ({ page }) => pinClock(page));

test("each portal card names its own windows and phone; the footer points to the cards", async ({ page, request }) => {
  // What the server says of the seeded member's memberships (one per business), to hold the cards to.
  const { token } = await apiLogin(request, "member", "member1234");
  const res = await gql(
    request,
    token,
    `{ viewer { subscriptions(onePerBusiness: true) { status business { name page { supportPhone } } skipWindow { closesOn } changeWindow { closesOn } } } }`,
  );
  type Sub = { status: string; business: { name: string; page: { supportPhone: string } }; skipWindow: { closesOn: string }; changeWindow: { closesOn: string } };
  const subs = (res.data.viewer.subscriptions as Sub[]).filter((s) => s.status !== "INCOMPLETE");
  expect(subs.length).toBeGreaterThanOrEqual(3);
  const current = subs.filter((s) => s.status === "ACTIVE" || s.status === "PAST_DUE");
  // The seeded businesses close changes on different days (the 20th at Green Acres, the 14th at Ember & Oak).
  expect(new Set(current.map((s) => s.changeWindow.closesOn)).size).toBeGreaterThan(1);

  await loginAs(page, "member", "member1234");
  await page.goto("/membership");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  for (const s of subs) {
    const card = page.getByTestId("subscription-card").filter({ has: page.getByRole("heading", { name: s.business.name, exact: true }) });
    const note = card.getByTestId("window-note");
    if (s.status === "ACTIVE" || s.status === "PAST_DUE") {
      await expect(note).toHaveText(
        `Skip window closes ${longDate(s.skipWindow.closesOn)}; change window closes ${longDate(s.changeWindow.closesOn)}. After that, call ${s.business.name} at ${s.business.page.supportPhone} to make changes.`,
      );
    } else {
      await expect(note).toHaveText(`Questions? Call ${s.business.name} at ${s.business.page.supportPhone}.`);
    }
    await expect(note.getByRole("link", { name: s.business.page.supportPhone })).toHaveAttribute("href", `tel:${s.business.page.supportPhone.replace(/[^0-9+]/g, "")}`);
  }
  const footer = page.getByTestId("portal-note");
  await expect(footer).toHaveText("Each membership's dates and phone are on its card. Cancellation is by phone only.");
  await expect(page.getByRole("navigation", { name: "Legal" }).getByRole("link", { name: "Refund Policy" })).toBeVisible();
  await shots(page, "portal-cards");
});

test("the business's checkout and its portal card paint the primary buttons in its theme", async ({ page, request }) => {
  const username = `rough${suffix}`;
  await memberSession(request, await adminToken(request), username, PASSWORD);
  await login(page, `/b/${business.slug}/membership`, username, PASSWORD);
  const theme = (await gql(request, (await apiLogin(request, username, PASSWORD)).token, `query($slug: String!) { business(slug: $slug) { page { theme { primary } } } }`, { slug: business.slug })).data.business.page.theme;
  expect(theme.primary).toBe(THEME.primary);

  await page.goto(`/b/${business.slug}`);
  await expectPrimary(page.getByRole("button", { name: "Checkout" }), theme.primary);
  await page.getByRole("button", { name: "Checkout" }).click();
  await page.getByLabel("Email").fill(`${username}@example.com`);
  const colors = await expectPrimary(page.getByRole("button", { name: "Continue to Address" }), theme.primary);
  expect(colors.color).toBe("rgb(0, 0, 0)");
  await page.getByRole("button", { name: "Continue to Address" }).click();
  await page.getByLabel("Full name").fill("Remy Rough");
  await page.getByLabel("Street address").fill("3 Lemon St");
  await page.getByLabel("State").selectOption("OH");
  await expectPrimary(page.getByRole("button", { name: "Continue to Review" }), theme.primary);
  await page.getByRole("button", { name: "Continue to Review" }).click();
  await expectPrimary(page.getByRole("button", { name: /^Pay \$41\.50 now/ }), theme.primary);
  await page.setViewportSize({ width: 375, height: 900 });
  await shots(page, "checkout-primary", [375]);

});

test("a canceled membership's Restart and a current one's Skip month are in the business's primary", async ({ page, request }) => {
  const { token } = await apiLogin(request, "member", "member1234");
  const res = await gql(request, token, `{ viewer { subscriptions(onePerBusiness: true) { status business { name page { theme { primary } } } } } }`);
  type Sub = { status: string; business: { name: string; page: { theme: { primary: string } } } };
  const subs = res.data.viewer.subscriptions as Sub[];
  const canceled = subs.find((s) => s.status === "CANCELED");
  const active = subs.find((s) => s.status === "ACTIVE");
  expect(canceled && active).toBeTruthy();
  await loginAs(page, "member", "member1234");
  await page.goto("/membership");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = (name: string) => page.getByTestId("subscription-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
  await expectPrimary(card(canceled!.business.name).getByRole("button", { name: "Restart subscription" }), canceled!.business.page.theme.primary);
  // Its confirmation opens in a portal, and its Restart keeps the card's colour. Cancel restarts nothing.
  await card(canceled!.business.name).getByRole("button", { name: "Restart subscription" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm.getByText(/today/i).first()).toBeVisible();
  await expectPrimary(confirm.getByRole("button", { name: "Restart", exact: true }), canceled!.business.page.theme.primary);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();

  // The Skip dialog opens in a portal: its Skip month is still the card's business colour. Nothing is skipped.
  const skip = card(active!.business.name).getByRole("button", { name: "Skip a month" });
  if (await skip.isEnabled()) {
    await skip.click();
    const dialog = page.getByRole("alertdialog");
    await expectPrimary(dialog.getByRole("button", { name: "Skip month" }), active!.business.page.theme.primary);
    await dialog.getByRole("button", { name: "Keep my box" }).click();
  }
  await page.setViewportSize({ width: 375, height: 900 });
  await card(canceled!.business.name).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rough-edges-member-portal-primary-375.png` });
});

test("an applied coupon reads 'WELCOME10 applied · −$4.15' with Remove, which prices the order again without it", async ({ page }) => {
  await login(page, `/b/${business.slug}/membership`, `rough${suffix}`, PASSWORD);
  await page.goto(`/b/${business.slug}`);
  await page.getByRole("button", { name: "Checkout" }).click();
  await page.getByLabel("Email").fill(`rough${suffix}@example.com`);
  await page.getByRole("button", { name: "Continue to Address" }).click();
  await page.getByLabel("Full name").fill("Remy Rough");
  await page.getByLabel("Street address").fill("3 Lemon St");
  await page.getByRole("button", { name: "Continue to Review" }).click();
  await expect(page.getByRole("heading", { name: "Review & Payment" })).toBeVisible();

  const field = page.getByLabel("Coupon code");
  await expect(field).toHaveAttribute("placeholder", "Discount code");
  await field.fill("welcome10");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  const applied = page.getByTestId("coupon-applied");
  await expect(applied).toContainText("WELCOME10 applied · −$4.15");
  await expect(page.getByTestId("order-summary")).toContainText("Discount (WELCOME10)");
  await expect(page.getByRole("button", { name: /^Pay \$37\.35 now/ })).toBeVisible();
  // The review box keeps spec §2's rows.
  const review = page.getByRole("region", { name: "Review" });
  await expect(review.getByText("Selected item")).toBeVisible();
  await expect(review.getByText("Coupon code")).toBeVisible();
  await page.setViewportSize({ width: 375, height: 900 });
  await applied.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/rough-edges-member-coupon-applied-375.png` });
  await page.setViewportSize({ width: 1280, height: 900 });

  await applied.getByRole("button", { name: "Remove" }).click();
  await expect(applied).toBeHidden();
  await expect(page.getByLabel("Coupon code")).toHaveValue("");
  await expect(page.getByTestId("order-summary")).not.toContainText("Discount");
  await expect(page.getByRole("button", { name: /^Pay \$41\.50 now/ })).toBeVisible();
  await expect(review.getByText("Coupon code")).toHaveCount(0);
});

test("the Profile tells 'Your name' from 'Name on the address', and its state select names the states, DC included", async ({ page, request }) => {
  const username = `roughp${suffix}`;
  await memberSession(request, await adminToken(request), username, PASSWORD);
  await login(page, "/membership", username, PASSWORD);
  await page.getByRole("tab", { name: "Profile" }).click();
  await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0);
  await page.getByLabel("Your name").fill("Pat Rough");
  // Empty, the name on the address starts as the member's name.
  await expect(page.getByLabel("Name on the address")).toHaveValue("Pat Rough");
  const state = page.getByLabel("State");
  await expect(state.locator("option", { hasText: "DC — District of Columbia" })).toHaveAttribute("value", "DC");
  await expect(state.locator("option", { hasText: "OH — Ohio" })).toHaveAttribute("value", "OH");
  await expect(state.locator("option")).toHaveCount(52);
  await page.getByLabel("Name on the address").fill("Pat & Sam Rough");
  await page.getByLabel("Street address").fill("1600 Penn Ave");
  await page.getByLabel("City").fill("Washington");
  await state.selectOption("DC");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await shots(page, "profile");

  // Both names are stored apart, as before (REST's profile shape).
  const { token } = await apiLogin(request, username, PASSWORD);
  const profile = await (await request.get("/api/my/profile/basic", { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(profile).toMatchObject({ name: "Pat Rough", address_json: { fullName: "Pat & Sam Rough", state: "DC" } });
});
