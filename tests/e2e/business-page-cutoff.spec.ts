import { expect, test } from "@playwright/test";
import { gql } from "./admin-support.ts";
import { CLOCK, pinClock } from "./member-support.ts";
import { adminToken, connectPayouts, runSuffix } from "./tenant-support.ts";
import { checkLayout } from "./layout-support.ts";

test.beforeEach(async ({ page }) => pinClock(page));

// The business day is March 5th (E2E_CLOCK_START); a cutoff on the 4th makes it the day after the cutoff.
const MESSAGE = "The last day to subscribe for this month has passed. The cutoff day is the 4th of each month. Please try again next month.";

test("past the cutoff day the business page and checkout step 0 refuse before any account is made", async ({ page, request }, testInfo) => {
  const token = await adminToken(request);
  const suffix = runSuffix();
  const slug = `cutoff-dairy-${suffix}`;
  const created = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { ... on CreateBusinessSuccess { data { databaseId } } ... on Error { message } } }`, {
    input: { name: "Cutoff Dairy", slug },
  });
  const businessId = created.data.createBusiness.data.databaseId as number;
  await connectPayouts(request, token, businessId);
  const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
    input: { businessId, content: { brand: { name: "Cutoff Dairy" }, subscriptionCutoffDay: 4, fulfillment: { pickup: true, pickupAddress: "4 Creamery Lane" } }, plans: [{ name: "Milk Box", pickupCents: 2100 }] },
  });
  expect(saved.data.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");
  try {
    // The rule comes from the server's clock.
    const read = await gql(request, token, `query($slug: String!) { business(slug: $slug) { checkoutClosedMessage plans(first: 1) { edges { node { ref } } } } }`, { slug });
    expect(read.data.business.checkoutClosedMessage).toBe(MESSAGE);
    const planRef = read.data.business.plans.edges[0].node.ref as string;

    // Business page: the message before anything is chosen, and no way into checkout.
    await page.goto(`/b/${slug}`);
    await expect(page.getByTestId("cutoff-notice")).toHaveText(MESSAGE);
    await expect(page.getByRole("button", { name: "Checkout" })).toBeDisabled();
    await checkLayout(page, testInfo, "business-page-past-cutoff", (p) => [p.getByTestId("cutoff-notice"), p.getByRole("button", { name: "Checkout" }), p.getByRole("heading", { name: "Choose your box" })]);

    // A selection stored before the cutoff (or a bookmarked checkout): step 0 shows the message instead of the
    // registration form, and the summary shows the refusal instead of "Calculating…".
    await page.evaluate(
      ({ slug, planRef, ts }) =>
        localStorage.setItem(
          "membership_selection",
          JSON.stringify({ businessSlug: slug, mode: "pickup", fulfillmentMode: "pickup", chosenItemId: planRef, chosenItemName: "Milk Box", chosenAddonIds: [], chosenAddons: [], price: "$21.00", ts }),
        ),
      { slug, planRef, ts: CLOCK.getTime() },
    );
    await page.goto(`/b/${slug}/membership/checkout`);
    await expect(page.getByTestId("checkout-closed")).toContainText(MESSAGE);
    await expect(page.getByTestId("order-summary-refusal")).toHaveText(MESSAGE);
    await expect(page.getByText("Calculating…")).toHaveCount(0);
    await expect(page.getByLabel("Username")).toHaveCount(0);
    await expect(page.getByLabel("Password")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Continue to Address" })).toHaveCount(0);
    await checkLayout(page, testInfo, "checkout-past-cutoff", (p) => [p.getByTestId("checkout-closed"), p.getByTestId("order-summary-refusal")]);
    await page.getByRole("button", { name: "← Back to Selection" }).click();
    await expect(page).toHaveURL(new RegExp(`/b/${slug}$`));
  } finally {
    await gql(request, token, `mutation($input: DeleteBusinessInput!) { deleteBusiness(input: $input) { __typename } }`, { input: { businessId } });
  }
});

test("a business before its cutoff day takes checkouts as before", async ({ page }, testInfo) => {
  await page.goto("/b/green-acres-farm");
  await expect(page.getByTestId("cutoff-notice")).toHaveCount(0);
  // Two pickup points: Checkout waits for the member's choice.
  await page.getByRole("radiogroup", { name: "Choose a pickup point" }).getByRole("radio").first().check();
  await expect(page.getByRole("button", { name: "Checkout" })).toBeEnabled();
  await checkLayout(page, testInfo, "business-page", (p) => [p.getByRole("heading", { level: 1, name: "Green Acres Farm" }), p.getByRole("button", { name: "Checkout" })]);
});
