/**
 * Email (api/mail/): a real SMTP server receives the messages of a whole monthly cycle on the injectable clock —
 * checkout, window reminder, pre-charge notice, renewal, declines, final notice, cancel — and the delivery
 * guarantees: SMTP down then up delivers each message once, a permanent refusal is recorded and not retried, a
 * rolled-back change sends nothing, a re-read outbox plans nothing twice, opt-outs are honoured while the
 * mandatory messages still go, and without SMTP every message is held for the Sent mail page. Both databases.
 */
import type { ParsedMail } from "mailparser";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { writeEvents, SYSTEM_ACTOR } from "../../api/events/outbox.ts";
import { mailJobs } from "../../api/jobs/mail-jobs.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { dispatchEvents, MAIL_CONSUMER } from "../../api/mail/dispatch.ts";
import { planReminders } from "../../api/mail/reminders.ts";
import { smtpTransport } from "../../api/mail/transport.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";
import { startTestSmtp, type TestSmtp } from "../support/smtp.ts";

const log = pino({ level: "silent" });
let t: TestApp;
let f: Factories;
let smtp: TestSmtp;
let jobs: JobQueue;
let farm: { id: number; slug: string };
let veg: { id: number; ref: string };
let ownerId: number;

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, jobs });
/** Reads the outbox into messages, then waits until every queued message has left QUEUED. */
async function dispatchAndDeliver() {
  const r = await dispatchEvents(ctx());
  await settle();
  return r;
}
async function settle() {
  await until("queued messages to be delivered", async () => (await t.db.prisma.mailMessage.count({ where: { status: "QUEUED" } })) === 0);
}
const to = (address: string) => (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === address));
const inbox = (address: string) => smtp.received.filter(to(address));

async function checkout(username: string, email: string, key: string) {
  const user = await f.user({ username, email });
  const token = await f.session(user, "farm");
  const started = await t.gqlOk(PAY.START, { input: { selection: { businessSlug: "farm", planRef: veg.ref, mode: "PICKUP" }, email, idempotencyKey: key, expectedTotalCents: 2400 } }, { token, tenant: "farm" });
  const data = started.startCheckout.data;
  await t.gqlOk(PAY.CONFIRM, { s: data.clientSecret });
  await t.gqlOk(PAY.COMPLETE, { id: data.paymentIntentId }, { token });
  return { user, token, membershipId: data.membership.databaseId as number };
}

/** The membership's saved card declines from now on. */
async function declineCardOf(membershipId: number) {
  const { providerPaymentMethodId } = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: membershipId } });
  const pm = await t.db.prisma.sandboxObject.findUniqueOrThrow({ where: { id: providerPaymentMethodId! } });
  await t.db.prisma.sandboxObject.update({ where: { id: pm.id }, data: { data: { ...(pm.data as object), behavior: "decline_after_attach" } } });
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({ now: "2026-03-05T15:00:00Z", config: { smtpUrl: smtp.url, mailFrom: "boxes@example.com" } });
  f = factories(t);
  farm = await f.business({ slug: "farm", name: "Green Farm", page: { billingDay: 10, skipWindowStart: 1, skipWindowEnd: 14, changeWindowStart: 1, changeWindowEnd: 14, pickupEnabled: true } });
  await t.db.prisma.page.update({ where: { businessId: farm.id }, data: { brandName: "Green Farm Boxes", mailReplyTo: "hello@greenfarm.example", theme: { primary: "#2f855a" } } });
  veg = await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 2400 } });
  ownerId = (await f.user({ username: "farmer", email: "farmer@greenfarm.example" })).id;
  await f.attach(farm, { id: ownerId }, "OWNER");
  const transport = smtpTransport(smtp.url);
  jobs = await startJobQueue({
    db: t.db,
    log,
    definitions: mailJobs({ db: t.db.prisma, clock: t.clock, config: t.config, transport, jobs: () => jobs }, { send: { retryDelay: 1, retryDelayMax: 2, retryLimit: 5 } }).filter((d) => d.queue.name === "mail-send"),
    schedules: [],
    pollingIntervalSeconds: 0.5,
  });
}, 60_000);
afterAll(async () => {
  await jobs?.stop(2_000);
  await smtp?.close();
  await t?.close();
});

describe("a month of a member's email", () => {
  let eve: Awaited<ReturnType<typeof checkout>>;
  let sam: Awaited<ReturnType<typeof checkout>>;

  it("checkout: a welcome with the receipt, from the business's name with its reply-to and portal links", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    eve = await checkout("eve", "eve@example.com", "mail-eve");
    sam = await checkout("sam", "sam@example.com", "mail-sam");
    await dispatchAndDeliver();
    const [welcome] = inbox("eve@example.com");
    expect(inbox("eve@example.com")).toHaveLength(1);
    expect(welcome.subject).toBe("Welcome to Green Farm Boxes: your receipt");
    expect(welcome.from?.value[0]).toMatchObject({ name: "Green Farm Boxes", address: "boxes@example.com" });
    expect(welcome.replyTo?.value[0].address).toBe("hello@greenfarm.example");
    expect(welcome.text).toContain("We charged $24.00 for your March 2026 box.");
    expect(welcome.text).toContain("Your next charge is on April 10, 2026.");
    expect(welcome.html).toContain("#2f855a");
    expect(welcome.html).toContain("http://localhost:3000/b/farm/membership?tab=subscriptions");
    const stored = await t.db.prisma.mailMessage.findFirstOrThrow({ where: { toAddress: "eve@example.com", template: "welcome" } });
    expect(welcome.messageId).toBe(stored.messageId);
    expect(stored).toMatchObject({ status: "SENT", attempts: 1, businessId: farm.id, recipientUserId: eve.user.id });
    // Sam turns the reminders and the pre-charge notice off in the portal (the API it calls).
    const res = await t.gqlOk(`mutation { updateMailPreferences(input: { reminders: false, prechargeNotice: false }) { ... on UpdateMailPreferencesSuccess { data { reminders prechargeNotice digest } } } }`, {}, { token: sam.token });
    expect(res.updateMailPreferences.data).toEqual({ reminders: false, prechargeNotice: false, digest: true });
  });

  it("the window reminder goes out 3 days before the window's end day, once however often the job runs", async () => {
    t.clock.set("2026-03-10T15:00:00Z");
    expect((await planReminders(ctx())).windowReminders).toBe(0);
    t.clock.set("2026-03-11T15:00:00Z");
    await planReminders(ctx());
    await planReminders(ctx());
    await settle();
    const reminders = inbox("eve@example.com").filter((m) => m.subject?.startsWith("Last days"));
    expect(reminders).toHaveLength(1);
    expect(reminders[0].subject).toBe("Last days to skip or change your April 2026 box");
    expect(reminders[0].text).toContain("until March 14, 2026");
    // Sam turned reminders off.
    expect(inbox("sam@example.com").map((m) => m.subject)).toEqual(["Welcome to Green Farm Boxes: your receipt"]);
  });

  it("the pre-charge notice: 3 days before the billing day, with the amount and the date", async () => {
    t.clock.set("2026-04-07T15:00:00Z");
    await planReminders(ctx());
    await settle();
    const notices = inbox("eve@example.com").filter((m) => m.subject?.startsWith("Upcoming charge"));
    expect(notices.map((m) => m.subject)).toEqual(["Upcoming charge: $24.00 on April 10, 2026"]);
    // The windows are open on April 7, but April's box is past its ready day (the 1st, no cutoff): a skip now would
    // pause May, not the April charge the notice is about, so it offers the change only.
    expect(notices[0].text).not.toMatch(/Skip a month/);
    expect(notices[0].text).toMatch(/Change your box: http:\/\/localhost:3000\/b\/farm\/membership\?tab=subscriptions&membership=\d+&open=change/);
    expect(inbox("sam@example.com").some((m) => m.subject?.startsWith("Upcoming charge"))).toBe(false);
  });

  it("renewal receipts (also to members who turned the optional messages off), declines with their retry dates, the final notice and the cancel for non-payment", async () => {
    await declineCardOf(eve.membershipId);
    const renewAt = async (iso: string) => {
      t.clock.set(iso);
      await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log });
      await dispatchAndDeliver();
    };
    await renewAt("2026-04-10T15:00:00Z");
    expect(inbox("sam@example.com").map((m) => m.subject)).toContain("Your Green Farm Boxes receipt for April 2026");
    const samReceipt = inbox("sam@example.com").find((m) => m.subject === "Your Green Farm Boxes receipt for April 2026")!;
    expect(samReceipt.text).toContain("We charged $24.00 for your April 2026 box.");
    await renewAt("2026-04-11T16:00:00Z");
    await renewAt("2026-04-13T16:00:00Z");
    await renewAt("2026-04-17T16:00:00Z");
    const eveSubjects = inbox("eve@example.com").map((m) => m.subject);
    expect(eveSubjects.filter((s) => s === "Your Green Farm Boxes payment didn't go through")).toHaveLength(2);
    expect(eveSubjects.filter((s) => s === "Final notice: update your card to keep your Green Farm Boxes membership")).toHaveLength(1);
    expect(eveSubjects.at(-1)).toBe("Your Green Farm Boxes membership was canceled");
    const failed = inbox("eve@example.com").filter((m) => m.subject === "Your Green Farm Boxes payment didn't go through");
    expect(failed[0].text).toContain("We'll try again on April 11, 2026.");
    expect(failed[1].text).toContain("We'll try again on April 13, 2026.");
    const final = inbox("eve@example.com").find((m) => m.subject?.startsWith("Final notice"))!;
    expect(final.text).toContain("We'll try one last time on April 17, 2026.");
    expect(final.text).toContain("http://localhost:3000/b/farm/membership?tab=profile");
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: eve.membershipId } })).status).toBe("CANCELED");
  });

  it("the owner's digest of a day with failed payments, once", async () => {
    t.clock.set("2026-04-11T18:00:00Z");
    await planReminders(ctx());
    await planReminders(ctx());
    await settle();
    const digests = inbox("farmer@greenfarm.example");
    expect(digests.map((m) => m.subject)).toEqual(["Green Farm Boxes on April 10, 2026: 0 new, 0 canceled, 1 failed payments"]);
    expect(digests[0].text).toContain("Failed payments (1): eve.");
  });

  it("a re-read outbox plans nothing twice", async () => {
    const before = await t.db.prisma.mailMessage.count();
    await t.db.prisma.eventConsumer.update({ where: { name: MAIL_CONSUMER }, data: { position: 0n } });
    const again = await dispatchAndDeliver();
    expect(again.events).toBeGreaterThan(5);
    expect(again.messages).toBe(0);
    expect(await t.db.prisma.mailMessage.count()).toBe(before);
  });
});

describe("delivery guarantees", () => {
  afterEach(async () => {
    await settle().catch(() => undefined);
  });

  it("a change that rolls back sends nothing", async () => {
    const before = smtp.received.length;
    const user = await f.user({ username: "rollback", email: "rollback@example.com" });
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await writeEvents(tx, { at: t.clock.now(), actor: SYSTEM_ACTOR }, [
          { type: "user.password_changed.v1", businessId: null, objectId: globalId("User", user.id), payload: { userId: user.id } },
        ]);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await dispatchAndDeliver();
    expect(smtp.received.length).toBe(before);
  });

  it("SMTP refusing temporarily: retried with backoff, delivered once", async () => {
    const user = await f.user({ username: "retry", email: "retry@example.com" });
    smtp.refuse(451, 2);
    await writeSecurityEvent(user.id);
    await dispatchEvents(ctx());
    await until("the message to be sent", async () => (await t.db.prisma.mailMessage.findFirst({ where: { toAddress: "retry@example.com", status: "SENT" } })) ?? false);
    const row = await t.db.prisma.mailMessage.findFirstOrThrow({ where: { toAddress: "retry@example.com" } });
    expect(row.attempts).toBe(3);
    expect(inbox("retry@example.com")).toHaveLength(1);
    expect(inbox("retry@example.com")[0].subject).toBe("Your password was changed");
  });

  it("SMTP down then up: each message delivered once", async () => {
    const users = await Promise.all(["down1", "down2", "down3"].map((u) => f.user({ username: u, email: `${u}@example.com` })));
    await smtp.down();
    for (const u of users) await writeSecurityEvent(u.id);
    await dispatchEvents(ctx());
    await until("a failed attempt", async () => (await t.db.prisma.mailMessage.count({ where: { toAddress: { startsWith: "down" }, attempts: { gte: 1 } } })) > 0);
    await smtp.up();
    await settle();
    for (const u of users) expect(inbox(`${u.username}@example.com`)).toHaveLength(1);
    expect(await t.db.prisma.mailMessage.count({ where: { toAddress: { startsWith: "down" }, status: "SENT" } })).toBe(3);
  });

  it("a permanent refusal (5xx) is recorded as failed and not retried", async () => {
    const user = await f.user({ username: "refused", email: "refused@example.com" });
    smtp.refuse(550, 1);
    await writeSecurityEvent(user.id);
    await dispatchEvents(ctx());
    const row = await until("the message to fail", async () => (await t.db.prisma.mailMessage.findFirst({ where: { toAddress: "refused@example.com", status: "FAILED" } })) ?? false);
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await t.db.prisma.mailMessage.findUniqueOrThrow({ where: { id: row.id } })).attempts).toBe(1);
    expect(row.lastError).toMatch(/Mailbox unavailable/);
    expect(inbox("refused@example.com")).toHaveLength(0);
  });

  it("a member without an email address: the message is recorded as failed, not dropped", async () => {
    const user = await f.user({ username: "noemail" });
    await writeSecurityEvent(user.id);
    await dispatchEvents(ctx());
    expect(await t.db.prisma.mailMessage.findFirstOrThrow({ where: { recipientUserId: user.id } })).toMatchObject({ status: "FAILED", lastError: "No email address on file" });
  });
});

async function writeSecurityEvent(userId: number) {
  await t.db.prisma.$transaction((tx) =>
    writeEvents(tx, { at: t.clock.now(), actor: SYSTEM_ACTOR }, [{ type: "user.password_changed.v1", businessId: null, objectId: globalId("User", userId), payload: { userId } }]),
  );
}

describe("without SMTP: held for the Sent mail page", () => {
  let h: TestApp;
  afterAll(() => h?.close());

  it("messages are held, owners read their business's, and a resend makes a new held message", async () => {
    h = await createTestApp({ now: "2026-03-05T15:00:00Z" });
    const hf = factories(h);
    const shop = await hf.business({ slug: "shop" });
    const other = await hf.business({ slug: "other" });
    const owner = await hf.user({ username: "shopowner", email: "o@example.com" });
    await hf.attach(shop, owner, "OWNER");
    const member = await hf.user({ username: "held", email: "held@example.com" });
    const sub = await h.db.prisma.subscription.create({
      data: { userId: member.id, businessId: shop.id, planId: (await hf.plan(shop)).id, mode: "PICKUP", planAmountCents: 1000, totalCents: 1000, status: "CANCELED" },
    });
    const otherSub = await h.db.prisma.subscription.create({
      data: { userId: member.id, businessId: other.id, planId: (await hf.plan(other)).id, mode: "PICKUP", planAmountCents: 1000, totalCents: 1000, status: "CANCELED" },
    });
    await h.db.prisma.$transaction((tx) =>
      writeEvents(tx, { at: h.clock.now(), actor: SYSTEM_ACTOR }, [
        { type: "membership.canceled.v1", businessId: shop.id, objectId: globalId("Membership", sub.id), payload: { membershipId: sub.id, userId: member.id, reason: "business" } },
        { type: "membership.canceled.v1", businessId: other.id, objectId: globalId("Membership", otherSub.id), payload: { membershipId: otherSub.id, userId: member.id, reason: "business" } },
      ]),
    );
    expect(await dispatchEvents({ db: h.db.prisma, clock: h.clock, config: h.config })).toEqual({ events: 2, messages: 2 });
    expect(await h.db.prisma.mailMessage.count({ where: { status: "HELD" } })).toBe(2);

    const LIST = `{ mailDelivery { smtpConfigured } mailMessages(first: 10) { edges { node { id templateName toAddress subject status business { slug } } } } }`;
    const ownerView = await h.gqlOk(LIST, {}, { token: await hf.session(owner) });
    expect(ownerView.mailDelivery.smtpConfigured).toBe(false);
    expect(ownerView.mailMessages.edges.map((e: { node: unknown }) => e.node)).toEqual([
      expect.objectContaining({ templateName: "Cancellation", toAddress: "held@example.com", status: "HELD", business: { slug: "shop" } }),
    ]);
    const memberView = await h.gql(LIST, {}, { token: await hf.session(member) });
    expect(memberView.data?.mailMessages?.edges ?? []).toEqual([]);

    const id = ownerView.mailMessages.edges[0].node.id;
    const resent = await h.gqlOk(`mutation($id: ID!) { resendMailMessage(id: $id) { ... on ResendMailMessageSuccess { data { status resent subject } } ... on Error { message } } }`, { id }, { token: await hf.session(owner) });
    expect(resent.resendMailMessage.data).toEqual({ status: "HELD", resent: true, subject: ownerView.mailMessages.edges[0].node.subject });
    expect(await h.db.prisma.mailMessage.count({ where: { businessId: shop.id } })).toBe(2);
  });
});
