/**
 * Administration writes its events (api/events/vocabulary.ts) in the transaction of its change, through the
 * GraphQL mutations the admin screens use: businesses, roles, partner tokens, coupons, the home page and
 * accounts. A refused change announces nothing. Runs on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents, type StoredEvent } from "../../api/events/outbox.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
let adminId: number;
let ownerId: number;
let adminToken: string;
let ownerToken: string;
const AT = new Date("2026-03-05T15:00:00Z");

const lastSequence = async () => (await readEvents(t.db.prisma, { after: 0, limit: 10_000 })).at(-1)?.sequence ?? 0;
/** Runs `action` and returns the events it wrote. */
async function eventsOf(action: () => Promise<unknown>): Promise<StoredEvent[]> {
  const mark = await lastSequence();
  await action();
  return readEvents(t.db.prisma, { after: mark, limit: 1000 });
}
/** Runs a mutation and returns its result's __typename. */
async function run(query: string, variables: Record<string, unknown>, token: string): Promise<string> {
  const data = await t.gqlOk(query, variables, { token });
  return (Object.values(data)[0] as { __typename: string }).__typename;
}
const user = (id: number) => ({ type: "user", id });

const M = {
  createBusiness: `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on CreateBusinessSuccess { data { databaseId } } ... on Error { message } } }`,
  deleteBusiness: `mutation($id: Int!) { deleteBusiness(input: { businessId: $id }) { __typename ... on Error { message } } }`,
  attach: `mutation($input: AttachBusinessUserInput!) { attachBusinessUser(input: $input) { __typename ... on Error { message } } }`,
  detach: `mutation($input: DetachBusinessUserInput!) { detachBusinessUser(input: $input) { __typename ... on Error { message } } }`,
  createToken: `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { __typename ... on CreateApiTokenSuccess { data { token apiToken { id databaseId prefix } } } ... on Error { message } } }`,
  revokeToken: `mutation($id: ID!) { revokeApiToken(input: { id: $id }) { __typename ... on Error { message } } }`,
  createCoupon: `mutation($input: CreateCouponInput!) { createCoupon(input: $input) { __typename ... on CreateCouponSuccess { data { databaseId } } ... on Error { message } } }`,
  toggleCoupon: `mutation($id: ID!) { toggleCoupon(input: { id: $id }) { __typename ... on Error { message } } }`,
  deleteCoupon: `mutation($id: ID!) { deleteCoupon(input: { id: $id }) { __typename ... on Error { message } } }`,
  saveHome: `mutation($input: SaveHomePageInput!) { saveHomePage(input: $input) { __typename ... on Error { message } } }`,
  profile: `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename ... on Error { message } } }`,
  createUser: `mutation($input: CreateUserInput!) { createUser(input: $input) { __typename ... on CreateUserSuccess { data { databaseId } } ... on Error { message } } }`,
};

beforeAll(async () => {
  t = await createTestApp({ now: AT.toISOString() });
  f = factories(t);
  adminId = (await f.user({ username: "root", isAdmin: true })).id;
  ownerId = (await f.user({ username: "baker" })).id;
  adminToken = await f.session({ id: adminId });
  ownerToken = await f.session({ id: ownerId });
});
afterAll(() => t.close());

describe("business events", () => {
  it("creating a business announces it and each role it grants; deleting it announces that; refusals announce nothing", async () => {
    let businessId = 0;
    const created = await eventsOf(async () => {
      const data = await t.gqlOk(M.createBusiness, { input: { name: "Rye & Co", slug: "rye", attachments: [{ userId: ownerId, role: "OWNER" }] } }, { token: adminToken });
      businessId = data.createBusiness.data.databaseId;
    });
    const link = await t.db.prisma.businessUser.findFirstOrThrow({ where: { businessId } });
    expect(created).toEqual([
      expect.objectContaining({ type: "business.created.v1", businessId, actor: user(adminId), objectId: globalId("Business", businessId), payload: { businessId, slug: "rye", name: "Rye & Co" }, createdAt: AT }),
      expect.objectContaining({ type: "business.role_granted.v1", businessId, objectId: globalId("BusinessUser", link.id), payload: { businessId, userId: ownerId, role: "OWNER" } }),
    ]);
    // The slug is taken; and an owner may not create businesses.
    expect(await eventsOf(async () => expect(await run(M.createBusiness, { input: { name: "Rye again", slug: "rye" } }, adminToken)).toBe("ConflictError"))).toEqual([]);
    expect(await eventsOf(async () => expect(await run(M.createBusiness, { input: { name: "Mine" } }, ownerToken)).toBe("ForbiddenError"))).toEqual([]);

    // A business with a paying member is not deleted: nothing announced. Without one, it is.
    const plan = await f.plan({ id: businessId });
    const sub = await f.subscription({ user: { id: ownerId }, business: { id: businessId }, plan });
    expect(await eventsOf(async () => expect(await run(M.deleteBusiness, { id: businessId }, adminToken)).toBe("ConflictError"))).toEqual([]);
    await t.db.prisma.subscription.delete({ where: { id: sub.id } });
    const deleted = await eventsOf(async () => expect(await run(M.deleteBusiness, { id: businessId }, adminToken)).toBe("DeleteBusinessSuccess"));
    expect(deleted).toEqual([expect.objectContaining({ type: "business.deleted.v1", businessId, actor: user(adminId), payload: { businessId, slug: "rye", name: "Rye & Co" } })]);
  });
});

describe("role events", () => {
  it("granting, changing and revoking a role each announce it; attaching with the same role or a refused owner grant announce nothing", async () => {
    const business = await f.business({ slug: "roles" });
    await f.attach(business, { id: ownerId }, "OWNER");
    const staff = await f.user({ username: "clerk" });
    const input = { businessId: business.id, userId: staff.id };

    const granted = await eventsOf(async () => expect(await run(M.attach, { input: { ...input, role: "EDITOR" } }, ownerToken)).toBe("AttachBusinessUserSuccess"));
    const link = await t.db.prisma.businessUser.findFirstOrThrow({ where: input });
    expect(granted).toEqual([
      expect.objectContaining({ type: "business.role_granted.v1", businessId: business.id, actor: user(ownerId), objectId: globalId("BusinessUser", link.id), payload: { ...input, role: "EDITOR" } }),
    ]);
    expect(await eventsOf(() => run(M.attach, { input: { ...input, role: "EDITOR" } }, ownerToken))).toEqual([]);
    expect(await eventsOf(async () => expect(await run(M.attach, { input: { ...input, role: "OWNER" } }, ownerToken)).toBe("ForbiddenError"))).toEqual([]);

    const changed = await eventsOf(() => run(M.attach, { input: { ...input, role: "VIEWER" } }, ownerToken));
    expect(changed.map((e) => [e.type, e.payload])).toEqual([["business.role_changed.v1", { ...input, role: "VIEWER", previousRole: "EDITOR" }]]);

    // Only an administrator removes the owner.
    expect(await eventsOf(async () => expect(await run(M.detach, { input: { businessId: business.id, userId: ownerId } }, ownerToken)).toBe("ForbiddenError"))).toEqual([]);
    const revoked = await eventsOf(() => run(M.detach, { input }, ownerToken));
    expect(revoked).toEqual([expect.objectContaining({ type: "business.role_revoked.v1", objectId: globalId("BusinessUser", link.id), payload: { ...input, role: "VIEWER" } })]);
  });
});

describe("partner token events", () => {
  it("creating and revoking a token announce it (never its secret); a second revoke or another business's owner announce nothing", async () => {
    const business = await f.business({ slug: "tokens" });
    await f.attach(business, { id: ownerId }, "OWNER");
    let made!: { token: string; apiToken: { id: string; databaseId: number; prefix: string } };
    const created = await eventsOf(async () => {
      made = (await t.gqlOk(M.createToken, { input: { businessId: business.id, name: "Partner feed" } }, { token: ownerToken })).createApiToken.data;
    });
    const payload = { tokenId: made.apiToken.databaseId, businessId: business.id, name: "Partner feed", prefix: made.apiToken.prefix };
    expect(created).toEqual([expect.objectContaining({ type: "api_token.created.v1", businessId: business.id, actor: user(ownerId), objectId: made.apiToken.id, payload })]);
    expect(JSON.stringify(created)).not.toContain(made.token);

    const stranger = await f.user({ username: "stranger" });
    const other = await f.business({ slug: "elsewhere" });
    await f.attach(other, stranger, "OWNER");
    const strangerToken = await f.session(stranger);
    expect(await eventsOf(async () => expect(await run(M.revokeToken, { id: made.apiToken.id }, strangerToken)).toBe("ForbiddenError"))).toEqual([]);

    const revoked = await eventsOf(async () => expect(await run(M.revokeToken, { id: made.apiToken.id }, ownerToken)).toBe("RevokeApiTokenSuccess"));
    expect(revoked).toEqual([expect.objectContaining({ type: "api_token.revoked.v1", objectId: made.apiToken.id, payload })]);
    expect(await eventsOf(() => run(M.revokeToken, { id: made.apiToken.id }, ownerToken))).toEqual([]);
  });
});

describe("coupon events", () => {
  it("created, switched off and deleted, platform-wide; a taken code or a non-administrator announce nothing", async () => {
    let couponId = 0;
    const created = await eventsOf(async () => {
      couponId = (await t.gqlOk(M.createCoupon, { input: { code: "spring5", type: "FIXED", value: 500 } }, { token: adminToken })).createCoupon.data.databaseId;
    });
    expect(created).toEqual([
      expect.objectContaining({ type: "coupon.created.v1", businessId: null, actor: user(adminId), objectId: globalId("Coupon", couponId), payload: { couponId, businessId: null, code: "SPRING5", type: "FIXED", value: 500, active: true } }),
    ]);
    expect(await eventsOf(async () => expect(await run(M.createCoupon, { input: { code: "SPRING5", type: "PERCENT", value: 5 } }, adminToken)).toBe("ConflictError"))).toEqual([]);
    expect(await eventsOf(async () => expect(await run(M.toggleCoupon, { id: String(couponId) }, ownerToken)).toBe("ForbiddenError"))).toEqual([]);

    const toggled = await eventsOf(() => run(M.toggleCoupon, { id: String(couponId) }, adminToken));
    expect(toggled.map((e) => [e.type, e.payload])).toEqual([["coupon.updated.v1", { couponId, businessId: null, code: "SPRING5", active: false }]]);
    const deleted = await eventsOf(async () => expect(await run(M.deleteCoupon, { id: String(couponId) }, adminToken)).toBe("DeleteCouponSuccess"));
    expect(deleted.map((e) => [e.type, e.businessId, e.payload])).toEqual([["coupon.deleted.v1", null, { couponId, businessId: null, code: "SPRING5" }]]);
    expect(await eventsOf(async () => expect(await run(M.deleteCoupon, { id: String(couponId) }, adminToken)).toBe("NotFoundError"))).toEqual([]);
  });
});

describe("home page events", () => {
  it("saving the platform home page publishes it; a refused save announces nothing", async () => {
    const published = await eventsOf(async () => expect(await run(M.saveHome, { input: { content: { brand: { name: "Boxes" } } } }, adminToken)).toBe("SaveHomePageSuccess"));
    const home = await t.db.prisma.page.findFirstOrThrow({ where: { isHome: true } });
    expect(published).toEqual([expect.objectContaining({ type: "home_page.published.v1", businessId: null, actor: user(adminId), objectId: globalId("Page", home.id), payload: { pageId: home.id } })]);
    expect(await eventsOf(async () => expect(await run(M.saveHome, { input: { content: { brand: { name: "Mine" } } } }, ownerToken)).toBe("ForbiddenError"))).toEqual([]);
  });
});

describe("account events", () => {
  it("a profile save names the fields it changed, and an email change carries the previous address; an unchanged or refused save announces nothing", async () => {
    const member = await f.user({ username: "dana", email: "dana@old.example", name: "Dana" });
    const token = await f.session(member);
    const saved = await eventsOf(() => run(M.profile, { input: { email: "Dana@New.example", name: "Dana", phone: "555-0100" } }, token));
    const objectId = globalId("User", member.id);
    expect(saved).toEqual([
      expect.objectContaining({ type: "user.profile_updated.v1", businessId: null, actor: user(member.id), objectId, payload: { userId: member.id, changed: ["email", "phone"] } }),
      expect.objectContaining({ type: "user.email_changed.v1", objectId, payload: { userId: member.id, email: "dana@new.example", previousEmail: "dana@old.example" } }),
    ]);
    expect(await eventsOf(() => run(M.profile, { input: { email: "dana@new.example", phone: "555-0100" } }, token))).toEqual([]);
    expect(await eventsOf(async () => expect(await run(M.profile, { input: { email: "not an address" } }, token)).toBe("ValidationError"))).toEqual([]);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: member.id } })).email).toBe("dana@new.example");

    const address = await eventsOf(() => run(M.profile, { input: { address: { city: "Ithaca" } } }, token));
    expect(address.map((e) => [e.type, e.payload])).toEqual([["user.profile_updated.v1", { userId: member.id, changed: ["address"] }]]);
  });

  it("an administrator creating an account announces it; a taken username announces nothing", async () => {
    let userId = 0;
    const created = await eventsOf(async () => {
      userId = (await t.gqlOk(M.createUser, { input: { username: "ops", password: "long-enough-1", isAdmin: true } }, { token: adminToken })).createUser.data.databaseId;
    });
    expect(created).toEqual([expect.objectContaining({ type: "user.created.v1", businessId: null, actor: user(adminId), objectId: globalId("User", userId), payload: { userId, username: "ops", isAdmin: true } })]);
    expect(await eventsOf(async () => expect(await run(M.createUser, { input: { username: "ops", password: "long-enough-2" } }, adminToken)).toBe("ConflictError"))).toEqual([]);
  });
});
