/**
 * The pause's email, through a real SMTP server: the pause confirmed with the months without a box and the day boxes
 * come again; skips taken back ("Your April 2026 box is back on"), for one month and for the rest of a pause; both
 * name the month a scheduled change now takes effect from. Neither can be turned off. Both databases.
 */
import type { ParsedMail } from "mailparser";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailJobs } from "../../api/jobs/mail-jobs.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { dispatchEvents } from "../../api/mail/dispatch.ts";
import { TEMPLATES } from "../../api/mail/templates.ts";
import { smtpTransport } from "../../api/mail/transport.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { startTestSmtp, type TestSmtp } from "../support/smtp.ts";

const log = pino({ level: "silent" });
let t: TestApp;
let f: Factories;
let smtp: TestSmtp;
let jobs: JobQueue;
let farm: { id: number; slug: string };
let veg: { id: number };
let family: { id: number };

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function dispatchAndDeliver() {
  await dispatchEvents({ db: t.db.prisma, clock: t.clock, config: t.config, jobs });
  await until("queued messages to be delivered", async () => (await t.db.prisma.mailMessage.count({ where: { status: "QUEUED" } })) === 0);
}
const to = (address: string) => (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === address));
function only(address: string, subject: string): ParsedMail {
  const found = smtp.received.filter(to(address)).filter((m) => m.subject === subject);
  expect(found.map((m) => m.subject), `one "${subject}" to ${address}`).toEqual([subject]);
  return found[0];
}

const PAUSE = `mutation($input: PauseMembershipInput!) { pauseMembership(input: $input) { __typename ... on Error { message } } }`;
const RESUME = `mutation($input: ResumeMembershipInput!) { resumeMembership(input: $input) { __typename ... on Error { message } } }`;
const UNSKIP = `mutation($input: UnskipMonthInput!) { unskipMonth(input: $input) { __typename ... on Error { message } } }`;
const CHANGE = `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) { __typename ... on Error { message } } }`;

beforeAll(async () => {
  smtp = await startTestSmtp();
  // March 5th, 10:00 in New York: inside the 1–14 skip window.
  t = await createTestApp({ now: "2026-03-05T15:00:00Z", config: { smtpUrl: smtp.url, mailFrom: "boxes@example.com" } });
  f = factories(t);
  farm = await f.business({ slug: "pausefarm", name: "Pause Farm", page: { billingDay: 3, pickupEnabled: true } });
  await t.db.prisma.page.update({ where: { businessId: farm.id }, data: { brandName: "Pause Farm Boxes" } });
  veg = await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 2400 } });
  family = await f.plan(farm, { name: "Family Box", prices: { PICKUP: 3600 } });
  jobs = await startJobQueue({
    db: t.db,
    log,
    definitions: mailJobs({ db: t.db.prisma, clock: t.clock, config: t.config, transport: smtpTransport(smtp.url), jobs: () => jobs }, { send: { retryDelay: 1, retryDelayMax: 2, retryLimit: 5 } }).filter(
      (d) => d.queue.name === "mail-send",
    ),
    schedules: [],
    pollingIntervalSeconds: 0.5,
  });
}, 60_000);
afterAll(async () => {
  await jobs?.stop(2_000);
  await smtp?.close();
  await t?.close();
});

async function member(username: string) {
  const user = await f.user({ username, email: `${username}@example.com` });
  const token = await f.session(user, farm.slug);
  const sub = await f.subscription({ user, business: farm, plan: veg, planAmountCents: 2400, paidThroughPeriod: "2026-03" });
  const as = (query: string, input: Record<string, unknown> = {}) => t.gqlOk(query, { input: { subscriptionId: String(sub.id), ...input } }, { token }).then((d) => Object.values(d)[0] as { __typename: string });
  return { user, sub, as, address: `${username}@example.com` };
}

describe("pause and unskip email", () => {
  it("the templates are listed and mandatory", () => {
    expect(TEMPLATES.paused).toEqual({ label: "Pause confirmation", optional: null });
    expect(TEMPLATES.unskipped).toEqual({ label: "Box back on", optional: null });
  });

  it("a pause says which months have no box and when boxes come again; resuming says the boxes are back on", async () => {
    const mia = await member("mia");
    expect((await mia.as(PAUSE, { months: 3 })).__typename).toBe("PauseMembershipSuccess");
    await dispatchAndDeliver();
    const paused = only(mia.address, "Your Pause Farm Boxes membership is paused until July 1, 2026");
    expect(paused.from?.value[0]).toMatchObject({ name: "Pause Farm Boxes", address: "boxes@example.com" });
    expect(paused.text).toContain("Your membership is paused: you will not get a box or a charge for April 2026 through June 2026.");
    expect(paused.text).toContain("Your boxes come again on July 1, 2026, charged as usual.");
    expect(paused.text).toContain("http://localhost:3000/b/pausefarm/membership?tab=subscriptions");
    expect(paused.text).not.toContain("scheduled change");

    expect((await mia.as(RESUME)).__typename).toBe("ResumeMembershipSuccess");
    await dispatchAndDeliver();
    const back = only(mia.address, "Your April, May and June 2026 boxes are back on");
    expect(back.text).toContain("Your April, May and June 2026 boxes are back on: you will get them and be charged as usual.");
    const stored = await t.db.prisma.mailMessage.findMany({ where: { recipientUserId: mia.user.id }, orderBy: { id: "asc" } });
    expect(stored.map((m) => [m.template, m.status, m.businessId])).toEqual([
      ["paused", "SENT", farm.id],
      ["unskipped", "SENT", farm.id],
    ]);
  });

  it("one month taken back: 'Your June 2026 box is back on'; both messages name the month a scheduled change takes effect from", async () => {
    const leo = await member("leo");
    expect((await leo.as(CHANGE, { planId: String(family.id), mode: "PICKUP", addonIds: [] })).__typename).toBe("ChangeSubscriptionSuccess");
    expect((await leo.as(PAUSE, { months: 3 })).__typename).toBe("PauseMembershipSuccess");
    await dispatchAndDeliver();
    const paused = only(leo.address, "Your Pause Farm Boxes membership is paused until July 1, 2026");
    expect(paused.text).toContain("Your scheduled change to your box takes effect from July 2026.");

    expect((await leo.as(UNSKIP, { month: "2026-06" })).__typename).toBe("UnskipMonthSuccess");
    await dispatchAndDeliver();
    const back = only(leo.address, "Your June 2026 box is back on");
    expect(back.text).toContain("Your June 2026 box is back on: you will get it and be charged as usual.");
    expect(back.text).toContain("Your scheduled change to your box takes effect from June 2026.");
  });
});
