import { expect, test, type APIRequestContext } from "@playwright/test";
import { gql, loginAs, screenshots } from "./admin-support.ts";
import { adminToken, checkout, createOwnBusiness, createUser, memberSession, runSuffix, type OwnBusiness } from "./tenant-support.ts";

// The admin lists load 50 rows at a time with a Load more button; filters and search apply to every page,
// and the CSV export holds the whole filtered list. Everything listed here is this spec's own.
test.describe.configure({ mode: "serial" });

const suffix = runSuffix();
let token: string;

/** Runs `make(i)` for i = 1..n, a few at a time (each one is a few requests to a shared two-core machine). */
async function batch(n: number, make: (i: number) => Promise<unknown>, parallel = 4) {
  for (let start = 1; start <= n; start += parallel) {
    await Promise.all(Array.from({ length: Math.min(parallel, n - start + 1) }, (_, k) => make(start + k)));
  }
}
const pad = (i: number) => String(i).padStart(2, "0");

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
});

test.describe("memberships", () => {
  // One member of 52 businesses of this spec's own (a login each would spend the address's login allowance).
  const member = `pgm${suffix}`;
  const farm = (i: number) => `Zz Pager Farm ${suffix} ${pad(i)}`;
  test.beforeAll(async ({ request }) => {
    test.setTimeout(240_000);
    const memberToken = await memberSession(request, token, member, "member12345");
    const made: OwnBusiness[] = [];
    await batch(52, async (i) => {
      const business = await createOwnBusiness(request, token, { name: farm(i), slug: `zz-pager-farm-${suffix}-${pad(i)}`, planName: "Cheese Box", pickupCents: 2500 });
      made.push(business);
      await checkout(request, memberToken, business, `${member}@example.com`);
    });
    // The newest membership is someone else's, so the test sees when the search has applied.
    await checkout(request, await memberSession(request, token, `pgo${suffix}`, "member12345"), made[0], `pgo${suffix}@example.com`);
  });

  test("the admin list pages through 52 memberships; the CSV holds all of them; cancel keeps the loaded pages", async ({ page }) => {
    await loginAs(page, "admin", "admin1234");
    await page.goto("/admin/memberships");
    const rows = page.getByTestId("membership-row");
    await expect(rows.first()).toContainText(`pgo${suffix}`);
    await page.getByLabel("Search memberships").fill(member);
    await expect(rows.first()).toContainText(member);
    await expect(rows).toHaveCount(50);
    for (const text of await rows.allInnerTexts()) expect(text).toContain(member);
    await expect(page.getByTestId("list-count")).toHaveText("Showing 50 memberships · more to load");

    // The export is the whole filtered list, not the 50 rows on screen.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    const csv = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(1 + 52);
    expect(lines.slice(1).every((l) => l.includes(`,${member},`))).toBe(true);
    expect(new Set(lines.slice(1).map((l) => l.split(",")[0])).size).toBe(52);

    await page.getByRole("button", { name: "Load more" }).click();
    await expect(rows).toHaveCount(52);
    await expect(page.getByTestId("list-count")).toHaveText("Showing 52 memberships");
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    await screenshots(page, "memberships-paged");

    // Active only, then cancel a row of the second page: it leaves the list, the other pages stay.
    await page.getByLabel("Status").selectOption("ACTIVE");
    await expect(rows).toHaveCount(50);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(rows).toHaveCount(52);
    const last = rows.last();
    const id = (await last.locator("td").first().innerText()).trim();
    await last.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Cancel immediately" }).click();
    await expect(rows).toHaveCount(51);
    await expect(page.getByRole("cell", { name: id, exact: true })).toHaveCount(0);

    // The business filter narrows every page: one membership.
    await page.getByLabel("Business").selectOption({ label: farm(7) });
    await expect(rows).toHaveCount(1);
    await expect(page.getByTestId("list-count")).toHaveText("Showing 1 membership");
  });
});

test.describe("users", () => {
  test.beforeAll(async ({ request }) => {
    test.setTimeout(180_000);
    // One at a time: the list is newest first, so the order of creation is what the test reads.
    await batch(55, (i) => createUser(request, token, `pgu${suffix}x${pad(i)}`, "user123456"), 1);
    // The newest user does not match the search below, so the test sees when the search has applied.
    await createUser(request, token, `pgz${suffix}`, "user123456");
  });

  test("the users list shows the newest first, 50 at a time, and search pages too", async ({ page }) => {
    await loginAs(page, "admin", "admin1234");
    await page.goto("/admin/users");
    const rows = page.getByTestId("user-row");
    await expect(rows).toHaveCount(50);
    await expect(rows.first()).toContainText(`pgz${suffix}`);
    await expect(rows.nth(1)).toContainText(`pgu${suffix}x55`);
    await page.getByLabel("Search users").fill(`pgu${suffix}x`);
    await expect(rows.first()).toContainText(`pgu${suffix}x55`);
    await expect(rows).toHaveCount(50);
    await expect(page.getByTestId("list-count")).toHaveText("Showing 50 users · more to load");
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(rows).toHaveCount(55);
    await expect(rows.last()).toContainText(`pgu${suffix}x01`);
    await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
    await screenshots(page, "users-paged");
  });
});

test.describe("businesses", () => {
  const ids: number[] = [];
  // Named to sort after the demo businesses (the public grid and other specs still see those first); the
  // last one is deleted on the second page.
  const LAST = `Zzz Pager ${suffix}`;
  const make = async (request: APIRequestContext, name: string, slug: string) => {
    const r = await gql(request, token, `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { ... on CreateBusinessSuccess { data { databaseId } } } }`, { input: { name, slug } });
    ids.push(r.data.createBusiness.data.databaseId);
  };
  test.beforeAll(async ({ request }) => {
    test.setTimeout(120_000);
    // More than one page whatever ran before (the memberships above already made 52).
    const existing = (await gql(request, token, `{ myBusinesses(first: 100) { edges { node { id } } } }`)).data.myBusinesses.edges.length as number;
    await batch(Math.max(0, 51 - existing), (i) => make(request, `Zzy Pager ${suffix} ${pad(i)}`, `zzy-pager-${suffix}-${pad(i)}`));
    await make(request, LAST, `zzz-pager-${suffix}`);
  });
  test.afterAll(async ({ request }) => {
    await deleteAll(request, ids);
  });

  test("the businesses list loads more; a delete on the second page keeps the loaded rows", async ({ page }) => {
    await loginAs(page, "admin", "admin1234");
    await page.goto("/admin/businesses");
    const rows = page.getByTestId("business-row");
    await expect(rows).toHaveCount(50);
    const total = (await gql(page.request, token, `{ myBusinesses(first: 100) { edges { node { id } } } }`)).data.myBusinesses.edges.length as number;
    expect(total).toBeGreaterThan(50);
    await expect(page.getByRole("cell", { name: LAST, exact: true })).toHaveCount(0);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(rows).toHaveCount(total);
    await expect(page.getByRole("cell", { name: LAST, exact: true })).toBeVisible();
    await screenshots(page, "businesses-paged");

    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: `More actions for ${LAST}` }).click();
    await page.getByRole("menuitem", { name: "Delete business" }).click();
    await expect(page.getByRole("cell", { name: LAST, exact: true })).toHaveCount(0);
    await expect(rows).toHaveCount(total - 1);
  });

  test("My Businesses and Next Box Management load more too", async ({ page }) => {
    await loginAs(page, "admin", "admin1234");
    await page.goto("/admin/my");
    const cards = page.getByTestId("my-business");
    await expect(cards).toHaveCount(50);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => cards.count()).toBeGreaterThan(50);
    await page.goto("/admin/next-boxes");
    const links = page.getByRole("link", { name: /^Edit Next Box of / });
    await expect(links).toHaveCount(50);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => links.count()).toBeGreaterThan(50);
  });
});

async function deleteAll(request: APIRequestContext, ids: number[]) {
  for (const id of ids) await gql(request, token, `mutation($id: Int!) { deleteBusiness(input: { businessId: $id }) { __typename } }`, { id });
}
