import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { gql, loginAs, screenshots } from "./admin-support.ts";
import { adminToken, createUser, runSuffix } from "./tenant-support.ts";

// The member page (/admin/business/{id}/members/{membershipId}) on the shared server's demo data: the owner of Green
// Acres Farm opens a member from the Memberships list and from a packing slip of the Fulfilment screen and adds a
// note; the platform administrator opens one from the platform's list; a viewer of the farm reads but cannot write.

/** axe-core (WCAG 2.0/2.1 A and AA): no critical or serious violation, as tests/e2e/accessibility.spec.ts asks of every admin page. */
async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

const ADD_NOTE = `mutation($input: AddMembershipNoteInput!) { addMembershipNote(input: $input) { __typename ... on Error { message } } }`;

test("the owner opens a member from the Memberships list and from a packing slip, and adds a note", async ({ page }) => {
  await loginAs(page, "owner", "owner1234");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/business\/\d+$/);
  const businessId = Number(new URL(page.url()).pathname.split("/").pop());

  // From the business's Memberships list: each row's member opens their page.
  await page.getByRole("link", { name: "Memberships" }).first().click();
  await expect(page.getByTestId("membership-row").first()).toBeVisible();
  await page.getByLabel("Status").selectOption("ACTIVE");
  const row = page.getByTestId("membership-row").first();
  await expect(row).toContainText("Active");
  const member = row.getByRole("link");
  const name = (await member.innerText()).trim();
  await member.click();
  await expect(page).toHaveURL(new RegExp(`/admin/business/${businessId}/members/\\d+$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByLabel("Member", { exact: true })).toContainText("Member since");
  // A current membership's next charge: its date and amount, as the server priced them.
  await expect(page.getByTestId("next-charge")).toContainText(/\w{3} \d{1,2}, \d{4} · \$\d+\.\d{2}/);
  await expect(page.getByRole("heading", { name: "Orders and payments" })).toBeVisible();
  await expect(page.getByTestId("member-order").first()).toBeVisible();

  // A note: on top of the list with its author and time, and still there after a reload.
  const text = `Prefers the side gate (${runSuffix()})`;
  await page.getByLabel("New note").fill(`  ${text}  `);
  await page.getByRole("button", { name: "Add note" }).click();
  const notes = page.getByTestId("member-note");
  await expect(notes.first()).toContainText(text);
  await expect(page.getByLabel("New note")).toHaveValue("");
  await page.reload();
  await expect(page.getByTestId("member-note").first()).toContainText(text);
  await expect(page.getByTestId("member-note").first()).toContainText("Mar 5, 2026");
  await page.getByRole("button", { name: "Show breakdown" }).first().click();
  await expect(page.getByTestId("price-breakdown").first()).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "member-page");
  // Cancel is offered to the owner; the dialog is dismissed here (the shared demo data stays as it is).
  await page.getByRole("button", { name: "Cancel membership" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("no automatic refund");
  await expectAccessible(page);
  await page.getByRole("alertdialog").getByRole("button", { name: "Keep membership" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);

  // From a packing slip of the Fulfilment screen.
  await page.goto(`/admin/business/${businessId}/fulfilment`);
  await expect(page.getByRole("heading", { name: "Fulfilment", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Packing slips" }).click();
  const slip = page.getByTestId("packing-slip").first();
  await expect(slip).toBeVisible();
  const boxMember = slip.getByRole("link");
  const boxName = (await boxMember.innerText()).trim();
  await boxMember.click();
  await expect(page).toHaveURL(new RegExp(`/admin/business/${businessId}/members/\\d+$`));
  await expect(page.getByRole("heading", { level: 1, name: boxName })).toBeVisible();
});

test("the administrator opens a member from the platform's Memberships list", async ({ page }) => {
  await loginAs(page, "admin", "admin1234");
  await page.goto("/admin/memberships");
  const row = page.getByTestId("membership-row").first();
  const name = (await row.getByRole("link").innerText()).trim();
  await row.getByRole("link").click();
  await expect(page).toHaveURL(/\/admin\/business\/\d+\/members\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  // An administrator may write notes and reads the business's mail.
  await expect(page.getByRole("button", { name: "Add note" })).toBeVisible();
  await expect(page.getByText("Only the business's owners see its mail.")).toHaveCount(0);
});

test("a viewer of the business reads the member page and its notes but cannot add one", async ({ page, request }) => {
  const token = await adminToken(request);
  const suffix = runSuffix();
  const businessId = (await gql(request, token, `{ business(slug: "green-acres-farm") { databaseId } }`)).data.business.databaseId as number;
  await createUser(request, token, `viewer${suffix}`, "viewer12345", { businessId, role: "VIEWER" });
  const viewer = await loginAs(page, `viewer${suffix}`, "viewer12345");
  await page.goto(`/admin/business/${businessId}/memberships`);
  await page.getByTestId("membership-row").first().getByRole("link").click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  await expect(page.getByRole("heading", { name: "Notes" })).toBeVisible();
  await expect(page.getByText("Owners and editors add notes; you can read them.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Add note" })).toHaveCount(0);
  await expect(page.getByLabel("New note")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancel membership" })).toHaveCount(0);
  await expect(page.getByText("Only the business's owners see its mail.")).toBeVisible();

  // The server refuses the viewer's note as well.
  const membershipId = new URL(page.url()).pathname.split("/").pop();
  const refused = await gql(request, viewer.token, ADD_NOTE, { input: { membershipId, body: "Not mine to write" } });
  expect(refused.data.addMembershipNote.__typename).toBe("ForbiddenError");
});
