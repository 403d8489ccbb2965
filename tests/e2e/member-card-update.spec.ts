import { expect, test } from "@playwright/test";
import { fillCard, login, pinClock, shot } from "./member-support.ts";

test.beforeEach(async ({ page }) => pinClock(page));

test("a member updates the saved card: a declined card, then a good one", async ({ page }) => {
  await login(page, "/membership");
  // Spec: the header shows the logged-in state instead of "Login".
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "My Membership" })).toBeVisible();
  // One logout control in the portal: its Log Out tab (spec §2), not a second one in the header.
  await expect(header.getByRole("button", { name: "Log out" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Log Out" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Login" })).toHaveCount(0);

  await page.getByRole("tab", { name: "Profile" }).click();
  const section = page.getByRole("region", { name: "Payment card" });
  await expect(section.getByTestId("saved-card")).toHaveText(/^Visa •••• 4242, expires \d{2}\/\d{4}$/);

  await section.getByRole("button", { name: "Update card" }).click();
  await fillCard(page, "4000 0000 0000 0002");
  await shot(page, "portal-card-update-form");
  await section.getByRole("button", { name: "Save card" }).click();
  const error = section.getByRole("alert");
  await expect(error).toContainText("Your card was declined.");
  await shot(page, "portal-card-update-declined");
  await expect(section.getByRole("button", { name: "Save card" })).toBeDisabled();
  await error.getByRole("button", { name: "Try Again" }).click();

  await fillCard(page, "5555 5555 5555 4444");
  await section.getByRole("button", { name: "Save card" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Card updated successfully." })).toBeVisible();
  await expect(section.getByTestId("saved-card")).toHaveText("Mastercard •••• 4444, expires 12/2030");
  // Spec §9: the form closes 1.5 s later.
  await expect(section.getByText("Card updated successfully.")).toBeHidden({ timeout: 5000 });
  await expect(section.getByRole("button", { name: "Update card" })).toBeVisible();
  await expect(section.getByTestId("saved-card")).toHaveText("Mastercard •••• 4444, expires 12/2030");
  await shot(page, "portal-card-updated");
});

test("the card update form reports a card it cannot validate", async ({ page }) => {
  await login(page, "/membership");
  await page.getByRole("tab", { name: "Profile" }).click();
  const section = page.getByRole("region", { name: "Payment card" });
  await section.getByRole("button", { name: "Update card" }).click();
  await page.getByLabel("Card number").fill("4242 4242");
  await section.getByRole("button", { name: "Save card" }).click();
  await expect(section.getByRole("alert")).toContainText("Your card number is incomplete.");
  await section.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByLabel("Card number")).toHaveCount(0);
  await expect(section.getByTestId("saved-card")).toContainText("••••");
});

test("the past-due notice opens the card update form", async ({ page }) => {
  // The demo data has no declined renewal: show the portal with its membership past due until the card is saved
  // (the portal may load more than once after the login).
  let pastDue = true;
  await page.route("**/graphql", async (route) => {
    const body = route.request().postDataJSON() as { query?: string } | null;
    if (!pastDue || !body?.query?.startsWith("query MembershipRouteQuery")) return route.continue();
    const response = await route.fetch();
    const json = await response.json();
    if (!json.data?.viewer) return route.fulfill({ response, json });
    // The portal lists every business's membership: make Green Acres' one past due.
    json.data.viewer.subscriptions.find((s: { business: { slug: string } }) => s.business.slug === "green-acres-farm").status = "PAST_DUE";
    return route.fulfill({ response, json });
  });
  await login(page, "/b/green-acres-farm/membership");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const notice = page.getByTestId("subscription-card").filter({ hasText: "Green Acres" }).getByRole("alert");
  await expect(notice).toContainText("Your last payment did not go through.");
  await notice.getByRole("link", { name: "Update your card" }).click();
  await expect(page.getByRole("tab", { name: "Profile" })).toHaveAttribute("aria-selected", "true");
  const section = page.getByRole("region", { name: "Payment card" });
  await fillCard(page, "4242 4242 4242 4242");
  pastDue = false;
  await section.getByRole("button", { name: "Save card" }).click();
  await expect(section.getByText("Card updated successfully.")).toBeVisible();
  await expect(section.getByTestId("saved-card")).toHaveText("Visa •••• 4242, expires 12/2030");
  await expect(section.getByText("Card updated successfully.")).toBeHidden({ timeout: 5000 });
  // The memberships refresh after the close: the real status comes back.
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  await expect(page.getByTestId("subscription-card").first().getByText("Active")).toBeVisible();
});
