import { expect, test } from "@playwright/test";
import { gql, loginAs } from "./admin-support.ts";
import { CLOCK } from "./member-support.ts";
import { adminToken, createOwnBusiness, runSuffix } from "./tenant-support.ts";
import { checkLayout } from "./layout-support.ts";

// One footer on business pages, and the support phone (a page setting) in that footer and in the
// portal's disabled-action note.

test("a business page has one footer, with the support phone", async ({ page }, testInfo) => {
  await page.clock.install({ time: CLOCK });
  await page.goto("/b/green-acres-farm");
  await expect(page.getByRole("heading", { level: 1, name: "Green Acres Farm" })).toBeVisible();
  await expect(page.getByText(/All rights reserved\./)).toHaveCount(1);
  await expect(page.getByRole("navigation", { name: "Legal" })).toHaveCount(0);
  await expect(page.getByTestId("footer-support-phone")).toHaveText("Support: (330) 555-0142");
  await expect(page.getByTestId("footer-support-phone").getByRole("link")).toHaveAttribute("href", "tel:3305550142");
  await checkLayout(page, testInfo, "business-page-footer", (p) => [p.getByRole("heading", { level: 1, name: "Green Acres Farm" }), p.getByTestId("footer-support-phone"), p.getByRole("link", { name: "Refund Policy" })]);
  // Other pages keep the site footer.
  await page.goto("/businesses");
  await expect(page.getByRole("navigation", { name: "Legal" })).toBeVisible();
});

test("the portal's disabled-action notes show each business's support phone", async ({ page }, testInfo) => {
  await loginAs(page, "member", "member1234");
  await page.goto("/membership");
  await expect(page.getByRole("heading", { name: "My membership" })).toBeVisible();
  // The seeded member holds memberships at three businesses, so the footer points to the cards and each
  // card gives its own business's line (seeded phones).
  await expect(page.getByTestId("portal-note")).toHaveText("Each membership's dates and phone are on its card. Cancellation is by phone only.");
  await page.getByRole("tab", { name: "Subscriptions" }).click();
  const seeded: Record<string, string> = { "Green Acres Farm": "(330) 555-0142", "Ember & Oak Coffee Roasters": "(503) 555-0187", "Rise & Crumb Bakery": "(614) 555-0123" };
  for (const [name, phone] of Object.entries(seeded)) {
    const card = page.getByTestId("subscription-card").filter({ has: page.getByRole("heading", { name, exact: true }) });
    await expect(card.getByTestId("support-phone")).toHaveText(phone);
  }
  await expect(page.getByTestId("subscription-card").filter({ hasText: "Green Acres Farm" }).getByTestId("window-note")).toContainText(
    "After that, call Green Acres Farm at (330) 555-0142 to make changes.",
  );
  await checkLayout(page, testInfo, "portal-support-phone", (p) => [p.getByTestId("support-phone").first()]);
});

test("the page editor's Subscription Settings set the support phone the business page shows", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const token = await adminToken(request);
  const suffix = runSuffix();
  const business = await createOwnBusiness(request, token, { name: `Phone Orchard ${suffix}`, slug: `phone-orchard-${suffix}`, planName: "Apple Box", pickupCents: 2400 });
  try {
    await loginAs(page, "admin", "admin1234");
    await page.goto(`/admin/business/${business.id}/page`);
    await expect(page.getByRole("heading", { level: 1, name: "Edit Page" })).toBeVisible();
    const field = page.getByLabel("Support phone");
    await expect(field).toHaveValue("");
    // (A number the server refuses is covered by tests/integration/page-cutoff-message-and-support-phone.test.ts:
    // spec §8 shows no message for a refused page save.)
    await field.fill("(216) 555-0199");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
    await testInfo.attach("page-editor-support-phone", { body: await page.getByLabel("Support phone").screenshot(), contentType: "image/png" });
    const read = await gql(request, token, `query($slug: String!) { business(slug: $slug) { page { supportPhone } } }`, { slug: business.slug });
    expect(read.data.business.page.supportPhone).toBe("(216) 555-0199");
    await page.goto(`/b/${business.slug}`);
    await expect(page.getByTestId("footer-support-phone")).toHaveText("Support: (216) 555-0199");
  } finally {
    await gql(request, token, `mutation($input: DeleteBusinessInput!) { deleteBusiness(input: $input) { __typename } }`, { input: { businessId: business.id } });
  }
});
