import { expect, test } from "@playwright/test";
import { gql, loginAs } from "./admin-support.ts";
import { CLOCK } from "./member-support.ts";
import { checkLayout } from "./layout-support.ts";

// The admin dashboard at phone and desktop widths, the Next Box editor of a business the owner is not attached to,
// the past-due memberships filter, the Profile state list and the home page sections.

test("the admin dashboard fits at 375 and 1280 px, Recent subscriptions whole", async ({ page }, testInfo) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  const table = page.getByTestId("recent-subscriptions");
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  await checkLayout(page, testInfo, "admin-dashboard", (p) => [p.getByRole("heading", { name: "Recent subscriptions" }), p.getByTestId("recent-subscriptions")]);
  // At 1280 px the table is not cut: every column fits its panel without scrolling.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(table.getByRole("columnheader", { name: "Started" })).toBeInViewport();
  const { scrollWidth, clientWidth } = await table.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
});

test("an owner opening another business's Next Box gets an access message, not an editor", async ({ page }, testInfo) => {
  const session = await loginAs(page, "owner", "owner1234");
  const all = await gql(page.request, session.token, `{ businesses(first: 20) { edges { node { databaseId slug } } } }`);
  const other = all.data.businesses.edges.map((e: { node: { databaseId: number; slug: string } }) => e.node).find((b: { slug: string }) => b.slug !== "green-acres-farm");
  await page.goto(`/admin/business/${other.databaseId}/next-box`);
  await expect(page.getByText("This business does not exist or you do not have access to it.")).toBeVisible();
  await expect(page.getByRole("group", { name: "Next Box content" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save Changes" })).toHaveCount(0);
  await checkLayout(page, testInfo, "next-box-no-access", (p) => [p.getByText("This business does not exist or you do not have access to it.")]);
});

test("the memberships status filter shows past-due members", async ({ page }) => {
  const session = await loginAs(page, "admin", "admin1234");
  // The option lists what the server's PAST_DUE filter lists (tests/integration/memberships-list.test.ts checks
  // the filter itself on memberships of every status).
  const pastDue = await gql(page.request, session.token, `{ memberships(first: 50, status: PAST_DUE) { edges { node { databaseId status } } } }`);
  expect(pastDue.errors).toBeUndefined();
  for (const e of pastDue.data.memberships.edges) expect(e.node.status).toBe("PAST_DUE");
  await page.goto("/admin/memberships");
  const status = page.getByLabel("Status");
  await expect(status.locator("option")).toHaveText(["Any status", "Active", "Past due", "Paused", "Ending", "Canceled"]);
  await status.selectOption("PAST_DUE");
  if (pastDue.data.memberships.edges.length === 0) await expect(page.getByText("No memberships found")).toBeVisible();
  else await expect(page.getByTestId("membership-row")).toHaveCount(pastDue.data.memberships.edges.length);
});

test("Profile's State is the checkout's state list", async ({ page }) => {
  await loginAs(page, "member", "member1234");
  await page.goto("/membership");
  await page.getByRole("tab", { name: "Profile" }).first().click();
  const state = page.getByRole("combobox", { name: "State" });
  await expect(state).toBeVisible();
  await expect(state.locator("option", { hasText: "WY" })).toHaveCount(1);
  await state.selectOption("OR");
  await expect(state).toHaveValue("OR");
});

test("the home page has the stats and testimonial sections, its figures the API's counts", async ({ page }, testInfo) => {
  await page.clock.install({ time: CLOCK });
  const stats = page.getByTestId("home-stats");
  const count = new Intl.NumberFormat("en-US");
  // Retried from a fresh load: a background renewal may land between the page's read and the API's.
  await expect(async () => {
    await page.goto("/");
    await expect(page.getByRole("region", { name: "Membership stats" })).toBeVisible();
    await expect(stats).toHaveAttribute("aria-busy", "false");
    const shown = Object.fromEntries(
      await stats.locator("dt").evaluateAll((terms) => terms.map((dt) => [dt.textContent, dt.parentElement!.querySelector("dd")!.textContent])),
    );
    const api = await page.request.post("/graphql", { data: { query: "{ platformStats { businesses members boxesDelivered } }" } });
    const { businesses, members, boxesDelivered } = (await api.json()).data.platformStats as Record<string, number>;
    expect(shown).toEqual({ "Local businesses": count.format(businesses), Members: count.format(members), "Boxes delivered": count.format(boxesDelivered), "Ways to get your box": "3" });
    // The demo data's own businesses at least, and boxes delivered before the demo day.
    expect(businesses).toBeGreaterThanOrEqual(3);
    expect(boxesDelivered).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  await expect(stats.locator("dd")).toHaveCount(4);
  await expect(page.getByText("Average member rating")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "What members say" }).locator("blockquote")).toBeVisible();
  await checkLayout(page, testInfo, "home", (p) => [p.getByTestId("home-stats"), p.getByTestId("home-testimonial"), p.getByRole("link", { name: "Start Your Membership" })]);
});
