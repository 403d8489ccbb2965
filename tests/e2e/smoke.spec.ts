import { expect, test, type Page } from "@playwright/test";

const SEEDED = [
  { slug: "green-acres-farm", name: "Green Acres Farm" },
  { slug: "ember-oak-coffee", name: "Ember & Oak Coffee Roasters" },
  { slug: "rise-and-crumb-bakery", name: "Rise & Crumb Bakery" },
];

const WIDTHS = [375, 1280];

async function screenshotAtWidths(page: Page, path: string, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
  }
}

test("home page loads with its calls to action and FAQs", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Frequently asked questions" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Start Your Membership" })).toHaveAttribute("href", "/businesses");
  await expect(page.getByRole("main").getByRole("link", { name: "Login" })).toHaveAttribute("href", "/membership");
  for (const label of ["Contact", "Privacy Policy", "Terms of Use", "Refund Policy"]) {
    await expect(page.getByRole("contentinfo").getByRole("link", { name: label })).toBeVisible();
  }
  await screenshotAtWidths(page, "/", "home");
});

test("businesses page lists the seeded businesses from the API", async ({ page }) => {
  await page.goto("/businesses");
  for (const b of SEEDED) {
    await expect(page.getByRole("link", { name: b.name })).toBeVisible();
    await expect(page.getByRole("img", { name: `${b.name} logo` })).toBeVisible();
  }
  // Other specs share this server and may add businesses of their own: the seeded ones must all be there.
  await expect.poll(() => page.getByTestId("business-card").count()).toBeGreaterThanOrEqual(SEEDED.length);
  await screenshotAtWidths(page, "/businesses", "businesses");
});

test("a business card opens the business page", async ({ page }) => {
  await page.goto("/businesses");
  await page.getByRole("link", { name: "Green Acres Farm" }).click();
  await expect(page).toHaveURL(/\/b\/green-acres-farm$/);
  await expect(page.getByRole("heading", { level: 1, name: "Green Acres Farm" })).toBeVisible();
  // Loaded directly too (server-side SPA fallback), not only through client navigation.
  await page.goto("/b/rise-and-crumb-bakery");
  await expect(page.getByRole("heading", { level: 1, name: "Rise & Crumb Bakery" })).toBeVisible();
  await screenshotAtWidths(page, "/b/green-acres-farm", "business");
});

test("an unknown business slug shows not found", async ({ page }) => {
  await page.goto("/b/no-such-business");
  await expect(page.getByRole("heading", { level: 1, name: "Business not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Browse businesses" })).toBeVisible();
});

test("an unknown path shows the not-found page", async ({ page }) => {
  await page.goto("/this/does/not/exist");
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
});

test("businesses page shows the load error with Try Again, which refetches", async ({ page }) => {
  let failNext = true;
  await page.route("**/graphql", async (route) => {
    if (failNext) {
      failNext = false;
      return route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ errors: [{ message: "boom" }] }) });
    }
    return route.continue();
  });
  await page.goto("/businesses");
  await expect(page.getByText("Failed to load businesses. Please try again.")).toBeVisible();
  await page.getByRole("button", { name: "Try Again" }).click();
  for (const b of SEEDED) await expect(page.getByRole("link", { name: b.name })).toBeVisible();
});

test("businesses page shows the empty state when there are none", async ({ page }) => {
  await page.route("**/graphql", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ data: { businesses: { edges: [], pageInfo: { endCursor: null, hasNextPage: false } } } }),
    }),
  );
  await page.goto("/businesses");
  await expect(page.getByText("No businesses available")).toBeVisible();
  await expect(page.getByText("Check back later for new membership opportunities.")).toBeVisible();
});

test("a page reloaded after navigating inside the app asks for its data once", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Start Your Membership" }).click();
  await expect(page.getByRole("link", { name: SEEDED[0].name })).toBeVisible();
  // The history entry now has React Router's key: the reload's first location takes it, not "default".
  const asked: string[] = [];
  page.on("request", (request) => {
    const body = request.method() === "POST" && request.url().endsWith("/graphql") ? request.postData() ?? "" : "";
    if (body.includes("query BusinessesRouteQuery")) asked.push(body);
  });
  await page.reload();
  for (const b of SEEDED) await expect(page.getByRole("link", { name: b.name })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(asked).toHaveLength(1);
});
