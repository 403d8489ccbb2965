import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { apiLogin, gql, loginAs } from "./admin-support.ts";
import { useOwnServer } from "./own-server.ts";
import { fillCard, login, pinClock } from "./member-support.ts";

// An owner walks Green Acres Farm (billed on the 1st, cutoff on the 25th, New York) through April 2026 on the
// Fulfilment screen while an administrator moves the demo clock (moveDemoClock). The clock moves, renewals run and
// April freezes, which the shared server of the other specs must not see: this spec starts a server of its own
// (server/main.ts on a fresh embedded database with the demo data, CLOCK_START, the job queue). Before April, a visitor
// buys a gift box and the demo member saves a card whose charges are declined: April's lists show the gift (recipient,
// message) and the member on hold, out of the boxes to pack, on the screen, on paper and in the CSV.
const APRIL = "2026-04";
const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";

useOwnServer({
  name: "fulfilment",
  // Renewals run when the test moves the clock, not on a schedule; sessions outlive the month walked through.
  env: { SEED_DEMO: "1", BILLING_INTERVAL_MINUTES: "0", SESSION_TTL_DAYS: "365" },
});

const CYCLE = `query($slug: String!, $month: String) { business(slug: $slug) { databaseId fulfilment(month: $month) { state totals { expectedRevenueCents paidCents boxes held } members { memberName outlook amountCents } } } }`;
const cycleOf = async (request: APIRequestContext, token: string) => (await gql(request, token, CYCLE, { slug: "green-acres-farm", month: APRIL })).data.business.fulfilment;
const dollars = (cents: number) => `$${(cents / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;

async function moveClock(request: APIRequestContext, adminToken: string, to: string) {
  const res = await gql(request, adminToken, `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on MoveDemoClockSuccess { data { now renewalQueued } } ... on Error { message } } }`, { to });
  expect(res.data.moveDemoClock, JSON.stringify(res)).toMatchObject({ __typename: "MoveDemoClockSuccess", data: { renewalQueued: true } });
}

/** The gift a visitor buys on March 5 (delivered to a Green Acres delivery area), packed in April. */
const GIFT = { recipient: "Rosa Giftee", message: "Happy spring, Rosa!", area: "Hudson and Stow", instructions: "Leave by the side gate" };
/** The screen's word for a box whose charge failed (web/src/features/admin/packing/format.ts HOLD_LABEL) and the CSV's. */
const HOLD_ON_SCREEN = "Hold — payment failed";
const HOLD_IN_CSV = "hold — payment failed";

/** A visitor buys a gift membership through the business page and checkout (paid with a good card). */
async function buyGift(browser: Browser) {
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await pinClock(visitor);
  await visitor.goto("/b/green-acres-farm");
  await visitor.getByRole("radio", { name: /^Delivery/ }).check();
  await visitor.getByRole("radiogroup", { name: "Choose a delivery area" }).getByRole("radio", { name: GIFT.area }).check();
  await visitor.getByRole("button", { name: "Checkout" }).click();
  await expect(visitor.getByRole("heading", { name: "Contact & Account Information" })).toBeVisible();
  const username = `gift${Date.now() % 100000}`;
  await visitor.getByLabel("Email").fill(`${username}@example.com`);
  await visitor.getByLabel("Username").fill(username);
  await expect(visitor.getByTestId("username-status")).toHaveText("Username is available");
  await visitor.getByLabel("Password").fill("secret1234");
  await visitor.getByText("This is a gift subscription").click();
  await visitor.getByLabel("Gift message (optional)").fill(GIFT.message);
  await visitor.getByRole("button", { name: "Continue to Address" }).click();
  await visitor.getByLabel("Full name").fill(GIFT.recipient);
  await visitor.getByLabel("Phone").fill("330-555-0142");
  await visitor.getByLabel("Street address").fill("12 Orchard Ln");
  await visitor.getByLabel("City").fill("Hudson");
  await visitor.getByLabel("State").selectOption("OH");
  await visitor.getByLabel("Zip code").fill("44236");
  await visitor.getByLabel("Delivery instructions (optional)").fill(GIFT.instructions);
  await visitor.getByRole("button", { name: "Continue to Review" }).click();
  await expect(visitor.getByRole("heading", { name: "Review & Payment" })).toBeVisible();
  await fillCard(visitor, "4242 4242 4242 4242");
  await visitor.getByRole("button", { name: /^Pay / }).click();
  await expect(visitor.getByRole("heading", { name: "Subscription Activated!" })).toBeVisible();
  await context.close();
}

/**
 * The demo member saves a card that can be saved but whose every charge is declined (the sandbox's
 * 4000 0000 0000 0341), so their April renewal fails.
 */
async function saveFailingCard(browser: Browser) {
  const context = await browser.newContext();
  const member = await context.newPage();
  await pinClock(member);
  await login(member, "/membership");
  await member.getByRole("tab", { name: "Profile" }).click();
  const section = member.getByRole("region", { name: "Payment card" });
  await section.getByRole("button", { name: "Update card" }).click();
  await fillCard(member, "4000 0000 0000 0341");
  await section.getByRole("button", { name: "Save card" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Card updated successfully." })).toBeVisible();
  await context.close();
}

/** The rows of a CSV (RFC 4180: quoted cells may hold commas, quotes and line breaks), keyed by the header. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endRow = () => {
    row.push(cell);
    rows.push(row);
    row = [];
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ",") {
      row.push(cell);
      cell = "";
    } else if (!quoted && c === "\r" && text[i + 1] === "\n") {
      endRow();
      i++;
    } else {
      cell += c;
    }
  }
  if (cell !== "" || row.length > 0) endRow();
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
}

/** Pages of a PDF Chromium printed (its page objects are not compressed). */
const pdfPages = (pdf: Buffer) => (pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g) ?? []).length;

async function shoot(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/fulfilment-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("an owner follows April from the preview through the renewal run and the freeze, prints the slips and downloads the list", async ({ page, request, browser }) => {
  test.setTimeout(300_000);
  const admin = await apiLogin(request, "admin", "admin1234");
  // March 5: a visitor buys a gift box, and the demo member saves a card whose charges are declined.
  await buyGift(browser);
  await saveFailingCard(browser);
  const owner = await loginAs(page, "owner", "owner1234");
  const before = await cycleOf(request, owner.token);
  const businessId = (await gql(request, owner.token, `{ business(slug: "green-acres-farm") { databaseId } }`)).data.business.databaseId as number;
  expect(before.state).toBe("OPEN");
  const toCharge = before.members.filter((m: { outlook: string }) => m.outlook === "WILL_CHARGE");
  expect(toCharge.length).toBeGreaterThan(0);

  // The preview: opened from the sidebar (the month whose box is next, March here), then April.
  await page.goto(`/admin/business/${businessId}`);
  await page.getByRole("link", { name: "Fulfilment" }).first().click();
  await expect(page.getByRole("heading", { name: "Fulfilment", level: 1 })).toBeVisible();
  await expect(page.getByText("Green Acres Farm · March 2026")).toBeVisible();
  await page.getByRole("button", { name: "Next month" }).click();
  await expect(page.getByText("Green Acres Farm · April 2026")).toBeVisible();
  await expect(page.getByTestId("cycle-state")).toHaveText("Open: preview");
  await expect(page.getByTestId("expected-revenue")).toHaveText(dollars(before.totals.expectedRevenueCents));
  const preview = page.getByTestId("members-preview");
  for (const m of toCharge) await expect(preview.getByRole("row").filter({ hasText: m.memberName }).first()).toContainText(`Will be charged on Apr 1, 2026 for ${dollars(m.amountCents)}`);
  await shoot(page, "preview");
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  // The billing day: the renewal run charges April, to the cent what the preview said, except the declined card.
  await moveClock(request, admin.token, "2026-04-01T16:00:00Z");
  await expect.poll(async () => (await cycleOf(request, owner.token)).members.filter((m: { outlook: string }) => m.outlook === "WILL_CHARGE").length, { timeout: 60_000, intervals: [1000] }).toBe(0);
  const charged = await cycleOf(request, owner.token);
  const retrying = charged.members.filter((m: { outlook: string }) => m.outlook === "RETRY") as { memberName: string; amountCents: number }[];
  expect(retrying).toHaveLength(1);
  const declined = retrying[0];
  expect(toCharge.map((m: { memberName: string }) => m.memberName)).toContain(declined.memberName);
  const paidFor = toCharge.filter((m: { memberName: string }) => m.memberName !== declined.memberName);
  const orders = (await gql(request, owner.token, `{ business(slug: "green-acres-farm") { orders(first: 100) { edges { node { period kind totalCents } } } } }`)).data.business.orders.edges
    .map((e: { node: { period: string; kind: string; totalCents: number } }) => e.node)
    .filter((o: { period: string; kind: string }) => o.period === APRIL && o.kind === "RENEWAL");
  const renewed = orders.reduce((n: number, o: { totalCents: number }) => n + o.totalCents, 0);
  expect(orders).toHaveLength(paidFor.length);
  expect(renewed).toBe(paidFor.reduce((n: number, m: { amountCents: number }) => n + m.amountCents, 0));
  expect(charged.totals.paidCents).toBe(before.totals.expectedRevenueCents - declined.amountCents);
  expect(charged.totals.held).toBe(1);
  await page.reload();
  await expect(page.getByTestId("expected-revenue")).toHaveText(dollars(charged.totals.expectedRevenueCents));
  await expect(page.getByText(`Paid ${dollars(charged.totals.paidCents)}`)).toBeVisible();
  // The box on hold is not one to pack: the totals leave it out.
  await expect(page.getByTestId("totals-grand")).toHaveText(String(charged.totals.boxes));

  // Past the cutoff day (the 25th): the next renewal pass completes and the freeze follows it.
  await moveClock(request, admin.token, "2026-04-26T13:00:00Z");
  await expect.poll(async () => (await cycleOf(request, owner.token)).state, { timeout: 60_000, intervals: [1000] }).toBe("FROZEN");
  await page.reload();
  await expect(page.getByTestId("cycle-state")).toContainText("Frozen at Apr 26, 2026");
  await expect(page.getByText("No changes since the freeze.")).toBeVisible();

  // A late change: the owner cancels one member's membership; the frozen lists keep the box, the differences say so.
  const frozenBoxes = (await gql(request, owner.token, `{ business(slug: "green-acres-farm") { fulfilment(month: "${APRIL}") { boxes(first: 50) { edges { node { membershipId memberName isGift hold } } } } } }`)).data.business.fulfilment.boxes.edges
    .map((e: { node: unknown }) => e.node) as { membershipId: string; memberName: string; isGift: boolean; hold: string | null }[];
  const leaving = frozenBoxes.find((b) => !b.isGift && !b.hold && b.memberName !== declined.memberName)!;
  const cancel = await gql(request, owner.token, `mutation($id: ID!) { cancelSubscription(input: { subscriptionId: $id, mode: NOW }) { __typename ... on Error { message } } }`, { id: leaving.membershipId });
  expect(cancel.data.cancelSubscription.__typename, JSON.stringify(cancel)).toBe("CancelSubscriptionSuccess");
  await page.reload();
  const differences = page.getByTestId("differences");
  await expect(differences.getByRole("listitem").filter({ hasText: leaving.memberName })).toContainText("Removed");
  await expect(page.getByRole("row").filter({ hasText: leaving.memberName }).first()).toBeVisible();

  // The gift: in its delivery area's group, with the recipient, the message and the instructions.
  const giftText = `Gift for ${GIFT.recipient}: “${GIFT.message}”`;
  const areaGroup = page.locator(".packing-group").filter({ has: page.getByRole("heading", { name: new RegExp(`^Delivery area: ${GIFT.area} \\(\\d+\\)$`) }) });
  const giftRow = areaGroup.getByTestId("packing-row").filter({ hasText: giftText });
  await expect(giftRow).toHaveCount(1);
  await expect(giftRow).toContainText(`Instructions: ${GIFT.instructions}`);
  await expect(giftRow).toContainText("12 Orchard Ln");
  // The declined member: listed, marked on hold, and not among the boxes to pack.
  const heldRow = page.getByTestId("packing-row").filter({ hasText: declined.memberName });
  await expect(heldRow).toHaveCount(1);
  await expect(heldRow).toContainText(HOLD_ON_SCREEN);
  await expect(page.getByTestId("packing-row").filter({ hasText: HOLD_ON_SCREEN })).toHaveCount(1);
  await expect(giftRow).not.toContainText(HOLD_ON_SCREEN);
  const boxes = await page.getByTestId("packing-row").count();
  expect(boxes).toBe(charged.totals.boxes + 1);
  await expect(page.getByTestId("totals-grand")).toHaveText(String(boxes - 1));
  await heldRow.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/fulfilment-hold-and-gift.png`, fullPage: true });
  await shoot(page, "frozen");

  // Print: the lists, then one packing slip per box (page.pdf() prints with the print stylesheet).
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: `${SHOTS}/fulfilment-print-lists.png`, fullPage: true });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  // On paper the lists keep the gift and the hold.
  await expect(giftRow).toBeVisible();
  await expect(heldRow.getByText(HOLD_ON_SCREEN)).toBeVisible();
  const lists = await page.pdf({ format: "A4" });
  expect(lists.subarray(0, 5).toString()).toBe("%PDF-");
  // A page per pickup point and delivery area, and one for the shipping list when it has boxes.
  const groups = await page.locator(".packing-group").count();
  const shipping = await page.locator('section[aria-labelledby="packing-shipping"]:not([data-empty])').count();
  expect(pdfPages(lists)).toBe(groups + shipping);
  await page.emulateMedia({ media: "screen" });
  await page.getByRole("button", { name: "Packing slips" }).click();
  await page.emulateMedia({ media: "print" });
  await page.screenshot({ path: `${SHOTS}/fulfilment-print-slips.png`, fullPage: true });
  const slips = await page.pdf({ format: "Letter" });
  expect(pdfPages(slips)).toBe(boxes);
  const giftSlip = page.getByTestId("packing-slip").filter({ hasText: giftText });
  await expect(giftSlip).toBeVisible();
  await expect(giftSlip).toContainText(`Delivery: ${GIFT.area}`);
  await expect(giftSlip).toContainText(`Instructions: ${GIFT.instructions}`);
  const heldSlip = page.getByTestId("packing-slip").filter({ hasText: declined.memberName });
  await expect(heldSlip.getByText(HOLD_ON_SCREEN)).toBeVisible();
  await expect(page.getByTestId("packing-slip").filter({ hasText: HOLD_ON_SCREEN })).toHaveCount(1);
  await giftSlip.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/fulfilment-print-gift-slip.png` });
  await page.emulateMedia({ media: "screen" });

  // The CSV of all three lists: the header and one row per frozen box, the canceled member's still in it.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV: all lists" }).click()]);
  expect(download.suggestedFilename()).toBe(`packing-green-acres-farm-${APRIL}.csv`);
  const csv = fs.readFileSync(await download.path(), "utf8").trimEnd().split("\r\n");
  expect(csv[0]).toBe("mode,point_or_area,member,email,phone,plan,addons,address_line1,address_line2,city,state,zip,country,instructions,gift_recipient,gift_message,hold,total");
  expect(csv).toHaveLength(boxes + 1);
  expect(csv.some((line) => line.includes(leaving.memberName))).toBe(true);
  const rows = parseCsv(csv.join("\r\n"));
  expect(rows).toHaveLength(boxes);
  const giftLines = rows.filter((r) => r.gift_recipient !== "");
  expect(giftLines.map((r) => ({ mode: r.mode, area: r.point_or_area, recipient: r.gift_recipient, message: r.gift_message, instructions: r.instructions, hold: r.hold }))).toEqual([
    { mode: "Delivery", area: GIFT.area, recipient: GIFT.recipient, message: GIFT.message, instructions: GIFT.instructions, hold: "" },
  ]);
  expect(rows.filter((r) => r.hold !== "").map((r) => [r.member, r.hold])).toEqual([[declined.memberName, HOLD_IN_CSV]]);
});

test("an administrator reaches a business's Fulfilment screen through the business filter", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Fulfilment" }).first().click();
  await expect(page.getByRole("heading", { name: "Fulfilment", level: 1 })).toBeVisible();
  await page.getByLabel("Business").selectOption({ label: "Green Acres Farm" });
  await expect(page).toHaveURL(/\/admin\/business\/\d+\/fulfilment$/);
  // The server's clock stands on April 26 (the journey above): April's box was ready on the 6th, May's is next.
  await expect(page.getByText("Green Acres Farm · May 2026")).toBeVisible();
  await expect(page.getByTestId("cycle-state")).toHaveText("Open: preview");
  await page.getByRole("button", { name: "Previous month" }).click();
  await expect(page.getByText("Green Acres Farm · April 2026")).toBeVisible();
  await expect(page.getByTestId("cycle-state")).toContainText("Frozen at");
});
