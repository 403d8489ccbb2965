import { expect, type Locator, type Page, type TestInfo } from "@playwright/test";

/**
 * At phone (375 px) and desktop (1280 px) widths: the page has no horizontal overflow, the named elements are
 * visible, and a full-page screenshot is kept as a test artifact (attached to the report and written under
 * the test's output folder).
 */
export async function checkLayout(page: Page, testInfo: TestInfo, name: string, visible: (page: Page) => Locator[]) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(200);
    for (const locator of visible(page)) await expect(locator, `${name} at ${width} px`).toBeVisible();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    expect(scrollWidth, `${name} at ${width} px: no horizontal overflow`).toBeLessThanOrEqual(clientWidth);
    const path = testInfo.outputPath(`${name}-${width}.png`);
    await page.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${width}`, { path, contentType: "image/png" });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
