import { expect, test, type Page } from "@playwright/test";
import { apiLogin, CLOCK, loginAs, screenshots } from "./admin-support.ts";

// Small fixes of the admin pages, each checked at the viewport where it was wrong.

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

test("a new page starts at the top on a phone, and Back returns to where the reader was", async ({ page }) => {
  await page.clock.install({ time: CLOCK });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/b/ember-oak-coffee");
  const checkout = page.getByRole("button", { name: "Checkout" });
  await checkout.scrollIntoViewIfNeeded();
  await page.waitForTimeout(200); // the scroll position is recorded as the page reports it
  const before = await scrollY(page);
  expect(before).toBeGreaterThan(300);

  await checkout.click();
  await expect(page).toHaveURL(/\/b\/ember-oak-coffee\/membership\/checkout$/);
  await expect(page.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  await expect.poll(() => scrollY(page)).toBe(0);
  await expect(page.getByLabel("Email")).toBeInViewport();
  await page.screenshot({ path: "test-results/screenshots/admin-rough-checkout-top-375.png" });

  await page.goBack();
  await expect(page).toHaveURL(/\/b\/ember-oak-coffee$/);
  await expect.poll(() => scrollY(page)).toBeGreaterThan(before - 3);
  expect(await scrollY(page)).toBeLessThan(before + 3);
  await screenshots(page, "rough-business-after-back");
});

test("an owner keeps their business's sidebar links on Sent mail", async ({ page }) => {
  await loginAs(page, "owner", "owner1234");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/business\/\d+$/);
  const dashboardPath = new URL(page.url()).pathname;
  const sidebar = page.getByRole("complementary").getByRole("navigation", { name: "Admin" });
  // The gated entries (API Tokens, Sent mail) appear once the server has answered.
  await expect(sidebar.getByRole("link", { name: "API Tokens" })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Sent mail" })).toBeVisible();
  const onDashboard = await sidebar.getByRole("link").evaluateAll((links) => links.map((a) => `${a.textContent} ${a.getAttribute("href")}`));
  expect(onDashboard).toContain(`Edit Page ${dashboardPath}/page`);

  await sidebar.getByRole("link", { name: "Sent mail" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sent mail" })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "API Tokens" })).toBeVisible();
  const onMail = await sidebar.getByRole("link").evaluateAll((links) => links.map((a) => `${a.textContent} ${a.getAttribute("href")}`));
  expect(onMail).toEqual(onDashboard);

  // Opened directly (a reload): the owner's home business.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Sent mail" })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Edit Page" })).toHaveAttribute("href", `${dashboardPath}/page`);
  await screenshots(page, "rough-owner-sent-mail");
});

test("the administrators' Users list shows email, administrator and businesses with role, and copies the public id", async ({ page, context }) => {
  const owner = await apiLogin(page.request, "owner", "owner1234");
  await loginAs(page, "admin", "admin1234");
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/admin/users");
  const table = page.getByRole("region", { name: "Users" });
  await expect(table.getByRole("columnheader")).toHaveText(["Username", "Email", "Administrator", "Businesses", ""]);
  await expect(table.getByRole("columnheader", { name: /Public ID|ID/ })).toHaveCount(0);

  // Other specs add many users (the list shows 50): find the demo ones by name.
  await page.getByLabel("Search users").fill("owner");
  const ownerRow = page.getByTestId("user-row").filter({ has: page.getByRole("cell", { name: "owner", exact: true }) });
  await expect(ownerRow.getByRole("cell")).toHaveText(["owner", "owner@example.com", "No", "Green Acres Farm · Owner", "Copy id"]);
  await expect(page.getByText(owner.user.public_id)).toHaveCount(0);

  await ownerRow.getByRole("button", { name: "Copy id of owner" }).click();
  await expect(ownerRow.getByRole("button", { name: "Copy id of owner" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(owner.user.public_id);
  await page.getByLabel("Search users").fill("admin");
  const adminRow = page.getByTestId("user-row").filter({ has: page.getByRole("cell", { name: "admin", exact: true }) });
  await expect(adminRow.getByRole("cell").nth(2)).toHaveText("Yes");
  await page.getByLabel("Search users").fill("");
  await screenshots(page, "rough-users");
});

test("Businesses keeps Delete in the More menu's danger section, with §5's confirmation", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin/businesses");
  const row = page.getByTestId("business-row").filter({ hasText: "Green Acres Farm" });
  await expect(page.getByTestId("business-row").first()).toBeVisible();
  // Other specs add businesses: Green Acres Farm may be on a later page.
  while ((await row.count()) === 0) await page.getByRole("button", { name: "Load more" }).click();
  await expect(row.getByRole("link", { name: "Dashboard of Green Acres Farm" })).toBeVisible();
  await expect(row.getByRole("button", { name: /Delete/ })).toHaveCount(0);

  await row.getByRole("button", { name: "More actions for Green Acres Farm" }).click();
  const danger = page.getByRole("menu").getByRole("group", { name: "Danger zone" });
  const remove = danger.getByRole("menuitem", { name: "Delete business" });
  await expect(remove).toBeVisible();
  // Red: fg.error.
  const [r, g] = await remove.evaluate((el) => getComputedStyle(el).color.match(/\d+/g)!.map(Number));
  expect(r).toBeGreaterThan(150);
  expect(g).toBeLessThan(100);
  await page.screenshot({ path: "test-results/screenshots/admin-rough-business-more-1280.png" });

  const messages: string[] = [];
  page.once("dialog", (d) => {
    messages.push(d.message());
    void d.dismiss();
  });
  await remove.click();
  await expect.poll(() => messages).toEqual(['Delete business "Green Acres Farm"? This will remove its page and attachments.']);
  await expect(page.getByRole("menu")).toBeHidden();
  await expect(row).toBeVisible(); // dismissed: nothing deleted
  await screenshots(page, "rough-businesses");
});

test("an owner's memberships search box takes the full width on a phone", async ({ page }) => {
  await loginAs(page, "owner", "owner1234");
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/business\/\d+$/);
  await page.goto(`${new URL(page.url()).pathname}/memberships`);
  const search = page.getByRole("textbox", { name: "Search memberships" });
  await expect(search).toBeVisible();
  const box = (await search.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(200);
  expect(box.height).toBeGreaterThanOrEqual(32);
  await screenshots(page, "rough-owner-memberships");
});
