import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { loginAs, screenshots } from "./admin-support.ts";
import { fillCard, login, pinClock, shot } from "./member-support.ts";

// The member's email preferences in the portal, and the Sent mail page where, without SMTP_URL (the
// test server has none), every message the product would send is kept and shown as rendered.

/** Where the page editor's shots go (as member-support's shot()). */
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";
const NO_SMTP = "No SMTP server is configured (SMTP_URL): messages are kept here and not sent.";

test("a member turns window-closing reminders off in Profile and it stays off after a reload", async ({ page }) => {
  await pinClock(page);
  // The emails' deep link opens the Profile tab.
  await login(page, "/membership?tab=profile", "liam", "member1234");
  await expect(page.getByRole("tab", { name: "Profile" })).toHaveAttribute("aria-selected", "true");
  const section = page.getByRole("region", { name: "Email preferences" });
  const reminders = section.getByLabel("Window-closing reminders");
  const notices = section.getByLabel("Upcoming charge notices");
  await expect(reminders).toBeChecked();
  await expect(notices).toBeChecked();
  await expect(section.getByText("Receipts, payment problems and security messages (such as a password change) are always sent.")).toBeVisible();
  try {
    await section.getByText("Window-closing reminders").click();
    await expect(section.getByRole("status")).toHaveText("Email preferences saved.");
    await expect(reminders).not.toBeChecked();
    await expectAccessible(page);
    await shot(page, "portal-email-preferences");
    await page.reload();
    await expect(page.getByRole("tab", { name: "Profile" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("region", { name: "Email preferences" }).getByLabel("Window-closing reminders")).not.toBeChecked();
    await expect(page.getByRole("region", { name: "Email preferences" }).getByLabel("Upcoming charge notices")).toBeChecked();
  } finally {
    // Leave the demo member as seeded for the other specs.
    const again = page.getByRole("region", { name: "Email preferences" });
    if (!(await again.getByLabel("Window-closing reminders").isChecked())) {
      await again.getByText("Window-closing reminders").click();
      await expect(again.getByLabel("Window-closing reminders")).toBeChecked();
      await expect(again.getByRole("status")).toHaveText("Email preferences saved.");
    }
  }
});

test("an owner opens Sent mail from the sidebar and sees that mail is kept, not sent", async ({ page }) => {
  await loginAs(page, "owner", "owner1234");
  await page.goto("/admin/my");
  await page.getByRole("link", { name: "Sent mail" }).click();
  await expect(page).toHaveURL(/\/admin\/mail$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sent mail" })).toBeVisible();
  await expect(page.getByRole("note", { name: "Mail delivery" })).toHaveText(NO_SMTP);
  await expect(page.getByLabel("Status")).toBeVisible();
  // The business filter is the administrators' (an owner sees their businesses' messages only).
  await expect(page.getByLabel("Business")).toHaveCount(0);
  await expect(page.getByLabel("Email me a daily digest")).toBeVisible();
  await screenshots(page, "sent-mail-owner");
});

test("after a browser checkout, Sent mail lists the member's welcome and receipt, shown as rendered", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  await pinClock(page);
  await page.goto("/b/rise-and-crumb-bakery");
  await page.getByRole("button", { name: "Checkout" }).click();
  const username = `mail${Date.now() % 100000}`;
  const email = `${username}@example.com`;
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(username);
  await expect(page.getByTestId("username-status")).toHaveText("Username is available");
  await page.getByLabel("Password").fill("secret1234");
  await page.getByRole("button", { name: "Continue to Address" }).click();
  await page.getByLabel("Street address").fill("1 Crumb Ln");
  await page.getByRole("button", { name: "Continue to Review" }).click();
  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { name: "Subscription Activated!" })).toBeVisible();

  const context = await browser.newContext({ baseURL });
  try {
    const admin = await context.newPage();
    await loginAs(admin, "admin", "admin1234");
    await admin.goto("/admin/mail");
    await expect(admin.getByRole("heading", { level: 1, name: "Sent mail" })).toBeVisible();
    await expect(admin.getByRole("note", { name: "Mail delivery" })).toHaveText(NO_SMTP);
    // The server turns the checkout's events into mail every few seconds: look again until it is there.
    const row = admin.getByTestId("mail-row").filter({ hasText: email }).filter({ hasText: "Welcome and receipt" });
    await expect(async () => {
      await admin.getByRole("button", { name: "Refresh" }).click();
      await expect(row).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000, 2_000, 3_000] });
    await expect(row.getByText("Held (no SMTP)")).toBeVisible();
    await expect(row).toContainText("Rise & Crumb Bakery");
    await expectAccessible(admin);
    await screenshots(admin, "sent-mail");

    // Filters: the business filter keeps it, the Sent status does not (nothing is sent without SMTP).
    await admin.getByLabel("Business").selectOption({ label: "Rise & Crumb Bakery" });
    await expect(row).toHaveCount(1);
    await admin.getByLabel("Status").selectOption("SENT");
    await expect(admin.getByText("No messages yet.")).toBeVisible();
    await admin.getByLabel("Status").selectOption("");
    await expect(row).toHaveCount(1);

    await row.getByRole("button", { name: /^View / }).click();
    const dialog = admin.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Welcome and receipt" })).toBeVisible();
    await expect(dialog).toContainText(email);
    const frame = dialog.locator("iframe");
    await expect(frame).toHaveAttribute("sandbox", "");
    await expect(frame).toHaveAttribute("title", /^Rendered email: /);
    await expect(admin.frameLocator("iframe[title^='Rendered email']").locator("body")).toContainText(/Total charged/);
    // The logo is the demo SVG's PNG rendition (mail clients show no SVG), and it loads in the sandboxed frame.
    const logo = admin.frameLocator("iframe[title^='Rendered email']").locator("img").first();
    await expect(logo).toHaveAttribute("src", /\/demo\/rise-and-crumb-bakery-logo\.png$/);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0);
    // (No axe run here: it cannot inject into the sandboxed frame, which runs no scripts by design.)
    await screenshots(admin, "sent-mail-message");
    await dialog.getByRole("tab", { name: "Plain text" }).click();
    await expect(dialog.getByLabel("Plain-text part")).toContainText("Total charged");

    await dialog.getByRole("button", { name: "Resend" }).click();
    await expect(dialog.getByRole("status")).toHaveText(`Resent to ${email} as a new message (held (no smtp)).`);
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(admin.getByTestId("mail-row").filter({ hasText: email }).filter({ hasText: "Resent" })).toHaveCount(1);
  } finally {
    await context.close();
  }
});

test("the page editor's Email panel saves sender name and reminders, and shows a refused reply-to under its field", async ({ page }) => {
  await loginAs(page, "owner", "owner1234");
  // The owner's home is their business (Green Acres Farm).
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/business\/\d+$/);
  await page.getByRole("link", { name: "Edit Page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible();
  const panel = emailPanel(page);
  await expect(panel.getByLabel("Sender name")).toHaveValue("");
  await expect(panel.getByText("Shown as the sender; empty uses the brand name")).toBeVisible();
  await expect(panel.getByLabel("Send window-closing reminders")).toBeChecked();
  await expect(panel.getByLabel("Send upcoming charge notices")).toBeChecked();

  await panel.getByLabel("Reply-to address").fill("not an address");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(panel.getByText("Reply-to must be an email address such as help@example.com")).toBeVisible();
  await expect(panel.getByLabel("Reply-to address")).toHaveAttribute("aria-invalid", "true");
  await emailPanel(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/admin-page-editor-email-refused-1280.png`, fullPage: false });

  try {
    await panel.getByLabel("Sender name").fill("Farmer Jo at Green Acres");
    await panel.getByLabel("Reply-to address").fill("jo@greenacres.example");
    await panel.getByText("Send window-closing reminders").click();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await expect(panel.getByText("Reply-to must be an email address such as help@example.com")).toHaveCount(0);
    await page.reload();
    await expect(emailPanel(page).getByLabel("Sender name")).toHaveValue("Farmer Jo at Green Acres");
    await expect(emailPanel(page).getByLabel("Reply-to address")).toHaveValue("jo@greenacres.example");
    await expect(emailPanel(page).getByLabel("Send window-closing reminders")).not.toBeChecked();
    await emailPanel(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/admin-page-editor-email-1280.png`, fullPage: false });
  } finally {
    // Back to the seeded settings for the other specs.
    const again = emailPanel(page);
    await again.getByLabel("Sender name").fill("");
    await again.getByLabel("Reply-to address").fill("");
    if (!(await again.getByLabel("Send window-closing reminders").isChecked())) await again.getByText("Send window-closing reminders").click();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  }
});

/** No critical or serious WCAG A/AA violation on the page as it is now. */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const emailPanel = (page: Page) => page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: "Email", exact: true }) });
