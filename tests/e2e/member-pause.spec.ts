import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { loginAs } from "./admin-support.ts";
import { login, pinClock, shot } from "./member-support.ts";
import { adminToken, createOwnBusiness, runSuffix, subscribeMember, type OwnBusiness } from "./tenant-support.ts";

/**
 * A member pauses and takes skips back (issue 40): pause two months ("Paused until …"), unskip one, resume; the page
 * editor's longest pause bounds what a member may choose, and the server refuses beyond it. The server runs on the
 * fixed demo clock (March 5th, 2026: inside the default skip window, days 1 to 14). The business and its members are
 * the spec's own: March is paid at sign-up, so a skip or a pause starts with April (box-ready day 1 by default).
 */

const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";
const suffix = runSuffix();
const PASSWORD = "pause-pass-1234";
/** Pauses, unskips and resumes. */
const pauser = `pz${suffix}`;
/** Meets the longest pause the owner set. */
const bounded = `pb${suffix}`;
let business: OwnBusiness;

test.describe.configure({ mode: "serial" });

/** The accessibility bar of every page (accessibility.spec.ts): no critical or serious axe violation (WCAG 2.0/2.1 A and AA). */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** The editor around the longest pause field, scrolled to the middle of the screen (clear of the sticky save bar). */
async function editorShot(page: Page, name: string) {
  await page.getByLabel("Longest pause (months)").evaluate((e) => e.scrollIntoView({ block: "center" }));
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-1280.png` });
}

test.beforeAll(async ({ request }) => {
  const admin = await adminToken(request);
  business = await createOwnBusiness(request, admin, { name: `Pause Farm ${suffix}`, slug: `pause-farm-${suffix}`, planName: "Harvest Box", pickupCents: 2400 });
  for (const username of [pauser, bounded]) await subscribeMember(request, admin, business, username, PASSWORD);
});

test("a member pauses two months, takes one back and resumes", async ({ page }) => {
  await pinClock(page);
  await login(page, `/b/${business.slug}/membership`, pauser, PASSWORD);
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = page.getByTestId("subscription-card").filter({ hasText: business.name });
  await expect(card.getByText("Next box: April 1, 2026")).toBeVisible();
  await expect(card.getByTestId("paused-until")).toHaveCount(0);

  await card.getByRole("button", { name: "Pause", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: "Pause your membership" });
  // Up to the page's longest pause (3 months by default), one month first.
  await expect(dialog.getByRole("radio")).toHaveCount(3);
  await expect(dialog.getByRole("radio", { name: "1 month" })).toBeChecked();
  await dialog.getByRole("radio", { name: "2 months" }).check();
  await expect(dialog.getByTestId("pause-preview")).toHaveText(`Your ${business.name} boxes for April 2026 and May 2026 will be skipped and you won't be charged for them. Your boxes come back in June 2026.`);
  await shot(page, "pause-dialog");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Pause membership" }).click();
  const done = page.getByRole("dialog", { name: "Membership paused" });
  await expect(done.getByText("Paused until June 1st", { exact: true })).toBeVisible();
  await expect(done.getByText("No boxes and no charges for April 2026 through May 2026.")).toBeVisible();
  await done.getByRole("button", { name: "Done" }).click();

  // The card says what the server now holds: paused through May, the next box in June.
  await expect(card.getByTestId("paused-until")).toHaveText("Paused until June 1st");
  await expect(card.getByTestId("skipped-month")).toHaveText(["Skipped: April 2026", "Skipped: May 2026"]);
  await expect(card.getByText("Next box: June 1, 2026")).toBeVisible();
  await expect(card.getByRole("button", { name: "Skip a month" })).toBeDisabled();
  await expect(card.getByRole("button", { name: "Pause", exact: true })).toHaveCount(0);
  await shot(page, "pause-card-paused");
  await expectAccessible(page);

  // May taken back: the pause is April alone, payments resume May 1st.
  await card.getByRole("button", { name: "Unskip May 2026" }).click();
  await expect(card.getByRole("status")).toHaveText("Your May box is back on.");
  await expect(card.getByTestId("paused-until")).toHaveText("Paused until May 1st");
  await expect(card.getByTestId("skipped-month")).toHaveText(["Skipped: April 2026 · payments resume May 1st"]);
  await expect(card.getByText("Next box: May 1, 2026")).toBeVisible();
  await shot(page, "pause-card-unskipped");

  await card.getByRole("button", { name: "Resume now" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Resume your membership?" });
  await expect(confirm).toContainText(`Your ${business.name} membership is paused for April 2026.`);
  await confirm.getByRole("button", { name: "Resume now" }).click();
  const resumed = page.getByRole("dialog", { name: "Membership resumed" });
  await expect(resumed.getByText("Your boxes for April 2026 are back on.")).toBeVisible();
  await resumed.getByRole("button", { name: "Done" }).click();
  await expect(card.getByTestId("paused-until")).toHaveCount(0);
  await expect(card.getByTestId("skipped-month")).toHaveCount(0);
  await expect(card.getByText("Next box: April 1, 2026")).toBeVisible();
  await expect(card.getByRole("button", { name: "Pause", exact: true })).toBeEnabled();
});

test("the page editor's longest pause is saved and bounds a member's pause", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto(`/admin/business/${business.id}/page`);
  await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible();
  const field = page.getByLabel("Longest pause (months)");
  await expect(field).toHaveValue("3");
  await expect(page.getByText("0: members cannot pause")).toBeVisible();
  // Beyond 12 the server refuses the save and says why under the field.
  await field.fill("20");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.locator("#panel-subscription").getByText("Longest pause must be between 0 and 12 months")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await editorShot(page, "pause-editor-refused");
  await field.fill("1");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Longest pause (months)")).toHaveValue("1");
  await editorShot(page, "pause-editor-field");
});

test("a member may pause only as long as the page allows: the server refuses longer", async ({ page }) => {
  await pinClock(page);
  await login(page, `/b/${business.slug}/membership`, bounded, PASSWORD);
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const card = page.getByTestId("subscription-card").filter({ hasText: business.name });
  await card.getByRole("button", { name: "Pause", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: "Pause your membership" });
  await expect(dialog.getByRole("radio")).toHaveCount(1);
  await expect(dialog.getByRole("radio", { name: "1 month" })).toBeChecked();
  // A pause of two months sent anyway (as from a page opened before the owner's change) is the server's to refuse.
  await page.route("**/graphql", async (route) => {
    const body = route.request().postDataJSON() as { query?: string; variables?: { input?: Record<string, unknown> } } | null;
    if (body?.query?.includes("PauseDialogMutation") && body.variables?.input) {
      body.variables.input.months = 2;
      await route.continue({ postData: JSON.stringify(body) });
      return;
    }
    await route.continue();
  });
  await dialog.getByRole("button", { name: "Pause membership" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("You can pause for at most 1 month.");
  await dialog.getByRole("button", { name: "Keep my boxes" }).click();
  await expect(card.getByRole("alert")).toHaveText("You can pause for at most 1 month.");
  await expect(card.getByTestId("paused-until")).toHaveCount(0);
  // Nothing was written: April is still the next box's month, not skipped.
  await expect(card.getByTestId("skipped-month")).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Skip a month" })).toBeEnabled();
});
