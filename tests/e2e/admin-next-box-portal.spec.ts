import { expect, test, type Page } from "@playwright/test";
import { screenshots } from "./admin-support.ts";
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
  await page.keyboard.press("Enter");
  await page.keyboard.type("This month: ");
  await page.keyboard.press("Control+b");
  await page.keyboard.type("Bartlett");
  await page.keyboard.press("Control+b");
  await page.keyboard.type(" and Bosc pears.");
  await page.keyboard.press("Enter");
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
