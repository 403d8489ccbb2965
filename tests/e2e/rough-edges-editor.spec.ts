import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { gql, loginAs, screenshots } from "./admin-support.ts";
import { adminToken, connectPayouts, runSuffix } from "./tenant-support.ts";

// The editor's Preview renders the live page's own components from the unsaved draft, and the editor's
// panels have a sticky index (a 'Jump to' select on a phone).

// The business day is March 5th (E2E_CLOCK_START): a cutoff on the 4th shows the live page's cutoff notice.
const CUTOFF_MESSAGE = "The last day to subscribe for this month has passed. The cutoff day is the 4th of each month. Please try again next month.";

async function createBusiness(request: APIRequestContext, token: string, baseURL: string) {
  const slug = `preview-parity-${runSuffix()}`;
  const created = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { ... on CreateBusinessSuccess { data { databaseId } } ... on Error { message } } }`, {
    input: { name: "Parity Orchard", slug },
  });
  const businessId = created.data.createBusiness.data.databaseId as number;
  await connectPayouts(request, token, businessId);
  const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
    input: {
      businessId,
      content: {
        brand: { name: "Parity Orchard" },
        descriptionHtml: "<p>Apples and pears from the hill, picked the week they are boxed.</p>",
        gallery: [1, 2].map((n) => ({ url: new URL(`/demo/green-acres-farm-${n}.svg`, baseURL).href })),
        subscriptionCutoffDay: 4,
        addonLimit: 2,
        addonSectionTitle: "Extras",
        fulfillment: { pickup: true, shipping: true, pickupPoints: ["1 Orchard Road"], shippingText: "Anywhere in the country" },
        faqs: [{ q: "When are boxes ready?", a: "<p>On the first Saturday.</p>" }],
      },
      plans: [
        { name: "Small Orchard Box", description: "Six apples, four pears.", pickupCents: 1800, shippingCents: 2400 },
        { name: "Family Orchard Box", description: "A crate for the week.", pickupCents: 3200, shippingCents: 3900 },
        { name: "Cider Maker's Box", description: "Windfalls by the sack.", pickupCents: 4500 },
      ],
      addons: [
        { name: "Jar of apple butter", description: "Slow-cooked.", amountCents: 650 },
        { name: "Pear chutney", description: "", amountCents: 500 },
      ],
    },
  });
  expect(saved.data.saveBusinessPage.__typename, JSON.stringify(saved)).toBe("SaveBusinessPageSuccess");
  return { slug, businessId };
}

async function deleteBusiness(request: APIRequestContext, token: string, businessId: number) {
  await gql(request, token, `mutation($input: DeleteBusinessInput!) { deleteBusiness(input: $input) { __typename } }`, { input: { businessId } });
}

/** What a visitor reads of the page's plans and add-ons, in order. */
async function catalogue(page: Page) {
  return {
    plans: await page.getByTestId("plan-card").allInnerTexts(),
    addons: await page.getByTestId("addon-card").allInnerTexts(),
    addonsHeading: await page.locator("#addons-heading").innerText(),
  };
}

/** The hero is inside the window and nothing scrolls sideways. */
async function expectHeroInside(page: Page) {
  const hero = page.getByTestId("brand-row").locator("xpath=ancestor::section[1]");
  await expect(hero).toBeVisible();
  const box = (await hero.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
}

async function openPreview(page: Page) {
  const [preview] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: "Preview" }).click()]);
  await preview.waitForLoadState();
  await expect(preview.getByTestId("plan-card").first()).toBeVisible();
  return preview;
}

test("the preview renders the live page's components: same plans, add-ons, cutoff notice and an unclipped hero; unsaved edits show", async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  const token = await adminToken(request);
  const { slug, businessId } = await createBusiness(request, token, baseURL!);
  try {
    await loginAs(page, "admin", "admin1234");
    await page.goto(`/b/${slug}`);
    await expect(page.getByTestId("cutoff-notice")).toHaveText(CUTOFF_MESSAGE);
    const live = await catalogue(page);
    expect(live.plans).toHaveLength(3);
    expect(live.addons).toHaveLength(2);

    await page.goto(`/admin/business/${businessId}/page`);
    await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible({ timeout: 30_000 });
    const preview = await openPreview(page);
    await expect(preview).toHaveURL(new RegExp(`/admin/preview/${slug}$`));
    // (a) One layout: the same plan cards (names, prices, order), add-ons and cutoff notice as the live page.
    expect(await catalogue(preview)).toEqual(live);
    await expect(preview.getByTestId("cutoff-notice")).toHaveText(CUTOFF_MESSAGE);
    await expect(preview.getByRole("heading", { name: "Parity Orchard", level: 1 })).toBeVisible();
    for (const width of [1280, 375]) {
      await preview.setViewportSize({ width, height: 900 });
      await expectHeroInside(preview);
    }
    // The Mobile view lays the page out at a phone's width (its own frame), the hero inside it.
    await preview.setViewportSize({ width: 1280, height: 900 });
    await preview.getByRole("button", { name: "Mobile" }).click();
    await expect(preview.getByTestId("preview-frame")).toHaveAttribute("data-device", "mobile");
    const phone = preview.frameLocator('iframe[title="Mobile preview"]');
    await expect(phone.getByTestId("cutoff-notice")).toHaveText(CUTOFF_MESSAGE);
    await expect(phone.getByTestId("plan-card")).toHaveCount(3);
    const frame = preview.frames().find((f) => f.url().includes("?frame"))!;
    const [clientWidth, scrollWidth] = await frame.evaluate(() => [document.documentElement.clientWidth, document.documentElement.scrollWidth]);
    expect(clientWidth).toBeLessThanOrEqual(390);
    expect(scrollWidth).toBe(clientWidth);
    await screenshots(preview, "rough-edges-preview-mobile");
    await preview.getByRole("button", { name: "Desktop" }).click();
    await screenshots(preview, "rough-edges-preview");

    // (b) Unsaved edits: hide a plan, rename the add-on section, add to the description (the hero's text).
    await page.getByTestId("item-card").filter({ hasText: "Cider Maker's Box" }).getByText("Show on page").click();
    await page.getByLabel("Section title").fill("Pantry extras");
    const description = page.getByRole("group", { name: "Description" }).locator(".ce-paragraph").first();
    await description.click();
    await page.keyboard.press("End");
    await page.keyboard.type(" Now with quinces.");
    // The editor's own live Preview follows the unsaved draft: the brand row, the plans left listed, the add-ons'
    // new title, and the fulfillment choice starting on Pickup (enabled) with one option per enabled mode.
    const inEditor = page.frameLocator('[data-testid="editor-preview"]');
    await expect(inEditor.getByTestId("brand-row")).toContainText("Parity Orchard");
    await expect(inEditor.getByTestId("plan-card")).toHaveCount(2);
    await expect(inEditor.getByTestId("plan-card").nth(1)).toContainText("Family Orchard Box");
    await expect(inEditor.locator("#addons-heading")).toHaveText("Pantry extras");
    await expect(inEditor.getByRole("radiogroup", { name: "Fulfillment" }).getByRole("radio")).toHaveCount(2);
    await expect(inEditor.getByRole("radio", { name: /^Pickup/ })).toBeChecked();
    await screenshots(page, "rough-edges-editor-preview");
    await preview.close();
    const edited = await openPreview(page);
    await expect(edited.getByTestId("plan-card")).toHaveCount(2);
    await expect(edited.getByTestId("plan-card").nth(1)).toContainText("Family Orchard Box");
    await expect(edited.locator("#addons-heading")).toHaveText("Pantry extras");
    await expect(edited.getByTestId("business-description")).toContainText("Now with quinces.");
    // The open preview follows later changes without a new tab.
    await page.getByLabel("Section title").fill("Pantry extras and jams");
    await expect(edited.locator("#addons-heading")).toHaveText("Pantry extras and jams");
    await screenshots(edited, "rough-edges-preview-unsaved");
    await edited.close();
    // Nothing was saved: the live page is as it was.
    await page.goto(`/b/${slug}`);
    await expect(page.getByTestId("plan-card")).toHaveCount(3);
    expect(await catalogue(page)).toEqual(live);
  } finally {
    await deleteBusiness(request, token, businessId);
  }
});

test("the editor's panels have a sticky index marking the panel in view, and a 'Jump to' select on a phone", async ({ page, request, baseURL }) => {
  test.setTimeout(60_000);
  const token = await adminToken(request);
  const { businessId } = await createBusiness(request, token, baseURL!);
  try {
    await loginAs(page, "admin", "admin1234");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/admin/business/${businessId}/page`);
    await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible({ timeout: 30_000 });
    const index = page.getByRole("navigation", { name: "Editor panels" });
    await expect(index).toBeVisible();
    await expect(index.getByRole("link")).toHaveText(["Brand", "Description", "Gallery", "Theme colours", "Footer & Social", "Items", "Add-ons", "Fulfillment", "Tax Settings", "Subscription Settings", "Email", "FAQs"]);
    await expect(index.getByRole("link", { name: "Brand" })).toHaveAttribute("aria-current", "true");
    await expect(page.getByLabel("Jump to")).toBeHidden();

    // A click scrolls its panel into view and marks it; the index stays in view (sticky).
    await index.getByRole("link", { name: "Tax Settings" }).click();
    const tax = page.locator("#panel-tax");
    await expect(tax).toBeInViewport();
    await expect(index.getByRole("link", { name: "Tax Settings" })).toHaveAttribute("aria-current", "true");
    await expect(index.locator('[aria-current="true"]')).toHaveCount(1);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await expect(index).toBeInViewport();
    await expect(index.getByRole("link", { name: "Brand" })).toBeInViewport();

    // Scrolling by hand marks the panel that comes into view.
    await page.mouse.move(800, 450);
    await page.mouse.wheel(0, -100);
    await page.locator("#panel-gallery").evaluate((e) => e.scrollIntoView({ block: "start" }));
    await expect(index.getByRole("link", { name: "Gallery" })).toHaveAttribute("aria-current", "true");
    await expect(index).toBeInViewport();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshots(page, "rough-edges-editor-index");

    // A phone: the index gives way to the 'Jump to' select, which moves to the chosen panel.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(index).toBeHidden();
    const jump = page.getByLabel("Jump to");
    await expect(jump).toBeVisible();
    await jump.selectOption({ label: "FAQs" });
    await expect(page.locator("#panel-faqs")).toBeInViewport();
    await expect(page.getByRole("heading", { name: "FAQs" })).toBeInViewport();
    await expect(jump).toHaveValue("panel-faqs");
    // The select stays at hand below the admin bar, clear of the panel it moved to.
    await expect(jump).toBeInViewport();
    await jump.selectOption({ label: "Items" });
    await expect(page.locator("#panel-items")).toBeInViewport();
    await expect(page.getByRole("heading", { name: "Items", exact: true })).toBeInViewport();
    await page.screenshot({ path: "test-results/screenshots/admin-rough-edges-editor-jump-375.png" });
  } finally {
    await deleteBusiness(request, token, businessId);
  }
});
