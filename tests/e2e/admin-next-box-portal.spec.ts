import { expect, test, type Page } from "@playwright/test";
import { gql, loginAs, screenshots } from "./admin-support.ts";
import { login, pinClock, shot } from "./member-support.ts";
import { adminToken, createOwnBusiness, createUser, runSuffix, subscribeMember, type OwnBusiness } from "./tenant-support.ts";

// A business of this spec's own with an editor and an active member; the seeded Next Box notes stay untouched.
test.describe.configure({ mode: "serial" });

const suffix = runSuffix();
const EDITOR = { username: `nbeditor${suffix}`, password: "editor12345" };
const MEMBER = { username: `nbmember${suffix}`, password: "member12345" };
const HEADING = `Pears are in ${suffix}`;
let business: OwnBusiness;

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  business = await createOwnBusiness(request, token, { name: `Pear Valley ${suffix}`, slug: `pear-valley-${suffix}`, planName: "Orchard Box", pickupCents: 3500 });
  await createUser(request, token, EDITOR.username, EDITOR.password, { businessId: business.id, role: "EDITOR" });
  await subscribeMember(request, token, business, MEMBER.username, MEMBER.password);
});

/**
 * Enter at the end of a block, and the new block it makes. Editor.js binds a fresh block's keys a moment after it
 * renders: an Enter pressed in that moment is lost (the next text then lands in the block before, on a cold first
 * load). Pressed again only when no block came of it.
 */
async function enterNewBlock(page: Page, editor: ReturnType<Page["getByRole"]>) {
  const blocks = editor.locator(".ce-block");
  const before = await blocks.count();
  await expect(async () => {
    if ((await blocks.count()) === before) await page.keyboard.press("Enter");
    await expect(blocks).toHaveCount(before + 1, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
}

/** Adds a block of a tool through Editor.js's toolbox (the + beside the focused block). */
async function addBlock(page: Page, editor: ReturnType<Page["getByRole"]>, tool: string) {
  await editor.locator(".ce-toolbar__plus").click();
  await page.locator(`.ce-popover-item[data-item-name="${tool}"]`).first().click();
}

test("an editor writes the Next Box with a heading, bold text and a list, and saves it", async ({ page }) => {
  // The portal's login form: a user attached to a business goes to /admin, which opens their business.
  // (No fake browser clock here: under it Editor.js binds a new block's keys late and Enter would not split.)
  await page.goto("/membership");
  await page.getByLabel("Username").fill(EDITOR.username);
  await page.getByLabel("Password").fill(EDITOR.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/business/${business.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: business.name })).toBeVisible();
  await page.getByRole("complementary").getByRole("link", { name: "Next Box" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/business/${business.id}/next-box$`));
  const editor = page.getByRole("group", { name: "Next Box content" });
  const first = editor.locator(".ce-paragraph").first();
  await expect(first).toBeVisible();

  // A heading block, then a paragraph with a bold word, then a bulleted list.
  await first.click();
  await addBlock(page, editor, "header");
  await page.keyboard.type(HEADING);
  await enterNewBlock(page, editor);
  await page.keyboard.type("This month: ");
  await page.keyboard.press("Control+b");
  await page.keyboard.type("Bartlett");
  await page.keyboard.press("Control+b");
  await page.keyboard.type(" and Bosc pears.");
  await enterNewBlock(page, editor);
  await addBlock(page, editor, "list");
  await page.keyboard.type("Pear butter");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Cider vinegar");

  const preview = page.getByTestId("next-box-preview");
  await expect(preview.getByRole("heading", { name: HEADING })).toBeVisible();
  await expect(preview.locator("b, strong").filter({ hasText: "Bartlett" })).toBeVisible();
  await expect(preview.getByRole("listitem")).toHaveText(["Pear butter", "Cider vinegar"]);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Changes saved successfully!")).toBeVisible();
  await screenshots(page, "next-box-rich");

  // Saved on the server: a reload shows the same blocks.
  await page.reload();
  await expect(page.getByRole("group", { name: "Next Box content" }).locator("h2, h3").filter({ hasText: HEADING })).toBeVisible();
  await expect(page.getByTestId("next-box-preview").getByRole("listitem")).toHaveText(["Pear butter", "Cider vinegar"]);
  // The editor saved its document, and the server rendered the HTML the portal shows from it.
  const saved = await gql(page.request, await adminToken(page.request), `query($id: Int!) { adminBusiness(id: $id) { nextBox { contentHtml contentDoc } } }`, { id: business.id });
  const box = saved.data.adminBusiness.nextBox;
  expect(box.contentDoc.blocks.map((b: { type: string }) => b.type)).toEqual(expect.arrayContaining(["header", "paragraph", "list"]));
  expect(box.contentHtml).toContain("<li>Pear butter</li><li>Cider vinegar</li>");
});

test("the member sees the new Next Box in their portal", async ({ page }) => {
  await pinClock(page);
  await login(page, `/b/${business.slug}/membership`, MEMBER.username, MEMBER.password);
  const panel = page.getByRole("tabpanel", { name: "Next Box" });
  await expect(panel).toContainText(business.name);
  await expect(panel.getByRole("heading", { name: /^Your next box: / })).toBeVisible();
  await expect(panel.getByRole("heading", { name: HEADING })).toBeVisible();
  await expect(panel.locator("b, strong").filter({ hasText: "Bartlett" })).toBeVisible();
  await expect(panel).toContainText("This month: Bartlett and Bosc pears.");
  await expect(panel.getByRole("listitem")).toHaveText(["Pear butter", "Cider vinegar"]);
  // Shown as the editor's preview showed it: a heading that looks like one, a bulleted list.
  const content = page.getByTestId("next-box-content");
  const heading = content.getByRole("heading", { name: HEADING });
  const body = content.getByText("This month:", { exact: false });
  const size = async (l: typeof heading) => l.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(await size(heading)).toBeGreaterThan(await size(body));
  expect(Number(await heading.evaluate((el) => getComputedStyle(el).fontWeight))).toBeGreaterThanOrEqual(600);
  expect(await content.locator("ul").evaluate((el) => getComputedStyle(el).listStyleType)).toBe("disc");
  await shot(page, "portal-next-box-rich");
});

test("a note written as HTML through REST opens in the editor as blocks and is saved back as a document", async ({ page }) => {
  const session = await loginAs(page, "admin", "admin1234");
  const written = await page.request.post(`/api/admin/businesses/${business.id}/next-box`, {
    headers: { Authorization: `Bearer ${session.token}` },
    data: { content: "<h3>Quinces next</h3><p>From the <b>old</b> orchard</p><ol><li>Quince paste</li><li>Jelly</li></ol>" },
  });
  expect(written.ok()).toBe(true);
  const stored = async () => (await gql(page.request, session.token, `query($id: Int!) { adminBusiness(id: $id) { nextBox { contentHtml contentDoc } } }`, { id: business.id })).data.adminBusiness.nextBox;
  expect((await stored()).contentDoc).toBeNull();

  await page.goto(`/admin/business/${business.id}/next-box`);
  const editor = page.getByRole("group", { name: "Next Box content" });
  await expect(editor.locator("h3").filter({ hasText: "Quinces next" })).toBeVisible();
  await expect(editor.locator("b").filter({ hasText: "old" })).toBeVisible();
  await expect(page.getByTestId("next-box-preview").getByRole("listitem")).toHaveText(["Quince paste", "Jelly"]);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Changes saved successfully!")).toBeVisible();

  const box = await stored();
  expect(box.contentDoc.blocks.map((b: { type: string }) => b.type)).toEqual(["header", "paragraph", "list"]);
  expect(box.contentHtml).toBe("<h3>Quinces next</h3><p>From the <b>old</b> orchard</p><ol><li>Quince paste</li><li>Jelly</li></ol>");
});

test("the public page shows the description and FAQ answers with styled headings and lists", async ({ page }) => {
  const token = await adminToken(page.request);
  const doc = (heading: string, items: string[]) => ({
    blocks: [
      { type: "header", data: { text: heading, level: 2 } },
      { type: "paragraph", data: { text: "Picked <b>this week</b>." } },
      { type: "list", data: { style: "unordered", meta: {}, items: items.map((content) => ({ content, meta: {}, items: [] })) } },
    ],
  });
  const saved = await gql(page.request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename } }`, {
    input: { businessId: business.id, content: { descriptionDoc: doc("About the orchard", ["Pears", "Quinces"]), faqs: [{ q: "What is in a box?", answerDoc: doc("Contents", ["Fruit", "Preserves"]) }] } },
  });
  expect(saved.data.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");

  await page.goto(`/b/${business.slug}`);
  const description = page.getByTestId("business-description");
  const heading = description.getByRole("heading", { level: 2, name: "About the orchard" });
  const size = async (l: ReturnType<Page["locator"]>) => l.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(await size(heading)).toBeGreaterThan(await size(description.locator("p")));
  expect(await description.locator("ul").evaluate((el) => getComputedStyle(el).listStyleType)).toBe("disc");
  await expect(description.getByRole("listitem")).toHaveText(["Pears", "Quinces"]);

  const faqs = page.getByRole("region", { name: "Frequently asked questions" });
  await expect(faqs.getByRole("heading", { name: "Contents" })).toBeVisible();
  await expect(faqs.getByRole("listitem")).toHaveText(["Fruit", "Preserves"]);
  expect(await faqs.locator("ul").evaluate((el) => getComputedStyle(el).listStyleType)).toBe("disc");
  await shot(page, "public-page-rich-text");
});
