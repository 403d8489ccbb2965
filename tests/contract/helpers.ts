import { sandboxFor } from "../../api/billing/service.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { checkAnswer } from "./declared.ts";

export interface CallOptions {
  token?: string | null;
  tenant?: string | null;
  payload?: unknown;
  headers?: Record<string, string>;
}

/**
 * One REST call through Fastify inject; JSON body parsed. Every answer is checked against its route's
 * declaration (./declared.ts): a body that does not match fails the test, and 2xx answers count towards the
 * coverage check of the contract tests.
 */
export function restClient(t: TestApp) {
  return async (method: "GET" | "POST" | "DELETE", url: string, o: CallOptions = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.tenant) headers["x-tenant"] = o.tenant;
    const res = await t.app.inject({ method, url, headers, payload: o.payload as object | undefined });
    const contentType = res.headers["content-type"];
    const body = contentType?.includes("json") ? res.json() : res.body;
    checkAnswer(method, url, { status: res.statusCode, contentType, body });
    return { status: res.statusCode, body, headers: res.headers };
  };
}

export const card = (number = "4242424242424242") => ({ number, expMonth: 12, expYear: 2031, cvc: "123" });

export function sandbox(t: TestApp) {
  return sandboxFor({ db: t.db.prisma, clock: t.clock, config: t.config });
}

/**
 * A business "farm" with a page (pickup and shipping), a plan item_veg (pickup 2400, shipping 2900) and an
 * add-on addon_eggs (500); an admin, an owner of farm, a member with an active membership and a session
 * bound to farm, and a second business "bakery".
 */
export async function seedFarm(t: TestApp) {
  const f = factories(t);
  const farm = await f.business({ slug: "farm", name: "Farm", page: { pickupEnabled: true, shippingEnabled: true, descriptionHtml: "<p>Fresh <b>veg</b></p>", pickupPoints: ["1 Barn Rd"] } });
  const bakery = await f.business({ slug: "bakery", name: "Bakery" });
  const plan = await t.db.prisma.plan.create({
    data: { businessId: farm.id, ref: "item_veg", name: "Veg Box", variations: { create: [{ mode: "PICKUP", amountCents: 2400 }, { mode: "SHIPPING", amountCents: 2900 }] } },
  });
  const hidden = await t.db.prisma.plan.create({
    data: { businessId: farm.id, ref: "item_hidden", name: "Hidden", listed: false, position: 1, variations: { create: [{ mode: "PICKUP", amountCents: 1000 }] } },
  });
  const eggs = await t.db.prisma.addon.create({ data: { businessId: farm.id, ref: "addon_eggs", name: "Eggs", amountCents: 500 } });
  const admin = await f.user({ username: "root", isAdmin: true });
  const owner = await f.user({ username: "olivia" });
  await f.attach(farm, owner, "OWNER");
  const member = await f.user({ username: "mara", email: "mara@example.com" });
  const sub = await f.subscription({ user: member, business: farm, plan, planAmountCents: 2400, addons: [{ id: eggs.id, amountCents: 500 }], email: "mara@example.com" });
  return {
    f,
    farm,
    bakery,
    plan,
    hidden,
    eggs,
    admin,
    owner,
    member,
    sub,
    adminToken: await f.session(admin),
    ownerToken: await f.session(owner),
    memberToken: await f.session(member, "farm"),
  };
}
export type Farm = Awaited<ReturnType<typeof seedFarm>>;

export type RestClient = ReturnType<typeof restClient>;

/**
 * A contract file's world: the whole server on a fresh database with the farm seeded, what the file adds to it
 * (`more`), and a REST client on it. Each file starts one in beforeAll and closes `t` in afterAll.
 */
export async function startFarm(more?: (s: Farm, t: TestApp) => Promise<unknown>): Promise<{ t: TestApp; s: Farm; call: RestClient }> {
  const t = await createTestApp();
  const s = await seedFarm(t);
  await more?.(s, t);
  return { t, s, call: restClient(t) };
}
