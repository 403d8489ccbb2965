import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCheckoutCoupon } from "../../api/coupons/redemption.ts";
import { discountCents } from "../../api/rules/pricing.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
let adminToken: string;
let memberToken: string;
let ownerToken: string;

beforeAll(async () => {
  t = await createTestApp();
  f = factories(t);
  adminToken = await f.session(await f.user({ username: "admin", isAdmin: true }));
  memberToken = await f.session(await f.user({ username: "member" }));
  const owner = await f.user({ username: "owner" });
  await f.attach(await f.business({ slug: "acme" }), owner, "OWNER");
  ownerToken = await f.session(owner);
});
afterAll(() => t.close());

const CREATE = `mutation($input: CreateCouponInput!) { createCoupon(input: $input) {
  __typename ... on CreateCouponSuccess { data { id databaseId code type value active createdAt } }
  ... on Error { message code } ... on ValidationError { issues { path message } } } }`;
const TOGGLE = `mutation($id: ID!) { toggleCoupon(input: { id: $id }) {
  __typename ... on ToggleCouponSuccess { data { code active } } ... on Error { message } } }`;
const DELETE = `mutation($id: ID!) { deleteCoupon(input: { id: $id }) {
  __typename ... on DeleteCouponSuccess { data { deletedId databaseId code } } ... on Error { message } } }`;
const LIST = `{ coupons { edges { node { code type value active } } } }`;

describe("coupon administration", () => {
  it("creates a coupon with the code trimmed and upper-cased", async () => {
    const r = await t.gqlOk(CREATE, { input: { code: "  spring10 ", type: "PERCENT", value: 10 } }, { token: adminToken });
    expect(r.createCoupon.data).toMatchObject({ code: "SPRING10", type: "PERCENT", value: 10, active: true });
    const fixed = await t.gqlOk(CREATE, { input: { code: "fiver", type: "FIXED", value: 500, active: false } }, { token: adminToken });
    expect(fixed.createCoupon.data).toMatchObject({ code: "FIVER", type: "FIXED", value: 500, active: false });
  });

  it("validates with the spec §5 messages and refuses a duplicate code", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ code: "   ", type: "PERCENT", value: 10 }, "Please enter a coupon code"],
      [{ code: "X1", type: "PERCENT", value: 101 }, "Invalid percent value (0-100)"],
      [{ code: "X2", type: "PERCENT", value: -1 }, "Invalid percent value (0-100)"],
      [{ code: "X3", type: "PERCENT", value: 12.5 }, "Invalid percent value (0-100)"],
      [{ code: "X4", type: "FIXED", value: -100 }, "Invalid fixed amount"],
      [{ code: "X5", type: "FIXED", value: 99.5 }, "Invalid fixed amount"],
    ];
    for (const [input, message] of cases) {
      const r = await t.gqlOk(CREATE, { input }, { token: adminToken });
      expect(r.createCoupon, JSON.stringify(input)).toMatchObject({ __typename: "ValidationError", message });
    }
    // Boundaries are allowed.
    expect((await t.gqlOk(CREATE, { input: { code: "ZERO", type: "PERCENT", value: 0 } }, { token: adminToken })).createCoupon.__typename).toBe("CreateCouponSuccess");
    expect((await t.gqlOk(CREATE, { input: { code: "ALL", type: "PERCENT", value: 100 } }, { token: adminToken })).createCoupon.__typename).toBe("CreateCouponSuccess");
    const dup = await t.gqlOk(CREATE, { input: { code: "Spring10", type: "FIXED", value: 100 } }, { token: adminToken });
    expect(dup.createCoupon).toMatchObject({ __typename: "ConflictError", message: "A coupon with this code already exists" });
  });

  it("lists, toggles and deletes", async () => {
    const list = await t.gqlOk(LIST, {}, { token: adminToken });
    expect(list.coupons.edges.map((e: { node: { code: string } }) => e.node.code)).toEqual(["ALL", "ZERO", "FIVER", "SPRING10"]);
    const fiver = await f.db.coupon.findFirstOrThrow({ where: { code: "FIVER", businessId: null } });
    expect((await t.gqlOk(TOGGLE, { id: String(fiver.id) }, { token: adminToken })).toggleCoupon.data).toEqual({ code: "FIVER", active: true });
    expect((await t.gqlOk(TOGGLE, { id: String(fiver.id) }, { token: adminToken })).toggleCoupon.data).toEqual({ code: "FIVER", active: false });
    const del = await t.gqlOk(DELETE, { id: String(fiver.id) }, { token: adminToken });
    expect(del.deleteCoupon.data).toMatchObject({ databaseId: fiver.id, code: "FIVER" });
    expect(await f.db.coupon.findUnique({ where: { id: fiver.id } })).toBeNull();
    expect((await t.gqlOk(DELETE, { id: String(fiver.id) }, { token: adminToken })).deleteCoupon.__typename).toBe("NotFoundError");
  });

  it("is for administrators only", async () => {
    const input = { code: "NOPE", type: "PERCENT", value: 5 };
    for (const token of [memberToken, ownerToken]) {
      expect((await t.gqlOk(CREATE, { input }, { token })).createCoupon.__typename).toBe("ForbiddenError");
      expect((await t.gqlOk(TOGGLE, { id: "1" }, { token })).toggleCoupon.__typename).toBe("ForbiddenError");
      expect((await t.gqlOk(DELETE, { id: "1" }, { token })).deleteCoupon.__typename).toBe("ForbiddenError");
      expect((await t.gql(LIST, {}, { token })).errors?.[0]?.message).toBe("You do not have permission to do this.");
    }
    expect((await t.gqlOk(CREATE, { input }, {})).createCoupon.__typename).toBe("UnauthenticatedError");
    expect(await f.db.coupon.findFirst({ where: { code: "NOPE" } })).toBeNull();
  });
});

describe("checkout helpers", () => {
  it("finds an active coupon by code, case-insensitively; unknown or inactive codes are invalid", async () => {
    const ctx = { db: f.db };
    const business = await f.business({ slug: "helpers" });
    const at = { business, planId: (await f.plan(business)).id, now: t.clock.now() };
    expect((await findCheckoutCoupon(ctx, " spring10 ", at)).code).toBe("SPRING10");
    await f.coupon({ code: "OFF", active: false });
    for (const code of ["OFF", "UNKNOWN", ""]) {
      await expect(findCheckoutCoupon(ctx, code, at)).rejects.toMatchObject({ code: "VALIDATION", message: "Invalid or inactive coupon code" });
    }
  });

  it("computes discounts in cents: percent rounded, fixed capped at the subtotal", () => {
    expect(discountCents({ type: "PERCENT", value: 10 }, 3000)).toBe(300);
    expect(discountCents({ type: "PERCENT", value: 15 }, 1999)).toBe(300); // 299.85 → 300
    expect(discountCents({ type: "PERCENT", value: 33 }, 1001)).toBe(330); // 330.33 → 330
    expect(discountCents({ type: "PERCENT", value: 100 }, 4500)).toBe(4500);
    expect(discountCents({ type: "PERCENT", value: 0 }, 4500)).toBe(0);
    expect(discountCents({ type: "FIXED", value: 500 }, 3000)).toBe(500);
    expect(discountCents({ type: "FIXED", value: 5000 }, 3000)).toBe(3000);
    expect(discountCents({ type: "FIXED", value: 500 }, 0)).toBe(0);
  });
});
