import { expect, test } from "@playwright/test";
import { gql, loginAs, screenshots } from "./admin-support.ts";

test.beforeEach(async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
});

test("coupons: validation, create in dollars, toggle and delete with confirm", async ({ page }) => {
  await page.goto("/admin/coupons");
  await expect(page.getByRole("heading", { level: 1, name: "Coupons" })).toBeVisible();
  const form = page.locator("form");
  await form.getByRole("button", { name: "Create Coupon" }).click();
  await expect(page.getByText("Please enter a coupon code")).toBeVisible();
  await form.getByLabel("Code").fill("spring5");
  await expect(form.getByLabel("Code")).toHaveValue("SPRING5");
  await form.getByLabel("Type").selectOption("FIXED");
  await form.getByLabel("Value ($)").fill("-2");
  await form.getByRole("button", { name: "Create Coupon" }).click();
  await expect(page.getByText("Invalid fixed amount")).toBeVisible();
  await form.getByLabel("Value ($)").fill("5.25");
  await form.getByRole("button", { name: "Create Coupon" }).click();
  const row = page.getByTestId("coupon-row").filter({ hasText: "SPRING5" });
  await expect(row).toContainText("$5.25");
  await expect(row).toContainText("Yes");
  await row.getByRole("button", { name: "Deactivate" }).click();
  await expect(row).toContainText("No");
  await expect(row.getByRole("button", { name: "Activate" })).toBeVisible();

  await form.getByLabel("Code").fill("half");
  await form.getByLabel("Type").selectOption("PERCENT");
  await form.getByLabel("Value (%)").fill("150");
  await form.getByRole("button", { name: "Create Coupon" }).click();
  await expect(page.getByText("Invalid percent value (0-100)")).toBeVisible();
  await form.getByLabel("Value (%)").fill("50");
  await form.getByRole("button", { name: "Create Coupon" }).click();
  const half = page.getByTestId("coupon-row").filter({ hasText: "HALF" });
  await expect(half).toContainText("50%");
  await screenshots(page, "coupons");

  let confirmText = "";
  page.once("dialog", (d) => {
    confirmText = d.message();
    void d.accept();
  });
  await half.getByRole("button", { name: "Delete" }).click();
  await expect(half).toHaveCount(0);
  expect(confirmText).toBe("Delete coupon HALF?");
});

test("memberships: filter, CSV export and cancel immediately", async ({ page }) => {
  await page.goto("/admin/memberships");
  const rows = page.getByTestId("membership-row");
  await expect(rows.first()).toBeVisible();
  await page.getByLabel("Status").selectOption("CANCELED");
  await expect(rows.first()).toContainText("Canceled");
  for (const text of await rows.allInnerTexts()) expect(text).toContain("Canceled");
  await page.getByLabel("Status").selectOption("ANY");
  await page.getByLabel("Business").selectOption({ label: "Ember & Oak Coffee Roasters" });
  await expect(rows.first()).toContainText("Ember & Oak");
  for (const text of await rows.allInnerTexts()) expect(text).toContain("Ember & Oak");
  await page.getByLabel("Search memberships").fill("zzz-nobody");
  await expect(page.getByText("No memberships found")).toBeVisible();
  await page.getByLabel("Search memberships").fill("");
  await page.getByLabel("Status").selectOption("ACTIVE");
  await expect(rows.first()).toBeVisible();
  await screenshots(page, "memberships");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  // The server's streamed CSV of the filtered list: named after the business and the day.
  expect(download.suggestedFilename()).toMatch(/^memberships-ember-oak-coffee-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe(
    "subscription_id,provider_subscription_id,public_id,username,email,business_slug,business_name,plan,status,started_at,canceled_at,fulfillment_mode,next_charge_date,paused_through,cancel_after",
  );
  expect(lines.length).toBeGreaterThan(1);
  for (const line of lines.slice(1)) {
    expect(line).toContain(",ember-oak-coffee,");
    // The next charge (none past the last month of a member's cancel), the pause's last month, the cancel's.
    expect(line).toMatch(/,(Active|Past due),[^,]+,,(Pickup|Shipping|Delivery),(\d{4}-\d{2}-\d{2})?,(\d{4}-\d{2})?,(\d{4}-\d{2})?$/);
  }
  expect(csv).not.toContain("green-acres-farm");

  const count = await rows.count();
  const first = rows.first();
  const id = (await first.locator("td").first().innerText()).trim();
  await first.getByRole("button", { name: "Cancel" }).click();
  const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
  await expect(dialog.getByText("no automatic refund", { exact: false })).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel immediately" }).click();
  await expect(rows).toHaveCount(count - 1);
  await page.getByLabel("Status").selectOption("CANCELED");
  await expect(page.getByTestId("membership-row").filter({ has: page.getByRole("cell", { name: id, exact: true }) })).toContainText("Canceled");
});

test("next box: list, edit, reset and save", async ({ page }) => {
  const session = await loginAs(page, "admin", "admin1234");
  await page.goto("/admin/next-boxes");
  await expect(page.getByRole("heading", { level: 1, name: "Next Box Management" })).toBeVisible();
  await screenshots(page, "next-boxes");
  await page.getByRole("link", { name: "Edit Next Box of Rise & Crumb Bakery" }).click();
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeVisible();
  const editor = page.getByRole("group", { name: "Next Box content" });
  const paragraph = editor.locator(".ce-paragraph").last();
  await expect(paragraph).toBeVisible();
  const before = await page.getByTestId("next-box-preview").innerText().catch(() => "");

  // Reset drops unsaved edits.
  await paragraph.click();
  await page.keyboard.press("End");
  await page.keyboard.type(" DRAFT-ONLY");
  await expect(page.getByTestId("next-box-preview")).toContainText("DRAFT-ONLY");
  await page.getByRole("button", { name: "Reset to Last Saved" }).click();
  await expect(page.getByTestId("next-box-preview")).not.toContainText("DRAFT-ONLY");

  await editor.locator(".ce-paragraph").last().click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Sourdough loaves and rye this month.");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Changes saved successfully!")).toBeVisible();
  await screenshots(page, "next-box-editor");
  await expect(page.getByText("Changes saved successfully!")).toBeHidden({ timeout: 5000 });

  // Undo across the editor (Ctrl+Z), then redo.
  await editor.locator(".ce-paragraph").last().click();
  await page.keyboard.press("End");
  await page.keyboard.type(" UNDO-ME");
  await expect(page.getByTestId("next-box-preview")).toContainText("UNDO-ME");
  await page.waitForTimeout(1100);
  await page.keyboard.press("Control+z");
  await expect(page.getByTestId("next-box-preview")).not.toContainText("UNDO-ME");
  await page.keyboard.press("Control+Shift+z");
  await expect(page.getByTestId("next-box-preview")).toContainText("UNDO-ME");

  const saved = await gql(page.request, session.token, `{ business(slug: "rise-and-crumb-bakery") { nextBox { contentHtml } } }`);
  expect(saved.data.business.nextBox.contentHtml).toContain("<p>Sourdough loaves and rye this month.</p>");
  if (before) expect(saved.data.business.nextBox.contentHtml.length).toBeGreaterThan(30);
});

test("home page editor, users, change password and business list pages render", async ({ page }) => {
  await page.goto("/admin/page");
  await expect(page.getByRole("heading", { level: 1, name: "Home Page" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Items" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeVisible();
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeHidden({ timeout: 4000 });
  await screenshots(page, "home-page-editor");

  await page.goto("/admin/users");
  await page.getByLabel("Search users").fill("zzz-nobody");
  await expect(page.getByText("No users found")).toBeVisible();
  await page.getByRole("button", { name: "Create User" }).click();
  await expect(page.getByText("Please provide username and password")).toBeVisible();

  await page.goto("/admin/change-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Please fill in both fields")).toBeVisible();
  await screenshots(page, "change-password");

  await page.goto("/admin/memberships");
  await page.goto("/admin/my");
  // Administrators see every business: the seeded ones, and any other spec's own.
  for (const name of ["Green Acres Farm", "Ember & Oak Coffee Roasters", "Rise & Crumb Bakery"]) {
    await expect(page.getByTestId("my-business").filter({ hasText: name })).toHaveCount(1);
  }
});
