import { expect, test, type Locator, type Page } from "@playwright/test";
import { fillCard, pinClock, shot } from "./member-support.ts";

/**
 * What a member paid, as the server recorded it: a visitor buys a plan with an add-on and the WELCOME10 coupon;
 * the success panel names the card that paid and where the receipt went; the portal's Order History names the
 * month, says "Paid", opens to the server's lines (the add-on, the coupon) that add up to what was charged, and
 * shows the receipt email itself.
 */

test.beforeEach(async ({ page }) => pinClock(page));

/** "$62.40" or "−$6.24" (a true minus sign) as cents. */
function cents(text: string): number {
  const m = /^([-\u2212])?\$([\d,]+)\.(\d{2})$/.exec(text.trim());
  if (!m) throw new Error(`not an amount: ${JSON.stringify(text)}`);
  const value = Number(m[2].replaceAll(",", "")) * 100 + Number(m[3]);
  return m[1] ? -value : value;
}

/** The breakdown's rows as [label, amount]. */
async function breakdownRows(table: Locator): Promise<[string, string][]> {
  const rows = await table.locator("tbody tr").all();
  return Promise.all(rows.map(async (r) => [(await r.locator("th").innerText()).trim(), (await r.locator("td").innerText()).trim()] as [string, string]));
}

/** Holds the page's timers (the success panel's redirect after 2 s) while it is looked at. */
async function holdTimers(page: Page) {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 250);
}

test("a member pays with an add-on and WELCOME10, then finds the order, its lines and its receipt", async ({ page }) => {
  await page.goto("/b/green-acres-farm");
  await expect(page.getByTestId("plan-card").first()).toBeVisible();
  const addon = page.getByTestId("addon-card").filter({ hasText: "Wildflower honey" });
  await addon.click();
  await page.getByRole("radio", { name: /^Delivery/ }).check();
  await page.getByRole("radiogroup", { name: "Choose a delivery area" }).getByRole("radio").first().check();
  await page.getByRole("button", { name: "Checkout" }).click();

  await expect(page.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  const username = `rcpt${Date.now() % 100000}`;
  const email = `${username}@example.com`;
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(username);
  await expect(page.getByTestId("username-status")).toHaveText("Username is available");
  await page.getByLabel("Password").fill("secret1234");
  await page.getByRole("button", { name: "Continue to Address" }).click();

  await expect(page.getByRole("heading", { name: "Address" })).toBeVisible();
  await page.getByLabel("Full name").fill("Rita Receipt");
  await page.getByLabel("Phone").fill("330-555-0142");
  await page.getByLabel("Street address").fill("9 Ledger Rd");
  await page.getByLabel("City").fill("Hudson");
  await page.getByLabel("State").selectOption("OH");
  await page.getByLabel("Zip code").fill("44236");
  await page.getByRole("button", { name: "Continue to Review" }).click();

  await expect(page.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
  await page.getByLabel("Coupon code").fill("welcome10");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  const summary = page.getByTestId("order-summary");
  await expect(summary.getByText("Discount (WELCOME10)")).toBeVisible();
  await expect(summary).toContainText("+ Wildflower honey (12 oz)");
  await expect(summary).toContainText("Monthly charge (tax included)");
  const quotedTotal = (await summary.getByText("Total", { exact: true }).locator("..").innerText()).replace("Total", "").trim();

  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: `Pay ${quotedTotal} now and it renews at ${quotedTotal} every month on April 1st` }).click();

  // The success panel (spec §2), with the card and the receipt's address.
  await expect(page.getByRole("heading", { name: "Subscription Activated!" })).toBeVisible();
  await holdTimers(page);
  const panel = page.getByRole("status").filter({ hasText: "Subscription Activated!" });
  await expect(panel.getByText(`Amount charged: ${quotedTotal}`)).toBeVisible();
  await expect(panel.getByText("Paid with VISA ending in 4242", { exact: true })).toBeVisible();
  await expect(panel.getByText(`A receipt was sent to ${email}.`, { exact: true })).toBeVisible();
  await expect(panel.getByText("Redirecting to your membership dashboard...")).toBeVisible();
  const orderId = Number(/Order ID:\s*(\d+)/.exec(await panel.innerText())?.[1]);
  expect(orderId).toBeGreaterThan(0);
  await shot(page, "receipts-success-panel");
  await page.clock.resume();
  await expect(page).toHaveURL(new RegExp(`/membership\\?orderId=${orderId}&success=1$`), { timeout: 10_000 });

  // Order History: the month by name, "Paid", the lines that make the charge.
  await page.getByRole("tab", { name: "Order History" }).click();
  const row = page.getByTestId("order-row").filter({ hasText: `Order #${orderId}` });
  await expect(row).toContainText("New membership for March 2026");
  await expect(row).not.toContainText("2026-03");
  await expect(row.getByTestId("order-status")).toHaveText("Paid");
  await row.getByRole("button", { name: `Show details of order #${orderId}` }).click();
  const table = row.getByRole("table", { name: "Price breakdown" });
  await expect(table).toBeVisible();
  const lines = await breakdownRows(table);
  const amount = (label: string) => lines.find(([l]) => l === label)?.[1];
  expect(amount("Wildflower honey (12 oz)")).toBe("$11.00");
  expect(amount("Coupon WELCOME10")).toMatch(/^\u2212\$\d+\.\d{2}$/);
  expect(amount("Delivery")).toMatch(/^\$\d+\.\d{2}$/);
  expect(amount("Tax (5.75%)")).toMatch(/^\$\d+\.\d{2}$/);
  expect(amount("Total charged")).toBe(quotedTotal);
  // The lines (not the Subtotal and Total rows) add up to the total charged, to the cent.
  const priced = lines.filter(([l]) => l !== "Subtotal" && l !== "Total charged");
  expect(priced.reduce((sum, [, a]) => sum + cents(a), 0)).toBe(cents(quotedTotal));
  const beforeCoupon = lines.slice(0, lines.findIndex(([l]) => l === "Subtotal"));
  expect(beforeCoupon.reduce((sum, [, a]) => sum + cents(a), 0)).toBe(cents(amount("Subtotal")!));
  await shot(page, "receipts-order-history");

  // The receipt email as it was sent, in a sandboxed frame (written a few seconds after the payment).
  await row.getByRole("button", { name: `View receipt of order #${orderId}` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  const frame = dialog.getByTestId("receipt-frame");
  await expect(frame).toBeVisible({ timeout: 30_000 });
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(dialog.getByRole("heading", { level: 2 })).toHaveText(/receipt/i);
  await expect(dialog).toContainText(email);
  await expect(page.frameLocator('[data-testid="receipt-frame"]').locator("body")).toContainText(new RegExp(`Order #${orderId}(?!\\d)`));
  await shot(page, "receipts-receipt-dialog");
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(dialog).toBeHidden();
});
