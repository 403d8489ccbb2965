import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../api/auth/sessions.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
let statements = 0;
beforeAll(async () => {
  t = await createTestApp({ logQueries: true });
  t.db.onStatement(() => statements++);
});
afterAll(() => t.close());

let seq = 0;
/** A user with an open session (no password round trip: login throttles are not under test here). */
async function person(label: string, opts: { admin?: boolean } = {}) {
  const user = await t.db.prisma.user.create({
    data: { username: `${label}-${++seq}`, passwordHash: "unused", isAdmin: opts.admin ?? false },
  });
  const { token } = await openSession({ db: t.db.prisma, clock: t.clock, config: t.config }, user.id, { tenantSlug: null });
  return { id: user.id, username: user.username, token };
}

const CREATE = `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) {
  __typename ... on CreateBusinessSuccess { data { id databaseId slug name page { brandName } nextBox { contentHtml } } }
  ... on Error { message code } ... on ValidationError { issues { path message } } } }`;
const DELETE = `mutation($id: Int!) { deleteBusiness(input: { businessId: $id }) {
  __typename ... on DeleteBusinessSuccess { data { databaseId slug deletedBusinessId } } ... on Error { message code } } }`;
const ATTACH = `mutation($input: AttachBusinessUserInput!) { attachBusinessUser(input: $input) {
  __typename ... on AttachBusinessUserSuccess { data { id databaseId role user { id username } } } ... on Error { message code reason } } }`;
const DETACH = `mutation($input: DetachBusinessUserInput!) { detachBusinessUser(input: $input) {
  __typename ... on DetachBusinessUserSuccess { data { detachedBusinessUserId business { userCount } } } ... on Error { message code } } }`;
const CREATE_TOKEN = `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) {
  __typename ... on CreateApiTokenSuccess { data { token apiToken { id name prefix revokedAt } } } ... on Error { message code } } }`;
const REVOKE_TOKEN = `mutation($id: ID!) { revokeApiToken(input: { id: $id }) {
  __typename ... on RevokeApiTokenSuccess { data { id revokedAt } } ... on Error { message code } } }`;

let admin: Awaited<ReturnType<typeof person>>;
beforeAll(async () => {
  admin = await person("admin", { admin: true });
});

async function createBusiness(input: Record<string, unknown>) {
  const r = await t.gqlOk(CREATE, { input }, { token: admin.token });
  expect(r.createBusiness.__typename).toBe("CreateBusinessSuccess");
  return r.createBusiness.data as { id: string; databaseId: number; slug: string };
}

/** A business with an owner, an editor and a viewer. */
async function staffedBusiness(name: string) {
  const [owner, editor, viewer] = await Promise.all([person("owner"), person("editor"), person("viewer")]);
  const business = await createBusiness({
    name,
    attachments: [
      { userId: owner.id, role: "OWNER" },
      { userId: editor.id, role: "EDITOR" },
      { userId: viewer.id, role: "VIEWER" },
    ],
  });
  return { business, owner, editor, viewer };
}

describe("createBusiness", () => {
  it("creates the business with its page and next box, slug derived from the name", async () => {
    const r = await t.gqlOk(CREATE, { input: { name: "  Crème Farm & Co  " } }, { token: admin.token });
    expect(r.createBusiness).toMatchObject({
      __typename: "CreateBusinessSuccess",
      data: { slug: "creme-farm-co", name: "Crème Farm & Co", page: { brandName: "Crème Farm & Co" }, nextBox: { contentHtml: "" } },
    });
  });

  it("normalises a given slug and attaches users", async () => {
    const u = await person("attached");
    const b = await createBusiness({ name: "Slugged", slug: "My--Shop ", attachments: [{ userId: u.id, role: "EDITOR" }] });
    expect(b.slug).toBe("my-shop");
    const link = await t.db.prisma.businessUser.findFirstOrThrow({ where: { businessId: b.databaseId } });
    expect(link).toMatchObject({ userId: u.id, role: "EDITOR" });
  });

  it("refuses a duplicate subdomain, an empty name, an invalid slug, two owners and unknown users; nothing saved", async () => {
    await createBusiness({ name: "Dupe", slug: "dupe" });
    const before = await t.db.prisma.business.count();
    const dupe = await t.gqlOk(CREATE, { input: { name: "Other", slug: "DUPE" } }, { token: admin.token });
    expect(dupe.createBusiness).toMatchObject({ __typename: "ConflictError", message: "A business with this subdomain already exists" });
    const empty = await t.gqlOk(CREATE, { input: { name: "   " } }, { token: admin.token });
    expect(empty.createBusiness).toMatchObject({ __typename: "ValidationError", message: "Business name is required" });
    const badSlug = await t.gqlOk(CREATE, { input: { name: "Fine", slug: "---" } }, { token: admin.token });
    expect(badSlug.createBusiness.__typename).toBe("ValidationError");
    expect(badSlug.createBusiness.issues[0].path).toBe("slug");
    const [a, b] = [await person("o1"), await person("o2")];
    const owners = await t.gqlOk(CREATE, { input: { name: "Two owners", attachments: [{ userId: a.id, role: "OWNER" }, { userId: b.id, role: "OWNER" }] } }, { token: admin.token });
    expect(owners.createBusiness).toMatchObject({ __typename: "ValidationError", message: "A business can have only one owner" });
    const ghost = await t.gqlOk(CREATE, { input: { name: "Ghost", attachments: [{ userId: 999_999, role: "VIEWER" }] } }, { token: admin.token });
    expect(ghost.createBusiness).toMatchObject({ __typename: "ValidationError", issues: [{ path: "attachments.0.userId" }] });
    expect(await t.db.prisma.business.count()).toBe(before);
  });

  it("is for administrators only", async () => {
    const anon = await t.gqlOk(CREATE, { input: { name: "Nope" } });
    expect(anon.createBusiness.__typename).toBe("UnauthenticatedError");
    const { owner } = await staffedBusiness("Owner Tries");
    const member = await t.gqlOk(CREATE, { input: { name: "Nope" } }, { token: owner.token });
    expect(member.createBusiness.__typename).toBe("ForbiddenError");
  });
});

describe("deleteBusiness", () => {
  it("deletes a business with its page and attachments, and ended memberships that never paid", async () => {
    const { business, owner } = await staffedBusiness("Short Lived");
    const plan = await t.db.prisma.plan.create({ data: { businessId: business.databaseId, ref: "item_1", name: "Box", variations: { create: { mode: "PICKUP", amountCents: 1000 } } } });
    await t.db.prisma.subscription.create({
      data: { userId: owner.id, businessId: business.databaseId, planId: plan.id, mode: "PICKUP", planAmountCents: 1000, totalCents: 1000, status: "CANCELED" },
    });
    const forbidden = await t.gqlOk(DELETE, { id: business.databaseId }, { token: owner.token });
    expect(forbidden.deleteBusiness.__typename).toBe("ForbiddenError");
    const r = await t.gqlOk(DELETE, { id: business.databaseId }, { token: admin.token });
    expect(r.deleteBusiness).toMatchObject({ __typename: "DeleteBusinessSuccess", data: { databaseId: business.databaseId, deletedBusinessId: business.id } });
    expect(await t.db.prisma.page.count({ where: { businessId: business.databaseId } })).toBe(0);
    expect(await t.db.prisma.businessUser.count({ where: { businessId: business.databaseId } })).toBe(0);
    const again = await t.gqlOk(DELETE, { id: business.databaseId }, { token: admin.token });
    expect(again.deleteBusiness.__typename).toBe("NotFoundError");
  });

  it("refuses while memberships are active or past due", async () => {
    const { business, owner } = await staffedBusiness("Busy Farm");
    const plan = await t.db.prisma.plan.create({ data: { businessId: business.databaseId, ref: "item_1", name: "Box" } });
    await t.db.prisma.subscription.create({
      data: { userId: owner.id, businessId: business.databaseId, planId: plan.id, mode: "PICKUP", planAmountCents: 1000, totalCents: 1000, status: "PAST_DUE" },
    });
    const r = await t.gqlOk(DELETE, { id: business.databaseId }, { token: admin.token });
    expect(r.deleteBusiness).toMatchObject({
      __typename: "ConflictError",
      message: "This business has active memberships. Cancel them before deleting the business.",
    });
    expect(await t.db.prisma.business.count({ where: { id: business.databaseId } })).toBe(1);
  });

  it("refuses once the business has order history, keeping its records", async () => {
    const { business, owner } = await staffedBusiness("Paid Farm");
    const plan = await t.db.prisma.plan.create({ data: { businessId: business.databaseId, ref: "item_1", name: "Box" } });
    const sub = await t.db.prisma.subscription.create({
      data: { userId: owner.id, businessId: business.databaseId, planId: plan.id, mode: "PICKUP", planAmountCents: 1000, totalCents: 1000, status: "CANCELED" },
    });
    await t.db.prisma.order.create({
      data: { subscriptionId: sub.id, userId: owner.id, businessId: business.databaseId, kind: "INITIAL", period: "2026-02", mode: "PICKUP", selection: {}, subtotalCents: 1000, totalCents: 1000 },
    });
    const r = await t.gqlOk(DELETE, { id: business.databaseId }, { token: admin.token });
    expect(r.deleteBusiness).toMatchObject({ __typename: "ConflictError", message: "This business has order history, which must be kept, so it cannot be deleted." });
    expect(await t.db.prisma.order.count({ where: { businessId: business.databaseId } })).toBe(1);
  });
});

describe("business users", () => {
  it("owners attach editors and viewers, change their roles and remove them", async () => {
    const { business, owner } = await staffedBusiness("Team Farm");
    const newcomer = await person("newcomer");
    const r = await t.gqlOk(ATTACH, { input: { businessId: business.databaseId, userId: newcomer.id, role: "VIEWER" } }, { token: owner.token });
    expect(r.attachBusinessUser).toMatchObject({ __typename: "AttachBusinessUserSuccess", data: { role: "VIEWER", user: { username: newcomer.username } } });
    const promoted = await t.gqlOk(ATTACH, { input: { businessId: business.databaseId, userId: newcomer.id, role: "EDITOR" } }, { token: owner.token });
    expect(promoted.attachBusinessUser.data).toMatchObject({ role: "EDITOR", databaseId: r.attachBusinessUser.data.databaseId });
    const d = await t.gqlOk(DETACH, { input: { businessId: business.databaseId, userId: newcomer.id } }, { token: owner.token });
    expect(d.detachBusinessUser).toMatchObject({ __typename: "DetachBusinessUserSuccess", data: { detachedBusinessUserId: r.attachBusinessUser.data.id, business: { userCount: 3 } } });
    const gone = await t.gqlOk(DETACH, { input: { businessId: business.databaseId, userId: newcomer.id } }, { token: owner.token });
    expect(gone.detachBusinessUser.__typename).toBe("NotFoundError");
  });

  it("only administrators grant, change or remove the owner; one owner per business", async () => {
    const { business, owner, editor } = await staffedBusiness("Owned Farm");
    const grant = await t.gqlOk(ATTACH, { input: { businessId: business.databaseId, userId: editor.id, role: "OWNER" } }, { token: owner.token });
    expect(grant.attachBusinessUser).toMatchObject({ __typename: "ForbiddenError" });
    const demote = await t.gqlOk(ATTACH, { input: { businessId: business.databaseId, userId: owner.id, role: "EDITOR" } }, { token: owner.token });
    expect(demote.attachBusinessUser.__typename).toBe("ForbiddenError");
    const remove = await t.gqlOk(DETACH, { input: { businessId: business.databaseId, userId: owner.id } }, { token: owner.token });
    expect(remove.detachBusinessUser.__typename).toBe("ForbiddenError");

    const second = await t.gqlOk(ATTACH, { input: { businessId: business.databaseId, userId: editor.id, role: "OWNER" } }, { token: admin.token });
    expect(second.attachBusinessUser).toMatchObject({ __typename: "ConflictError", message: "A business can have only one owner" });
    // Admin hands ownership over: demote, then promote.
    await t.gqlOk(ATTACH, { input: { businessId: business.databaseId, userId: owner.id, role: "EDITOR" } }, { token: admin.token });
    const handover = await t.gqlOk(ATTACH, { input: { businessId: business.databaseId, userId: editor.id, role: "OWNER" } }, { token: admin.token });
    expect(handover.attachBusinessUser.data.role).toBe("OWNER");
  });

  it("the database keeps one owner even when the service check is bypassed (race)", async () => {
    const { business, editor } = await staffedBusiness("Racy Farm");
    await expect(
      t.db.prisma.businessUser.update({ where: { businessId_userId: { businessId: business.databaseId, userId: editor.id } }, data: { role: "OWNER" } }),
    ).rejects.toMatchObject({ code: "P2002" });
  });

  it("editors, viewers and members cannot manage users; owners of A cannot touch B", async () => {
    const a = await staffedBusiness("Farm A");
    const b = await staffedBusiness("Farm B");
    const stranger = await person("stranger");
    const input = { businessId: a.business.databaseId, userId: stranger.id, role: "VIEWER" };
    for (const who of [a.editor, a.viewer, stranger, b.owner]) {
      const r = await t.gqlOk(ATTACH, { input }, { token: who.token });
      expect(r.attachBusinessUser.__typename).toBe("ForbiddenError");
    }
    expect((await t.gqlOk(ATTACH, { input })).attachBusinessUser.__typename).toBe("UnauthenticatedError");
    const detach = await t.gqlOk(DETACH, { input: { businessId: a.business.databaseId, userId: a.viewer.id } }, { token: a.editor.token });
    expect(detach.detachBusinessUser.__typename).toBe("ForbiddenError");
    const ghost = await t.gqlOk(ATTACH, { input: { ...input, userId: 999_999 } }, { token: a.owner.token });
    expect(ghost.attachBusinessUser.__typename).toBe("NotFoundError");
  });
});

describe("business reads", () => {
  const ADMIN_VIEW = `query($id: Int!) { adminBusiness(id: $id) {
    id name userCount viewerRole viewerCanEdit viewerCanManageUsers
    users(first: 10) { totalCount edges { node { role user { username } } } } } }`;

  it("shows the dashboard view to anyone attached, with role flags; users only to owners and admins", async () => {
    const { business, owner, editor, viewer } = await staffedBusiness("Readable Farm");
    const asOwner = await t.gqlOk(ADMIN_VIEW, { id: business.databaseId }, { token: owner.token });
    expect(asOwner.adminBusiness).toMatchObject({ userCount: 3, viewerRole: "OWNER", viewerCanEdit: true, viewerCanManageUsers: true });
    expect(asOwner.adminBusiness.users.totalCount).toBe(3);
    expect(asOwner.adminBusiness.users.edges.map((e: any) => e.node.role)).toEqual(["OWNER", "EDITOR", "VIEWER"]);

    const asAdmin = await t.gqlOk(ADMIN_VIEW, { id: business.databaseId }, { token: admin.token });
    expect(asAdmin.adminBusiness).toMatchObject({ viewerRole: null, viewerCanEdit: true, viewerCanManageUsers: true });

    const asEditor = await t.gql(ADMIN_VIEW, { id: business.databaseId }, { token: editor.token });
    expect(asEditor.data?.adminBusiness).toMatchObject({ userCount: 3, viewerRole: "EDITOR", viewerCanEdit: true, viewerCanManageUsers: false, users: null });
    expect(asEditor.errors?.[0].path).toEqual(["adminBusiness", "users"]);

    const asViewer = await t.gql(`query($id: Int!) { adminBusiness(id: $id) { viewerRole viewerCanEdit } }`, { id: business.databaseId }, { token: viewer.token });
    expect(asViewer.data?.adminBusiness).toEqual({ viewerRole: "VIEWER", viewerCanEdit: false });

    const stranger = await person("nosy");
    const asStranger = await t.gql(`query($id: Int!) { adminBusiness(id: $id) { name } }`, { id: business.databaseId }, { token: stranger.token });
    expect(asStranger.data?.adminBusiness ?? null).toBeNull();
    expect(asStranger.errors?.[0].message).toBe("You do not have permission to do this.");
  });

  it("myBusinesses lists the viewer's businesses (admins: all) with logo and description from the page", async () => {
    const { business, editor } = await staffedBusiness("Listed Farm");
    await t.db.prisma.page.update({ where: { businessId: business.databaseId }, data: { logoUrl: "/uploads/logo.png", descriptionHtml: "<p>Fresh <b>eggs</b> &amp; milk</p>" } });
    const mine = await t.gqlOk(`{ myBusinesses(first: 50) { edges { node { slug logoUrl description } } } }`, {}, { token: editor.token });
    expect(mine.myBusinesses.edges.map((e: any) => e.node)).toEqual([{ slug: business.slug, logoUrl: "/uploads/logo.png", description: "Fresh eggs & milk" }]);
    const all = await t.gqlOk(`{ myBusinesses(first: 100) { edges { node { slug } } } }`, {}, { token: admin.token });
    expect(all.myBusinesses.edges.length).toBe(await t.db.prisma.business.count());
    const anon = await t.gql(`{ myBusinesses(first: 5) { edges { node { slug } } } }`);
    expect(anon.errors?.[0].message).toBe("Please log in to continue.");
  });

  it("resolves businesses and attachments by Relay global id, attachments only for their managers", async () => {
    const { business, owner, viewer } = await staffedBusiness("Node Farm");
    const node = await t.gqlOk(`query($id: ID!) { node(id: $id) { ... on Business { slug } } }`, { id: business.id });
    expect(node.node.slug).toBe(business.slug);
    const withIds = await t.gqlOk(`query($id: Int!) { adminBusiness(id: $id) { users(first: 1) { edges { node { id } } } } }`, { id: business.databaseId }, { token: owner.token });
    const id = withIds.adminBusiness.users.edges[0].node.id;
    const asOwner = await t.gqlOk(`query($id: ID!) { node(id: $id) { ... on BusinessUser { role } } }`, { id }, { token: owner.token });
    expect(asOwner.node.role).toBe("OWNER");
    const asViewer = await t.gql(`query($id: ID!) { node(id: $id) { ... on BusinessUser { role } } }`, { id }, { token: viewer.token });
    expect(asViewer.data?.node ?? null).toBeNull();
  });
});

describe("partner API tokens", () => {
  it("owners create a token shown once; it authenticates as a partner that reads only public content", async () => {
    const { business, owner } = await staffedBusiness("Partner Farm");
    const r = await t.gqlOk(CREATE_TOKEN, { input: { businessId: business.databaseId, name: " Accounting " } }, { token: owner.token });
    expect(r.createApiToken.__typename).toBe("CreateApiTokenSuccess");
    const { token, apiToken } = r.createApiToken.data;
    expect(token).toMatch(/^mpt_/);
    expect(apiToken).toMatchObject({ name: "Accounting", prefix: token.slice(0, 8), revokedAt: null });
    const stored = await t.db.prisma.apiToken.findFirstOrThrow({ where: { businessId: business.databaseId } });
    expect(stored.tokenHash).not.toContain(token);

    // The partner reads public content, but nothing behind a business permission or admin.
    const pub = await t.gqlOk(`query($slug: String!) { business(slug: $slug) { name page { brandName } } }`, { slug: business.slug }, { token });
    expect(pub.business.name).toBe("Partner Farm");
    const dash = await t.gql(`query($id: Int!) { adminBusiness(id: $id) { name } }`, { id: business.databaseId }, { token });
    expect(dash.errors?.[0].message).toBe("You do not have permission to do this.");
    const users = await t.gql(`query($slug: String!) { business(slug: $slug) { userCount users(first: 5) { totalCount } apiTokens(first: 5) { edges { node { name } } } } }`, { slug: business.slug }, { token });
    expect(users.data?.business).toEqual({ userCount: null, users: null, apiTokens: null });
    const mine = await t.gql(`{ myBusinesses(first: 5) { edges { node { slug } } } }`, {}, { token });
    expect(mine.errors?.length).toBeGreaterThan(0);
    const mint = await t.gqlOk(CREATE_TOKEN, { input: { businessId: business.databaseId, name: "escalate" } }, { token });
    expect(mint.createApiToken.__typename).toBe("ForbiddenError");
    const edit = await t.gqlOk(`mutation($b: Int!) { saveNextBox(input: { businessId: $b, contentHtml: "x" }) { __typename } }`, { b: business.databaseId }, { token });
    expect(edit.saveNextBox.__typename).toBe("ForbiddenError");

    const list = await t.gqlOk(`query($id: Int!) { adminBusiness(id: $id) { apiTokens(first: 5) { edges { node { id name lastUsedAt } } } } }`, { id: business.databaseId }, { token: owner.token });
    expect(list.adminBusiness.apiTokens.edges[0].node.lastUsedAt).not.toBeNull();

    // Revoked: the token reads as anonymous.
    const rev = await t.gqlOk(REVOKE_TOKEN, { id: apiToken.id }, { token: owner.token });
    expect(rev.revokeApiToken.__typename).toBe("RevokeApiTokenSuccess");
    expect(rev.revokeApiToken.data.revokedAt).not.toBeNull();
    const after = await t.gqlOk(CREATE_TOKEN, { input: { businessId: business.databaseId, name: "again" } }, { token });
    expect(after.createApiToken.__typename).toBe("UnauthenticatedError");
  });

  it("editors, viewers and other owners cannot create or revoke tokens", async () => {
    const a = await staffedBusiness("Token Farm A");
    const b = await staffedBusiness("Token Farm B");
    const input = { businessId: a.business.databaseId, name: "x" };
    for (const who of [a.editor, a.viewer, b.owner]) {
      expect((await t.gqlOk(CREATE_TOKEN, { input }, { token: who.token })).createApiToken.__typename).toBe("ForbiddenError");
    }
    expect((await t.gqlOk(CREATE_TOKEN, { input })).createApiToken.__typename).toBe("UnauthenticatedError");
    const created = await t.gqlOk(CREATE_TOKEN, { input }, { token: admin.token });
    const id = created.createApiToken.data.apiToken.id;
    expect((await t.gqlOk(REVOKE_TOKEN, { id }, { token: b.owner.token })).revokeApiToken.__typename).toBe("ForbiddenError");
    expect((await t.gqlOk(REVOKE_TOKEN, { id }, { token: a.editor.token })).revokeApiToken.__typename).toBe("ForbiddenError");
    const empty = await t.gqlOk(CREATE_TOKEN, { input: { ...input, name: "  " } }, { token: a.owner.token });
    expect(empty.createApiToken.__typename).toBe("ValidationError");
  });
});

describe("lists load in a constant number of statements", () => {
  const LIST = `{ myBusinesses(first: 10) { edges { node {
    slug logoUrl description memberCount userCount viewerRole viewerCanEdit viewerCanManageUsers
    page { brandName theme { primary } } nextBox { contentHtml }
    plans(first: 3) { edges { node { ref priceCents variations { id amountCents } } } }
    addons(first: 3) { edges { node { ref amountCents } } }
    users(first: 3) { edges { node { role user { username } } } } } } } }`;

  async function count(token: string) {
    statements = 0;
    const data = await t.gqlOk(LIST, {}, { token });
    return { statements, businesses: data.myBusinesses.edges.length as number };
  }

  it("for an owner of many businesses, whatever their number", async () => {
    const owner = await person("multi-owner");
    const addBusiness = async (i: number) => {
      const b = await createBusiness({ name: `Chain ${seq}-${i}`, attachments: [{ userId: owner.id, role: "OWNER" }] });
      await t.db.prisma.plan.create({ data: { businessId: b.databaseId, ref: "item_1", name: "Box", variations: { create: [{ mode: "PICKUP", amountCents: 100 }] } } });
      await t.db.prisma.addon.create({ data: { businessId: b.databaseId, ref: "addon_1", name: "Egg", amountCents: 50 } });
    };
    for (let i = 0; i < 2; i++) await addBusiness(i);
    const small = await count(owner.token);
    for (let i = 2; i < 7; i++) await addBusiness(i);
    const large = await count(owner.token);
    expect([small.businesses, large.businesses]).toEqual([2, 7]);
    expect(large.statements).toBe(small.statements);
  });
});
