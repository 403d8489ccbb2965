import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "../../api/context.ts";
import { moveDemoClock } from "../../api/jobs/demo-clock.ts";
import { ShiftedClock, systemClock } from "../../api/shared/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

/** moveDemoClock (demos and browser tests): administrators move a movable clock forward; the real clock refuses. */

let t: TestApp;
let adminToken = "";
let ownerToken = "";
const MOVE = `mutation($to: DateTime!) { moveDemoClock(to: $to) { __typename ... on MoveDemoClockSuccess { data { now renewalQueued } } ... on Error { message } } }`;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  const f = factories(t);
  adminToken = await f.session(await f.user({ isAdmin: true }));
  ownerToken = await f.session(await f.user());
});
afterAll(() => t?.close());

const admin = { kind: "user" as const, user: { id: 1, publicId: "u1", username: "admin", isAdmin: true }, session: { id: 1, tenantSlug: null } };
const ctxWith = (clock: ServiceContext["clock"]) => ({ db: t.db.prisma, clock, config: t.config, log: pino({ level: "silent" }), actor: admin, tenant: null, ip: "127.0.0.1", roleCache: new Map() }) as unknown as ServiceContext;

describe("moveDemoClock", () => {
  it("moves the server's clock forward for administrators", async () => {
    const res = await t.gql(MOVE, { to: "2026-04-02T06:00:00Z" }, { token: adminToken });
    expect(res.data.moveDemoClock).toEqual({ __typename: "MoveDemoClockSuccess", data: { now: "2026-04-02T06:00:00.000Z", renewalQueued: false } });
    expect(t.clock.now().toISOString()).toBe("2026-04-02T06:00:00.000Z");
  });

  it("moves forward only", async () => {
    const res = await t.gql(MOVE, { to: "2026-03-01T00:00:00Z" }, { token: adminToken });
    expect(res.data.moveDemoClock).toEqual({ __typename: "ValidationError", message: "The demo clock moves forward only." });
  });

  it("a CLOCK_START clock runs on from where it was moved", async () => {
    const clock = new ShiftedClock("2026-03-05T15:00:00Z");
    await moveDemoClock(ctxWith(clock), new Date("2026-05-11T04:30:00Z"));
    expect(Math.abs(clock.now().getTime() - Date.parse("2026-05-11T04:30:00Z"))).toBeLessThan(1000);
  });

  it("is refused on the real clock (a server without CLOCK_START, so production)", async () => {
    await expect(moveDemoClock(ctxWith(systemClock), new Date(Date.now() + 86_400_000))).rejects.toThrow("The demo clock runs only on a server started with CLOCK_START (never in production).");
  });

  it("is for administrators only", async () => {
    expect((await t.gql(MOVE, { to: "2026-06-01T00:00:00Z" }, { token: ownerToken })).data.moveDemoClock.__typename).toBe("ForbiddenError");
    expect((await t.gql(MOVE, { to: "2026-06-01T00:00:00Z" })).data.moveDemoClock.__typename).toBe("UnauthenticatedError");
  });
});
