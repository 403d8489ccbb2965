import { expect, test, type Page } from "@playwright/test";

// The owner test uses the business the first test creates.
test.describe.configure({ mode: "serial" });
import { gql, loginAs, screenshots } from "./admin-support.ts";

async function typeRichText(page: Page, label: string, text: string) {
  const editor = page.getByRole("group", { name: label });
  await expect(editor.locator(".ce-paragraph").first()).toBeVisible();
  await editor.locator(".ce-paragraph").first().click();
  await page.keyboard.type(text);
}

test("admin creates a business with an owner, edits its page, previews it, and the public page shows it", async ({ page, context }) => {
  test.setTimeout(90_000);
  const session = await loginAs(page, "admin", "admin1234");

  // A new user to own the business.
  await page.goto("/admin/users");
  await page.getByLabel("Username").fill("sunnyowner");
  await page.getByLabel("Password").fill("sunny12345");
  await page.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByRole("cell", { name: "sunnyowner", exact: true })).toBeVisible();
  await screenshots(page, "users");

  // Create the business: slug preview, owner attachment.
  await page.goto("/admin/businesses");
  await page.getByLabel("Name").fill("Sunny Side Farm");
  await expect(page.getByTestId("slug-preview")).toContainText("sunny-side-farm");
  await page.getByLabel("Subdomain (optional)").fill("  Sunny  Side!! ");
  await expect(page.getByTestId("slug-preview")).toContainText("sunny-side");
  await page.getByRole("textbox", { name: "Search users" }).fill("sunnyown");
  await page.getByRole("button", { name: /^sunnyowner/ }).click();
  await page.getByLabel("Role for the chosen user").selectOption("OWNER");
  await page.getByRole("button", { name: "Attach", exact: true }).click();
  await expect(page.getByLabel("Role of sunnyowner")).toHaveValue("OWNER");
  await page.getByRole("button", { name: "Create Business" }).click();
  await expect(page.getByRole("cell", { name: "Sunny Side Farm", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "sunny-side", exact: true })).toBeVisible();
  await screenshots(page, "businesses");

  // Manage Users shows the owner.
  await page.getByRole("button", { name: "Manage Users of Sunny Side Farm" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("cell", { name: "sunnyowner", exact: true })).toBeVisible();
  await expect(dialog.getByRole("cell", { name: "Owner", exact: true })).toBeVisible();
  await dialog.getByRole("textbox", { name: "Search users" }).fill("jord");
  await dialog.getByRole("button", { name: /^jordan/ }).click();
  await dialog.getByRole("button", { name: "Attach", exact: true }).click();
  await expect(dialog.getByText("User attached")).toBeVisible();
  await expect(dialog.getByRole("cell", { name: "jordan", exact: true })).toBeVisible();
  await dialog.getByRole("row", { name: /jordan/ }).getByRole("button", { name: "Remove" }).click();
  await expect(dialog.getByText("User removed")).toBeVisible();
  await expect(dialog.getByText("User removed")).toBeHidden({ timeout: 3000 });
  await dialog.getByRole("button", { name: "Close", exact: true }).first().click();

  // Edit the page.
  await page.getByRole("link", { name: "Edit Page of Sunny Side Farm" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible();
  await page.getByLabel("Brand name").fill("Sunny Side Farm Co.");
  await typeRichText(page, "Description", "Pasture-raised eggs every month.");
  await page.getByLabel("Image URL").fill("https://example.test/hens.jpg");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByTestId("gallery-thumb")).toHaveCount(1);

  // An item: validation first, then prices.
  await page.getByRole("button", { name: "Add new item" }).click();
  const itemDialog = page.getByRole("dialog");
  await itemDialog.getByRole("button", { name: "Save" }).click();
  await expect(itemDialog.getByText("Please enter a package name.")).toBeVisible();
  await itemDialog.getByLabel("Package name").fill("Egg Share");
  await itemDialog.getByRole("button", { name: "Save" }).click();
  await expect(itemDialog.getByText("Enter at least one price (pickup, shipping, and/or delivery).")).toBeVisible();
  await itemDialog.getByLabel("Pickup price (USD)").fill("24");
  await itemDialog.getByLabel("Shipping price (USD)").fill("31.50");
  await itemDialog.getByRole("button", { name: "Save" }).click();
  await expect(itemDialog).toBeHidden();
  await expect(page.getByTestId("item-card").filter({ hasText: "Egg Share" })).toContainText("Pickup $24.00 · Shipping $31.50");

  // An add-on.
  await page.getByRole("button", { name: "Add new add-on" }).click();
  const addonDialog = page.getByRole("dialog");
  await addonDialog.getByLabel("Add-on name").fill("Honey jar");
  await addonDialog.getByRole("button", { name: "Save" }).click();
  await expect(addonDialog.getByText("Please enter a valid price.")).toBeVisible();
  await addonDialog.getByLabel("Price (USD)").fill("8");
  await addonDialog.getByRole("button", { name: "Save" }).click();
  await expect(addonDialog).toBeHidden();
  // The editor's own live Preview renders the unsaved draft with the live page's components (its own frame).
  const editorPreview = page.frameLocator('[data-testid="editor-preview"]');
  await expect(editorPreview.getByTestId("brand-row")).toContainText("Sunny Side Farm");
  await expect(editorPreview.getByText(/© \d{4} Sunny Side Farm Co\./)).toBeVisible();
  await expect(editorPreview.getByTestId("plan-card").filter({ hasText: "Egg Share" })).toBeVisible();
  await expect(editorPreview.getByText("Honey jar")).toBeVisible();

  // Fulfillment details only when checked.
  await expect(page.getByLabel("Shipping text")).toHaveCount(0);
  await page.getByText("Shipping", { exact: true }).first().click();
  await expect(page.getByLabel("Shipping text")).toBeVisible();
  // Pickup points: a list, one row to start with.
  await page.getByLabel("Pickup point 1", { exact: true }).fill("12 Farm Lane");
  await page.getByRole("button", { name: "Add pickup point" }).click();
  await page.getByLabel("Pickup point 2", { exact: true }).fill("Saturday market");

  // FAQ with a rich-text answer.
  await page.getByRole("button", { name: "Add FAQ" }).click();
  await page.getByLabel("Question 1", { exact: true }).fill("When are eggs collected?");
  await typeRichText(page, "Answer 1", "Every Saturday morning.");

  // Day clamp: billing day 31 becomes 28 with the alert.
  await page.getByLabel("Billing day").fill("31");
  const alerts: string[] = [];
  page.on("dialog", (d) => {
    alerts.push(d.message());
    void d.accept();
  });
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  expect(alerts.join("\n")).toContain("Billing day cannot exceed 28 (to account for February)");
  expect(alerts.join("\n")).toContain("All day values must be between 1 and 28 to ensure they work in February.");
  await expect(page.getByLabel("Billing day")).toHaveValue("28");
  await screenshots(page, "page-editor");

  // Preview in a new tab.
  const [preview] = await Promise.all([context.waitForEvent("page"), page.getByRole("button", { name: "Preview" }).click()]);
  await preview.waitForLoadState();
  await expect(preview).toHaveURL(/\/admin\/preview\/sunny-side$/);
  // The live page's components: the brand in the footer, the plan cards, the pickup points to choose from.
  await expect(preview.getByText(/© \d{4} Sunny Side Farm Co\./)).toBeVisible();
  await expect(preview.getByTestId("plan-card").filter({ hasText: "Egg Share" })).toBeVisible();
  await expect(preview.getByText("Honey jar")).toBeVisible();
  await expect(preview.getByText("12 Farm Lane · Saturday market")).toBeVisible();
  await preview.getByRole("button", { name: "Mobile" }).click();
  await expect(preview.getByTestId("preview-frame")).toHaveAttribute("data-device", "mobile");
  await screenshots(preview, "preview");
  await preview.close();

  // The saved page through the API and on the public site.
  const saved = await gql(page.request, session.token, `{ business(slug: "sunny-side") { page { billingDay descriptionHtml descriptionDoc faqs { q a answerDoc } fulfillment { pickupPoints pickupAddress } } plans(first: 5) { edges { node { name variations { mode amountCents } } } } addons(first: 5) { edges { node { name amountCents } } } } }`);
  const b = saved.data.business;
  expect(b.page.billingDay).toBe(28);
  expect(b.page.fulfillment).toEqual({ pickupPoints: ["12 Farm Lane", "Saturday market"], pickupAddress: "12 Farm Lane" });
  expect(b.page.descriptionHtml).toContain("Pasture-raised eggs every month.");
  expect(b.page.faqs).toEqual([{ q: "When are eggs collected?", a: "<p>Every Saturday morning.</p>", answerDoc: expect.objectContaining({ blocks: [expect.objectContaining({ type: "paragraph", data: { text: "Every Saturday morning." } })] }) }]);
  // The editor saved its document; the HTML beside it was rendered from it on the server.
  expect(b.page.descriptionDoc.blocks).toContainEqual(expect.objectContaining({ type: "paragraph", data: { text: "Pasture-raised eggs every month." } }));
  expect(b.plans.edges[0].node).toEqual({ name: "Egg Share", variations: [{ mode: "PICKUP", amountCents: 2400 }, { mode: "SHIPPING", amountCents: 3150 }] });
  expect(b.addons.edges[0].node).toEqual({ name: "Honey jar", amountCents: 800 });
  await page.goto("/b/sunny-side");
  await expect(page.getByRole("heading", { level: 1, name: "Sunny Side Farm" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Sunny Side Farm Co. photo 1 of 1" })).toBeVisible();
  await expect(page.getByText("Egg Share")).toBeVisible();
  await expect(page.getByText("Honey jar")).toBeVisible();
  await expect(page.getByTestId("business-description")).toContainText("Pasture-raised eggs every month.");
  await expect(page.getByText("When are eggs collected?")).toBeVisible();
  await expect(page.getByText("Every Saturday morning.")).toBeVisible();
});

// 1×1 PNGs in two colours.
const PNG_RED = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
const PNG_BLUE = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPj/HwADBwIAMCbHYQAAAABJRU5ErkJggg==", "base64");

test("the new owner lands on their business and uploads a logo and gallery images", async ({ page }) => {
  const session = await loginAs(page, "sunnyowner", "sunny12345");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/business\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sunny Side Farm" })).toBeVisible();
  await page.getByRole("complementary").getByRole("link", { name: "Edit Page" }).click();
  await expect(page.getByLabel("Brand name")).toHaveValue("Sunny Side Farm Co.");

  await page.getByLabel("Upload logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG_RED });
  await expect(page.getByLabel("Logo URL")).toHaveValue(/^\/uploads\//);
  await page.getByLabel("Upload images").setInputFiles([
    { name: "one.png", mimeType: "image/png", buffer: PNG_RED },
    { name: "two.png", mimeType: "image/png", buffer: PNG_BLUE },
  ]);
  const thumbs = page.getByTestId("gallery-thumb");
  await expect(thumbs).toHaveCount(3);
  const lastSrc = await thumbs.nth(2).locator("img").getAttribute("src");
  expect(lastSrc).toMatch(/^\/uploads\//);
  await thumbs.nth(2).getByRole("button", { name: "Make primary" }).click();
  await expect(thumbs.first().locator("img")).toHaveAttribute("src", lastSrc!);
  await expect(thumbs.first().getByText("Primary", { exact: true })).toBeVisible();
  await thumbs.nth(1).getByRole("button", { name: "Remove" }).click();
  await expect(thumbs).toHaveCount(2);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();

  const saved = await gql(page.request, session.token, `{ business(slug: "sunny-side") { logoUrl page { gallery { url } } } }`);
  expect(saved.data.business.page.gallery.map((g: { url: string }) => g.url)).toEqual([lastSrc, expect.stringMatching(/^\/uploads\//)]);
  expect(saved.data.business.logoUrl).toMatch(/^\/uploads\//);

  // Another business's pages: the guard lets /admin/business/* through, the server refuses the data.
  const green = await gql(page.request, session.token, `{ business(slug: "green-acres-farm") { databaseId } }`);
  await page.goto(`/admin/business/${green.data.business.databaseId}/page`);
  await expect(page.getByText("No businesses found")).toBeVisible();
  const refused = await gql(page.request, session.token, `mutation($id: Int!) { saveNextBox(input: { businessId: $id, contentHtml: "<p>x</p>" }) { __typename } }`, { id: green.data.business.databaseId });
  expect(refused.data.saveNextBox.__typename).toBe("ForbiddenError");
});

test("admin deletes the business after the exact confirmation (it has no order history)", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin/businesses");
  const messages: string[] = [];
  page.on("dialog", (d) => {
    messages.push(d.message());
    void d.accept();
  });
  await page.getByRole("button", { name: "More actions for Sunny Side Farm" }).click();
  await page.getByRole("menuitem", { name: "Delete business" }).click();
  await expect(page.getByRole("cell", { name: "Sunny Side Farm", exact: true })).toHaveCount(0);
  expect(messages).toEqual(['Delete business "Sunny Side Farm"? This will remove its page and attachments.']);
});

test("preview access messages", async ({ page }) => {
  await page.goto("/admin/preview/green-acres-farm");
  await expect(page.getByText("Access denied. Please log in.")).toBeVisible();
  await loginAs(page, "owner", "owner1234");
  await page.goto("/admin/preview/ember-oak-coffee");
  await expect(page.getByText(/Access denied. You do not have permission to preview this business page.|No preview data found/)).toBeVisible();
});
