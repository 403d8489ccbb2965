import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { gql, loginAs } from "./admin-support.ts";
import { CLOCK, pinClock, shot } from "./member-support.ts";
import { adminToken, checkout, connectPayouts, memberSession, runSuffix } from "./tenant-support.ts";

const SHOTS = process.env.E2E_SCREENSHOT_DIR ?? "test-results/screenshots";
const CAPACITY_MESSAGE = "Maximum members must be a whole number from 0 to 100,000 (leave it empty for no limit).";

test("an owner sets Maximum members in the page editor; the business page shows Sold out and disables that choice", async ({ page, browser, request }) => {
  test.setTimeout(90_000);
  const token = await adminToken(request);
  const slug = `capacity-farm-${runSuffix()}`;
  const created = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { ... on CreateBusinessSuccess { data { databaseId } } ... on Error { message } } }`, {
    input: { name: "Capacity Farm", slug },
  });
  const businessId = created.data.createBusiness.data.databaseId as number;
  await connectPayouts(request, token, businessId);
  const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
    input: {
      businessId,
      content: { brand: { name: "Capacity Farm" }, fulfillment: { pickup: true, shipping: true, pickupPoints: ["Barn door"] } },
      plans: [
        { name: "Last Box", pickupCents: 2000, shippingCents: 2500 },
        { name: "Open Box", pickupCents: 1500, shippingCents: 2000 },
      ],
    },
  });
  expect(saved.data.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");
  try {
    await loginAs(page, "admin", "admin1234");
    await page.goto(`/admin/business/${businessId}/page`);
    await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible();

    // The whole plan: a bad value is refused in the dialog, 0 closes it.
    await page.getByRole("button", { name: "Edit Last Box" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Maximum members", { exact: true }).fill("2.5");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText(CAPACITY_MESSAGE)).toBeVisible();
    await dialog.getByLabel("Maximum members", { exact: true }).fill("0");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();

    // One mode of the other plan.
    await page.getByRole("button", { name: "Edit Open Box" }).click();
    await expect(dialog.getByLabel("Maximum members (Pickup)")).toHaveValue("");
    await dialog.getByLabel("Maximum members (Shipping)").fill("0");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();

    const read = await gql(request, token, `query($slug: String!) { business(slug: $slug) { plans(first: 5) { edges { node { name capacity variations { mode capacity } } } } } }`, { slug });
    expect(read.data.business.plans.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { name: "Last Box", capacity: 0, variations: [{ mode: "PICKUP", capacity: null }, { mode: "SHIPPING", capacity: null }] },
      { name: "Open Box", capacity: null, variations: [{ mode: "PICKUP", capacity: null }, { mode: "SHIPPING", capacity: 0 }] },
    ]);

    // A visitor: the full plan and the full mode say so and cannot be chosen; the open ones can.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await pinClock(visitor);
    await visitor.goto(`/b/${slug}`);
    await expect(visitor.getByRole("radio", { name: "Last Box (Sold out)" })).toBeDisabled();
    await expect(visitor.getByRole("radio", { name: "Open Box" })).toBeChecked();
    await expect(visitor.getByRole("radio", { name: /^Shipping.*\(Sold out\)$/ })).toBeDisabled();
    await expect(visitor.getByRole("radio", { name: "Pickup" })).toBeChecked();
    await expect(visitor.getByTestId("sold-out")).toHaveCount(2);
    await expect(visitor.getByTestId("sold-out").first()).toHaveText("Sold out");
    await expect(visitor.getByRole("button", { name: "Checkout" })).toBeEnabled();
    // A selection stored before the plan filled up: checkout shows the server's refusal.
    const lastRef = await gql(request, token, `query($slug: String!) { business(slug: $slug) { plans(first: 1) { edges { node { ref } } } } }`, { slug });
    await visitor.evaluate(
      ({ slug, planRef, ts }) =>
        localStorage.setItem(
          "membership_selection",
          JSON.stringify({ businessSlug: slug, mode: "pickup", fulfillmentMode: "pickup", chosenItemId: planRef, chosenItemName: "Last Box", chosenAddonIds: [], chosenAddons: [], price: "$20.00", ts }),
        ),
      { slug, planRef: lastRef.data.business.plans.edges[0].node.ref as string, ts: CLOCK.getTime() },
    );
    await visitor.goto(`/b/${slug}/membership/checkout`);
    await expect(visitor.getByTestId("order-summary-refusal")).toHaveText("This box is sold out.");
    await visitor.goto(`/b/${slug}`);
    await expect(visitor.getByTestId("sold-out")).toHaveCount(2);
    // The badges and disabled choices keep the page free of serious axe findings (as accessibility.spec.ts).
    const { violations } = await new AxeBuilder({ page: visitor }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(" | ")}`)).toEqual([]);
    await visitorContext.close();
  } finally {
    await gql(request, token, `mutation($input: DeleteBusinessInput!) { deleteBusiness(input: $input) { __typename } }`, { input: { businessId } });
  }
});

test("a member changes only the mode within their full plan; a mode full by its own capacity still refuses", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const token = await adminToken(request);
  const slug = `capacity-change-${runSuffix()}`;
  const created = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { ... on CreateBusinessSuccess { data { databaseId } } ... on Error { message } } }`, {
    input: { name: "Capacity Change Farm", slug },
  });
  const businessId = created.data.createBusiness.data.databaseId as number;
  await connectPayouts(request, token, businessId);
  const content = { brand: { name: "Capacity Change Farm" }, fulfillment: { pickup: true, shipping: true, pickupPoints: ["Barn door"] } };
  const save = async (plan: Record<string, unknown>) => {
    const saved = await gql(request, token, `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`, {
      input: { businessId, content, plans: [{ name: "Last Box", pickupCents: 2000, shippingCents: 2500, ...plan }] },
    });
    expect(saved.data.saveBusinessPage.__typename, JSON.stringify(saved)).toBe("SaveBusinessPageSuccess");
  };
  await save({});
  const planRef = (await gql(request, token, `query($slug: String!) { business(slug: $slug) { plans(first: 1) { edges { node { ref } } } } }`, { slug })).data.business.plans.edges[0].node.ref as string;
  /** The plan's capacity and its shipping's (null: no limit), the plan kept by its ref. */
  const capacities = (capacity: number | null, shippingCapacity: number | null) => save({ ref: planRef, capacity, shippingCapacity });
  try {
    // A member holds a place of Last Box, in pickup.
    const username = `cap${runSuffix()}`;
    const memberToken = await memberSession(request, token, username, "secret1234");
    await checkout(request, memberToken, { id: businessId, slug, name: "Capacity Change Farm", planRef }, `${username}@example.com`);
    await loginAs(page, username, "secret1234");
    const update = page.getByRole("button", { name: "Update" });
    const shipping = page.getByRole("radio", { name: /^Shipping/ });
    const dialog = page.getByRole("alertdialog");

    // The plan has room, its shipping is full by its own capacity: shipping is sold out for the member too.
    await capacities(5, 0);
    await page.goto(`/b/${slug}?change=true`);
    await expect(page.getByRole("radio", { name: "Last Box" })).toBeChecked();
    await expect(page.getByRole("radio", { name: "Pickup" })).toBeChecked();
    await expect(page.getByRole("radio", { name: /^Shipping.*\(Sold out\)$/ })).toBeDisabled();
    await expect(update).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/capacity-change-mode-full.png`, fullPage: true });

    // The plan is full (the member's own place is its last): still the member's to change within, but shipping is
    // full by its own capacity, and the server's answer for the member (soldOutForChange) says so.
    await capacities(1, 0);
    await page.reload();
    await expect(page.getByRole("radio", { name: "Last Box" })).toBeEnabled();
    await expect(page.getByRole("radio", { name: "Last Box" })).toBeChecked();
    await expect(page.getByRole("radio", { name: /^Shipping.*\(Sold out\)$/ })).toBeDisabled();
    await expect(page.getByTestId("sold-out")).toHaveCount(1);
    await expect(update).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/capacity-change-refused.png` });

    // Shipping without a limit of its own: the member moves to it although the plan is full for everyone else.
    await capacities(1, null);
    await page.reload();
    await expect(page.getByRole("radio", { name: "Last Box" })).toBeChecked();
    await expect(page.getByTestId("sold-out")).toHaveCount(0);
    await shot(page, "capacity-change-own-plan");
    await shipping.check();
    await expect(update).toBeEnabled();
    await update.click();
    await expect(dialog.getByTestId("change-quote")).toHaveText("New monthly price: $25.00 / month, from April 2026.");
    await page.screenshot({ path: `${SHOTS}/capacity-change-dialog.png` });
    await dialog.getByRole("button", { name: "Confirm update" }).click();
    await expect(dialog.getByRole("heading", { name: "Update scheduled" })).toBeVisible();
    await expect(page).toHaveURL(/\/membership\?changed=1$/, { timeout: 10_000 });

    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await pinClock(visitor);
    await visitor.goto(`/b/${slug}`);
    await expect(visitor.getByRole("radio", { name: "Last Box (Sold out)" })).toBeDisabled();
    await expect(visitor.getByRole("button", { name: "Checkout" })).toBeDisabled();
    await visitorContext.close();
  } finally {
    await gql(request, token, `mutation($input: DeleteBusinessInput!) { deleteBusiness(input: $input) { __typename } }`, { input: { businessId } });
  }
});
