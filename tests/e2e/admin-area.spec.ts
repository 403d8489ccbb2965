import { expect, test } from "@playwright/test";
import { CLOCK, gql, loginAs, screenshots } from "./admin-support.ts";

test.describe("admin area", () => {
  test("without a session the admin area sends to /membership with the wanted path", async ({ page }) => {
    await page.clock.install({ time: CLOCK });
    await page.goto("/admin/coupons");
    await expect(page).toHaveURL(/\/membership\?r=%2Fadmin%2Fcoupons$/);
  });

  test("the public pages do not load the admin bundle", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(scripts.some((u) => /Admin|NextBox|Memberships|Coupons|RecentSubscriptions/.test(u))).toBe(false);
  });

  test("admin dashboard shows metrics, charts and recent subscriptions; logout clears the session", async ({ page }) => {
    await loginAs(page, "admin", "admin1234");
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.getByText("Active members").first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Recent subscriptions" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Subscriptions by business" })).toBeVisible();
    await screenshots(page, "dashboard");
    await page.getByRole("complementary").getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/membership$/);
    expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
  });

  test("mobile menu opens the navigation", async ({ page }) => {
    await loginAs(page, "admin", "admin1234");
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/admin");
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("dialog").getByRole("link", { name: "Coupons" }).click();
    await expect(page).toHaveURL(/\/admin\/coupons$/);
    await expect(page.getByRole("heading", { level: 1, name: "Coupons" })).toBeVisible();
  });

  test("the owner lands on their business dashboard and cannot reach other businesses or admin pages", async ({ page }) => {
    const session = await loginAs(page, "owner", "owner1234");
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/business\/\d+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Green Acres Farm" })).toBeVisible();
    const ownId = Number(new URL(page.url()).pathname.split("/").pop());
    await screenshots(page, "business-dashboard");

    // Only their own members.
    await page.getByRole("link", { name: "View memberships" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Memberships" })).toBeVisible();
    const rows = page.getByTestId("membership-row");
    await expect(rows.first()).toBeVisible();
    for (const text of await rows.allInnerTexts()) expect(text).toContain("Green Acres Farm");

    // Admin-only pages: the guard sends them to My Businesses.
    for (const path of ["/admin/coupons", "/admin/users", "/admin/businesses", "/admin/page"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/admin\/my$/);
    }
    await expect(page.getByText("Businesses you own. Select one to edit its page or view the live site.")).toBeVisible();
    await expect(page.getByRole("link", { name: "View Site of Green Acres Farm" })).toHaveAttribute("href", "/b/green-acres-farm");
    await screenshots(page, "my-businesses");

    // Another business: the server refuses its data.
    const all = await gql(page.request, session.token, `{ businesses(first: 20) { edges { node { databaseId slug } } } }`);
    const other = all.data.businesses.edges.map((e: { node: { databaseId: number; slug: string } }) => e.node).find((b: { databaseId: number }) => b.databaseId !== ownId);
    const refused = await gql(page.request, session.token, `query($id: Int!) { adminBusiness(id: $id) { name metrics { totals { subscriptionsAll } } } }`, { id: other.databaseId });
    expect(refused.data?.adminBusiness?.metrics ?? null).toBeNull();
    await page.goto(`/admin/business/${other.databaseId}`);
    await expect(page.getByText(/No businesses found|not authori|forbidden|denied/i).first()).toBeVisible();
  });
});
