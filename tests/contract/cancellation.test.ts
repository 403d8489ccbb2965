import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import type { TestApp } from "../support/app.ts";
import { type Farm, type RestClient, startFarm } from "./helpers.ts";

/**
 * A member's own cancel is GraphQL only (§7 has no member cancel route; none is added), and the REST answers do not
 * change with it: the page keeps its §3 keys whatever the cancellation settings, and a membership whose cancel is
 * scheduled reads as it did (active) until the renewal run ends it (canceled).
 */
let t: TestApp;
let s: Farm;
let call: RestClient;
beforeAll(async () => {
  ({ t, s, call } = await startFarm());
});
afterAll(() => t.close());

const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`;
const REQUEST = `mutation($input: RequestCancellationInput!) { requestCancellation(input: $input) { __typename ... on RequestCancellationSuccess { data { requestId } } ... on Error { message } } }`;
const CONFIRM = `mutation($input: ConfirmCancellationInput!) { confirmCancellation(input: $input) { __typename ... on Error { message } } }`;

describe("REST answers are unchanged by the cancel flow", () => {
  it("the page: the same §3 answer before and after the cancellation settings are saved", async () => {
    const page = () => call("GET", "/api/businesses/farm/page");
    const before = await page();
    const content = { brand: { name: "Farm" }, descriptionHtml: "<p>Fresh <b>veg</b></p>", fulfillment: { pickup: true, shipping: true, pickupPoints: ["1 Barn Rd"] } };
    const saved = await t.gqlOk(SAVE, { input: { businessId: s.farm.id, content: { ...content, cancellationPolicy: "SELF_SERVICE", retentionOffers: ["SKIP", "DISCOUNT"], retentionDiscountPercent: 15 } } }, { token: s.ownerToken });
    expect(saved.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");
    const after = await page();
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
  });

  it("a membership whose cancel is scheduled reads as before (active) in the portal and admin lists; canceled once the run ends it", async () => {
    const mine = async () => (await call("GET", "/api/my/subscriptions", { token: s.memberToken, tenant: "farm" })).body.subscriptions.find((x: any) => x.subscription_id === s.sub.id);
    const listed = async () => (await call("GET", `/api/admin/memberships?business=${s.farm.id}&status=any`, { token: s.adminToken })).body.items.find((x: any) => x.subscription_id === s.sub.id);
    const [portalBefore, adminBefore] = [await mine(), await listed()];
    expect(portalBefore).toMatchObject({ status: "active" });
    expect(adminBefore).toMatchObject({ status: "active" });

    const requested = await t.gqlOk(REQUEST, { input: { subscriptionId: String(s.sub.id), reason: "OTHER", note: "Moving abroad" } }, { token: s.memberToken, tenant: "farm" });
    const confirmed = await t.gqlOk(CONFIRM, { input: { requestId: requested.requestCancellation.data.requestId } }, { token: s.memberToken, tenant: "farm" });
    expect(confirmed.confirmCancellation.__typename).toBe("ConfirmCancellationSuccess");
    expect(await mine()).toEqual(portalBefore);
    expect(await listed()).toEqual(adminBefore);
    // No REST route cancels for the member.
    expect((await call("POST", `/api/my/subscriptions/${s.sub.id}/cancel`, { token: s.memberToken, tenant: "farm" })).status).toBe(404);

    t.clock.set("2026-04-01T15:00:00Z");
    expect(await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log: pino({ level: "silent" }) }, { businessId: s.farm.id })).toMatchObject({ ended: 1 });
    expect(await mine()).toMatchObject({ status: "canceled" });
    expect(await listed()).toMatchObject({ status: "canceled" });
  });
});
