/**
 * A member's own cancel, by email through a real SMTP server: the cancel confirmed with the last box, the day it ends
 * and the way to keep the membership (the portal); then, on that day, the `canceled` letter worded for the member's
 * own cancel (reason member), not the business's. Neither can be turned off. Both databases.
 */
import type { ParsedMail } from "mailparser";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
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

const REQUEST = `mutation($input: RequestCancellationInput!) { requestCancellation(input: $input) { __typename ... on RequestCancellationSuccess { data { requestId } } ... on Error { message } } }`;
const CONFIRM = `mutation($input: ConfirmCancellationInput!) { confirmCancellation(input: $input) { __typename ... on Error { message } } }`;

beforeAll(async () => {
  smtp = await startTestSmtp();
  // March 5th, 10:00 in New York.
  t = await createTestApp({ now: "2026-03-05T15:00:00Z", config: { smtpUrl: smtp.url, mailFrom: "boxes@example.com" } });
  f = factories(t);
  farm = await f.business({ slug: "endfarm", name: "End Farm", page: { billingDay: 3, pickupEnabled: true, cancellationPolicy: "SELF_SERVICE", retentionOffers: [] } });
  await t.db.prisma.page.update({ where: { businessId: farm.id }, data: { brandName: "End Farm Boxes" } });
  veg = await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 2400 } });
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

describe("cancel email", () => {
  it("the templates are listed and mandatory", () => {
    expect(TEMPLATES.cancel_scheduled).toEqual({ label: "Cancellation scheduled", optional: null });
    expect(TEMPLATES.canceled).toEqual({ label: "Cancellation", optional: null });
  });

  it("a confirmed cancel names the last box, the end date and how to keep the membership; the end says it was the member's own", async () => {
    const user = await f.user({ username: "nora", email: "nora@example.com" });
    const token = await f.session(user, farm.slug);
    const sub = await f.subscription({ user, business: farm, plan: veg, planAmountCents: 2400, paidThroughPeriod: "2026-03" });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3 } });
    const requested = await t.gqlOk(REQUEST, { input: { subscriptionId: String(sub.id), reason: "MOVING" } }, { token });
    const confirmed = await t.gqlOk(CONFIRM, { input: { requestId: requested.requestCancellation.data.requestId } }, { token });
    expect(confirmed.confirmCancellation.__typename).toBe("ConfirmCancellationSuccess");
    await dispatchAndDeliver();
    const scheduled = only("nora@example.com", "Your End Farm Boxes membership ends after your March 2026 box");
    expect(scheduled.from?.value[0]).toMatchObject({ name: "End Farm Boxes", address: "boxes@example.com" });
    expect(scheduled.text).toContain("As you asked, your membership ends on April 3, 2026. Your March 2026 box is your last, and you will not be charged again.");
    expect(scheduled.text).toContain('Changed your mind? Choose "Keep my membership" in your portal before April 3, 2026 and it goes on as before.');
    expect(scheduled.text).toContain("http://localhost:3000/b/endfarm/membership?tab=subscriptions");

    t.clock.set("2026-04-03T14:00:00Z");
    expect(await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log }, { businessId: farm.id })).toMatchObject({ ended: 1 });
    await dispatchAndDeliver();
    const ended = only("nora@example.com", "Your End Farm Boxes membership has ended");
    expect(ended.text).toContain("As you asked, your membership ended after your March 2026 box. You will not be charged again.");
    expect(ended.text).not.toContain("End Farm Boxes canceled your membership");
    const stored = await t.db.prisma.mailMessage.findMany({ where: { recipientUserId: user.id }, orderBy: { id: "asc" } });
    expect(stored.map((m) => [m.template, m.status, m.businessId])).toEqual([
      ["cancel_scheduled", "SENT", farm.id],
      ["canceled", "SENT", farm.id],
    ]);
  });
});
