import { expect, test } from "@playwright/test";
import { pinClock, shot } from "./member-support.ts";
import { connectPayouts } from "./tenant-support.ts";

test.beforeEach(async ({ page }) => pinClock(page));

test("past the cutoff day the business page shows the refusal and offers no checkout", async ({ page, request }) => {
  // A business of its own whose cutoff is the 2nd (the business day is March 5th), made through the admin
  // GraphQL API, so the demo businesses other specs read stay as seeded.
  const gql = async (query: string, token?: string) => {
    const res = await request.post("/graphql", { headers: token ? { Authorization: `Bearer ${token}` } : {}, data: { query } });
    return (await res.json()).data;
  };
  const token = (await gql('mutation { login(input:{username:"admin",password:"admin1234"}) { ... on LoginSuccess { data { token } } } }')).login.data.token as string;
  const slug = `late-bakery-${Date.now() % 100000}`;
  const created = await gql(`mutation { createBusiness(input:{name:"Late Bakery", slug:"${slug}"}) { ... on CreateBusinessSuccess { data { databaseId } } } }`, token);
  const businessId = created.createBusiness.data.databaseId as number;
  await connectPayouts(request, token, businessId);
  const saved = await gql(
    `mutation { saveBusinessPage(input:{businessId:${businessId}, content:{brand:{name:"Late Bakery"}, subscriptionCutoffDay:2, fulfillment:{pickup:true, pickupAddress:"12 Main St"}}, plans:[{name:"Bread Box", pickupCents:1800}]}) { __typename } }`,
    token,
  );
  expect(saved.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");
  try {
    // Said before anyone registers or types an address (tests/e2e/business-page-cutoff.spec.ts has checkout).
    await page.goto(`/b/${slug}`);
    await expect(page.getByText("The last day to subscribe for this month has passed. The cutoff day is the 2nd of each month. Please try again next month.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Checkout" })).toBeDisabled();
  } finally {
    await gql(`mutation { deleteBusiness(input:{businessId:${businessId}}) { __typename } }`, token);
  }
});

test("a tenant subdomain serves its business at / and sends /admin to the main host", async ({ page, baseURL }) => {
  const port = new URL(baseURL!).port;
  await page.goto(`http://green-acres-farm.localhost:${port}/`);
  await expect(page.getByRole("heading", { level: 1, name: "Green Acres Farm" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Checkout" })).toBeVisible();
  await page.goto(`http://green-acres-farm.localhost:${port}/admin/login`);
  await expect(page).toHaveURL(new RegExp(`^http://localhost:${port}/`));
});

test("business page gallery wraps around, FAQ keeps one item open, add-on limit and extras", async ({ page }) => {
  await page.goto("/b/green-acres-farm");
  const image = page.getByTestId("gallery-image");
  await expect(image).toHaveAttribute("data-index", "0");
  await page.getByRole("button", { name: "Previous image" }).click();
  await expect(image).not.toHaveAttribute("data-index", "0");
  await page.getByRole("button", { name: "Next image" }).click();
  await expect(image).toHaveAttribute("data-index", "0");
  const box = (await page.getByTestId("gallery").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 80, box.y + box.height / 2);
  await page.mouse.up();
  await expect(image).toHaveAttribute("data-index", "1");
  await expect(page.getByRole("radio", { name: /Delivery \(\+\$\d+\.\d{2}\)/ })).toBeVisible();
  const faqButtons = page.locator("#business-faqs ~ div button[aria-expanded]");
  await expect(faqButtons.first()).toHaveAttribute("aria-expanded", "true");
  await faqButtons.nth(1).click();
  await expect(faqButtons.first()).toHaveAttribute("aria-expanded", "false");
  await expect(faqButtons.nth(1)).toHaveAttribute("aria-expanded", "true");
});

test("contact, legal and legacy pages", async ({ page }) => {
  await page.goto("/contact");
  await page.getByLabel("Name").fill("Ana");
  await page.getByLabel("Email").fill("ana@example.com");
  await page.getByLabel("Subject").selectOption("support");
  await page.getByLabel("Message").fill("Hello there");
  await shot(page, "contact");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("button", { name: "Sending..." })).toBeVisible();
  await page.clock.runFor(1600);
  await expect(page.getByText(/within 24 hours/)).toBeVisible();
  for (const [path, title] of [["/terms-of-use", "Terms of Use"], ["/privacy-policy", "Privacy Policy"], ["/refund-policy", "Refund Policy"]]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Back to Home" })).toBeVisible();
  }
  await shot(page, "refund-policy");
  await page.goto("/checkout");
  await expect(page.getByText("No selection found.")).toBeVisible();
  await page.goto("/admin/login");
  await expect(page).toHaveURL(/\/membership$/);
  await shot(page, "login");
});
