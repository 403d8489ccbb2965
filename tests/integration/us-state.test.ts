/**
 * A US address names its state by code, the 50 states and DC, wherever a member enters one (Profile over
 * GraphQL and REST, checkout, a card's delivery address); the server refuses another with a clear message, as the
 * forms' select only offers the codes. An empty state and a foreign address's state stay allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

const PROFILE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }`;
const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }`;
const STATE_MESSAGE = "Please choose a US state by its two-letter code (for example OH).";
const ADDRESS = { fullName: "Dana Capitol", phone: "555-0100", street: "1 Penn Ave", apt: "", city: "Washington", state: "DC", zip: "20004", country: "United States" };

let t: TestApp;
let token: string;
let memberId: number;
let planRef: string;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  const f = factories(t);
  const farm = await f.business({ slug: "farm", page: { pickupEnabled: true, pickupPoints: ["Market Hall"] } });
  planRef = (await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 3000 } })).ref;
  const member = await f.user({ username: "dana", email: "dana@example.com" });
  memberId = member.id;
  token = await f.session(member, "farm");
});
afterAll(() => t?.close());

const savedAddress = async () => (await t.db.prisma.user.findUniqueOrThrow({ where: { id: memberId } })).address as Record<string, string> | null;
const profile = (address: Record<string, string>) => t.gqlOk(PROFILE, { input: { address } }, { token });
const restProfile = (address: Record<string, string>) =>
  t.app.inject({ method: "POST", url: "/api/my/profile", headers: { "content-type": "application/json", "x-tenant": "farm", authorization: `Bearer ${token}` }, payload: JSON.stringify({ profile: { address } }) });

describe("the state of a US address", () => {
  it("is saved for DC and every code, in capitals", async () => {
    expect((await profile(ADDRESS)).updateProfile.__typename).toBe("UpdateProfileSuccess");
    expect(await savedAddress()).toMatchObject({ state: "DC" });
    expect((await profile({ ...ADDRESS, state: "oh", country: "US" })).updateProfile.__typename).toBe("UpdateProfileSuccess");
    expect(await savedAddress()).toMatchObject({ state: "OH" });
  });

  it("is refused over GraphQL when it is not a code, and nothing is saved", async () => {
    await profile(ADDRESS);
    for (const state of ["Ohio", "ZZ", "PR"]) {
      const r = (await profile({ ...ADDRESS, state })).updateProfile;
      expect(r.__typename, JSON.stringify(r)).toBe("ValidationError");
      expect(r.message).toBe(STATE_MESSAGE);
      expect(r.issues).toEqual([{ path: "address.state", message: STATE_MESSAGE }]);
    }
    // A patch of the state alone is judged with the saved country.
    expect((await t.gqlOk(PROFILE, { input: { address: { state: "XX" } } }, { token })).updateProfile.__typename).toBe("ValidationError");
    expect(await savedAddress()).toMatchObject({ state: "DC" });
  });

  it("is refused by REST's profile save with the same message (the contract's 400 invalid_input)", async () => {
    const res = await restProfile({ ...ADDRESS, state: "Ohio" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: "invalid_input", error: STATE_MESSAGE });
    const ok = await restProfile({ ...ADDRESS, state: "WY" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().address_json.state).toBe("WY");
  });

  it("is refused at checkout before any payment starts", async () => {
    const start = (state: string) =>
      t.gqlOk(START, { input: { selection: { businessSlug: "farm", planRef, mode: "PICKUP" }, email: "dana@example.com", idempotencyKey: `state-attempt-${++seq}`, address: { ...ADDRESS, state } } }, { token, tenant: "farm" });
    const refused = (await start("Ohio")).startCheckout;
    expect(refused.__typename).toBe("ValidationError");
    expect(refused.issues).toEqual([{ path: "address.state", message: STATE_MESSAGE }]);
    expect((await start("DC")).startCheckout.__typename).toBe("StartCheckoutSuccess");
  });

  it("may be empty (checkout saves the address as it is typed), and a foreign address keeps its own", async () => {
    expect((await profile({ ...ADDRESS, state: "" })).updateProfile.__typename).toBe("UpdateProfileSuccess");
    expect((await profile({ ...ADDRESS, state: "Ontario", country: "Canada" })).updateProfile.__typename).toBe("UpdateProfileSuccess");
    expect(await savedAddress()).toMatchObject({ state: "Ontario", country: "Canada" });
  });
});
