import { expect, test, type APIRequestContext } from "@playwright/test";
import { apiLogin, gql, loginAs, screenshots } from "./admin-support.ts";
import { adminToken, createOwnBusiness, createUser, runSuffix, type OwnBusiness } from "./tenant-support.ts";

// The API token screen on a business of this spec's own, as its owner, its editor and the admin.
test.describe.configure({ mode: "serial" });

const suffix = runSuffix();
const OWNER = { username: `tokowner${suffix}`, password: "owner12345" };
const EDITOR = { username: `tokeditor${suffix}`, password: "editor12345" };
let business: OwnBusiness;
let secret = "";

test.beforeAll(async ({ request }) => {
  const token = await adminToken(request);
  business = await createOwnBusiness(request, token, { name: `Token Dairy ${suffix}`, slug: `token-dairy-${suffix}`, planName: "Milk Box", pickupCents: 2000 });
  await createUser(request, token, OWNER.username, OWNER.password, { businessId: business.id, role: "OWNER" });
  await createUser(request, token, EDITOR.username, EDITOR.password, { businessId: business.id, role: "EDITOR" });
});

/** What a partner holding the token can read: this business's memberships (null once refused). */
async function partnerRead(request: APIRequestContext, token: string) {
  const body = await gql(request, token, `query($slug: String!) { business(slug: $slug) { memberships(first: 1) { edges { node { id } } } } }`, { slug: business.slug });
  return body.data?.business?.memberships ?? null;
}

test("the owner creates a token, sees the secret once with a copy button, and revokes it after a confirmation", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await loginAs(page, OWNER.username, OWNER.password);
  await page.goto(`/admin/business/${business.id}`);
  await page.getByRole("complementary").getByRole("link", { name: "API Tokens" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/business/${business.id}/api-tokens$`));
  await expect(page.getByRole("heading", { level: 1, name: "API Tokens" })).toBeVisible();
  await expect(page.getByText("No API tokens yet")).toBeVisible();

  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("Please name the token")).toBeVisible();
  await page.getByLabel("Token name").fill("Accounting export");
  await page.getByRole("button", { name: "Create token" }).click();

  // The secret, once, with the warning and a working copy button.
  const reveal = page.getByTestId("new-api-token");
  await expect(reveal).toContainText("Copy the token “Accounting export” now");
  await expect(reveal).toContainText("This is the only time it is shown");
  const field = reveal.getByRole("textbox", { name: "New API token" });
  secret = await field.inputValue();
  expect(secret).toMatch(/^mpt_[A-Za-z0-9_-]{40,}$/);
  await reveal.getByRole("button", { name: "Copy" }).click();
  await expect(reveal.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expect(page.getByLabel("Token name")).toHaveValue("");

  // The new row at the top of the list: name, the secret's first characters, never used, active.
  const row = page.getByTestId("api-token-row").filter({ hasText: "Accounting export" });
  await expect(row).toContainText(`${secret.slice(0, 8)}…`);
  await expect(row).toContainText(`by ${OWNER.username}`);
  await expect(row).toContainText("Never");
  await expect(row).toContainText("Active");
  await screenshots(page, "api-tokens-created");

  // Done hides it; a reload never shows it again.
  await reveal.getByRole("button", { name: "Done, I have stored it" }).click();
  await expect(reveal).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // The partner uses it; the list then shows when.
  expect(await partnerRead(page.request, secret)).not.toBeNull();
  await page.reload();
  await expect(row).not.toContainText("Never");
  await expect(row).toContainText(/\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}/);
  expect(await page.content()).not.toContain(secret);

  // Revoke: the confirmation can be declined, then confirmed.
  await row.getByRole("button", { name: "Revoke Accounting export" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Revoke “Accounting export”?");
  await expect(dialog).toContainText("lose access at their next request");
  await dialog.getByRole("button", { name: "Keep token" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("Active");
  expect(await partnerRead(page.request, secret)).not.toBeNull();

  await row.getByRole("button", { name: "Revoke Accounting export" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByRole("alertdialog")).toBeHidden();
  await expect(row).toContainText("Revoked");
  await expect(row.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  expect(await partnerRead(page.request, secret)).toBeNull();
  await screenshots(page, "api-tokens");
});

test("an editor of the business has no API Tokens entry and the screen refuses them", async ({ page }) => {
  const session = await loginAs(page, EDITOR.username, EDITOR.password);
  await page.goto(`/admin/business/${business.id}`);
  const nav = page.getByRole("complementary");
  await expect(nav.getByRole("link", { name: "Memberships" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "API Tokens" })).toHaveCount(0);
  await page.goto(`/admin/business/${business.id}/api-tokens`);
  await expect(page.getByText("Only the business's owner and administrators can manage its API tokens.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create token" })).toHaveCount(0);
  // The server refuses the same: no list, no new token.
  const list = await gql(page.request, session.token, `query($id: Int!) { adminBusiness(id: $id) { apiTokens(first: 5) { edges { node { name } } } } }`, { id: business.id });
  expect(list.data.adminBusiness.apiTokens).toBeNull();
  const mint = await gql(page.request, session.token, `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { __typename } }`, { input: { businessId: business.id, name: "sneaky" } });
  expect(mint.data.createApiToken.__typename).toBe("ForbiddenError");
});

test("the admin manages any business's tokens; a long list loads in pages", async ({ page }) => {
  const session = await loginAs(page, "admin", "admin1234");
  // 21 more tokens: 22 in all, one page of 20 and a second of 2.
  for (let i = 1; i <= 21; i++) {
    const r = await gql(page.request, session.token, `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { __typename } }`, { input: { businessId: business.id, name: `Batch ${String(i).padStart(2, "0")}` } });
    expect(r.data.createApiToken.__typename).toBe("CreateApiTokenSuccess");
  }
  await page.goto(`/admin/business/${business.id}`);
  await page.getByRole("complementary").getByRole("link", { name: "API Tokens" }).click();
  const rows = page.getByTestId("api-token-row");
  await expect(rows).toHaveCount(20);
  await expect(rows.first()).toContainText("Batch 21");
  await expect(rows.first()).toContainText("by admin");
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows).toHaveCount(22);
  await expect(rows.last()).toContainText("Accounting export");
  await expect(rows.last()).toContainText("Revoked");
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
});

test("the owner's token list is theirs only: another owner is refused", async ({ request }) => {
  const other = await apiLogin(request, "owner", "owner1234");
  const list = await gql(request, other.token, `query($id: Int!) { adminBusiness(id: $id) { apiTokens(first: 5) { edges { node { name } } } } }`, { id: business.id });
  expect(list.data?.adminBusiness ?? null).toBeNull();
  expect(secret).not.toBe("");
});
