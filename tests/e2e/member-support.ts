import { expect, type Page } from "@playwright/test";

export const CLOCK = new Date("2026-03-05T15:00:00Z");

/** Pins the browser clock to the server's business day (CLOCK_START). */
export async function pinClock(page: Page) {
  await page.clock.install({ time: CLOCK });
}

/** Where shot() writes; a run beside others' (which clean ./test-results when they start) can point it elsewhere. */
const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";

export async function shot(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    // From the top: a full-page shot of a scrolled page paints the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

export async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry").fill("12 / 30");
  await page.getByLabel("CVC").fill("123");
}

export async function login(page: Page, path: string, username = "member", password = "member1234") {
  await page.goto(path);
  const button = page.getByRole("button", { name: "Log In" });
  await expect(button).toBeDisabled();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page.getByRole("heading", { name: "My membership" })).toBeVisible();
}
