/**
 * The owners' payout and fee email, through a real SMTP server: a payout account that the provider restricts or
 * that owes it something (api/billing/connect.ts applyAccountUpdate) sends the owner of the business "action
 * needed" with the requirements in plain words and a link to the Payouts page; an enabled account with nothing due
 * sends nothing. Scheduled platform fees (api/payouts/schedules.ts scheduleFee) reach the owner of that business,
 * or for the platform's default the owners of every business without its own schedule begun by that month, one
 * message per business (an owner of two gets two). A re-read outbox plans nothing twice. Both databases.
 */
import type { ParsedMail } from "mailparser";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "../../api/context.ts";
import { applyAccountUpdate } from "../../api/billing/connect.ts";
import { mailJobs } from "../../api/jobs/mail-jobs.ts";
import { dispatchEvents, MAIL_CONSUMER } from "../../api/mail/dispatch.ts";
import { smtpTransport } from "../../api/mail/transport.ts";
import { scheduleFee } from "../../api/payouts/schedules.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { startTestSmtp, type TestSmtp } from "../support/smtp.ts";

const log = pino({ level: "silent" });
let t: TestApp;
let f: Factories;
let smtp: TestSmtp;
let jobs: JobQueue;
/** Green Farm (brand "Green Farm Boxes"): its owner farmer and an editor (staff, not an owner). */
let farm: { id: number };
let farmAccount: string;
/** Orchard: owned by farmer too (an owner of two businesses), with an editor. */
let orchard: { id: number };
/** Dairy: its own schedule from December (the default's month): the default is not its. */
let dairy: { id: number };
/** Bakery: its own schedule from February only: the default is its from December to January. */
let bakery: { id: number };

const FARMER = "farmer@greenfarm.example";
const EDITOR = "editor@greenfarm.example";
const PICKER = "picker@orchard.example";
const DAIRY = "dairy@dairy.example";
const BAKER = "baker@bakery.example";

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, jobs });
const connect = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });
const adminActor = { kind: "user" as const, user: { id: 1, publicId: "u1", username: "admin", isAdmin: true }, session: { id: 1, tenantSlug: null } };
const admin = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log, actor: adminActor, tenant: null, roleCache: new Map() }) as unknown as ServiceContext;

async function settle() {
  await until("queued messages to be delivered", async () => (await t.db.prisma.mailMessage.count({ where: { status: "QUEUED" } })) === 0);
}
async function dispatchAndDeliver() {
  const r = await dispatchEvents(ctx());
  await settle();
  return r;
}
const to = (address: string) => (m: ParsedMail) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === address));
const inbox = (address: string) => smtp.received.filter(to(address));
const subjects = (address: string) => inbox(address).map((m) => m.subject);
const payoutsLink = (businessId: number) => `http://localhost:3000/admin/business/${businessId}/payouts`;

async function owner(business: { id: number }, username: string, email: string | null, role: "OWNER" | "EDITOR" = "OWNER") {
  const user = await f.user({ username, ...(email ? { email } : {}) });
  await f.attach(business, user, role);
  return user;
}

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({ now: "2026-11-10T15:00:00Z", config: { smtpUrl: smtp.url, mailFrom: "boxes@example.com" } });
  f = factories(t);
  farm = await f.business({ slug: "farm", name: "Green Farm", page: {} });
  await t.db.prisma.page.update({ where: { businessId: farm.id }, data: { brandName: "Green Farm Boxes", mailReplyTo: "hello@greenfarm.example" } });
  farmAccount = (await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: farm.id } })).accountId;
  const farmer = await owner(farm, "farmer", FARMER);
  await owner(farm, "editor", EDITOR, "EDITOR");
  orchard = await f.business({ slug: "orchard", name: "Orchard" });
  await f.attach(orchard, farmer, "OWNER");
  await owner(orchard, "picker", PICKER, "EDITOR");
  // An owner without an email address: nothing to send to, nothing planned.
  await owner(await f.business({ slug: "silo", name: "Silo" }), "silent", null);
  dairy = await f.business({ slug: "dairy", name: "Dairy" });
  await owner(dairy, "dairy", DAIRY);
  bakery = await f.business({ slug: "bakery", name: "Bakery" });
  await owner(bakery, "baker", BAKER);
  const transport = smtpTransport(smtp.url);
  jobs = await startJobQueue({
    db: t.db,
    log,
    definitions: mailJobs({ db: t.db.prisma, clock: t.clock, config: t.config, transport, jobs: () => jobs }, { send: { retryDelay: 1, retryDelayMax: 2, retryLimit: 5 } }).filter((d) => d.queue.name === "mail-send"),
    schedules: [],
    pollingIntervalSeconds: 0.5,
  });
  // Whatever the fixtures announced is read before the tests begin.
  await dispatchAndDeliver();
}, 60_000);
afterAll(async () => {
  await jobs?.stop(2_000);
  await smtp?.close();
  await t?.close();
});

describe("payouts that need the owners", () => {
  it("a restricted account: the owner (not the editor) hears what is paused and needed, with a link to Payouts", async () => {
    const changed = await applyAccountUpdate(connect(), {
      id: farmAccount,
      detailsSubmitted: true,
      chargesEnabled: false,
      payoutsEnabled: false,
      requirementsDue: ["external_account", "individual.dob.day", "individual.dob.month", "tos_acceptance.date", "custom.thing_due"],
    });
    expect(changed).toBe(true);
    const r = await dispatchAndDeliver();
    expect(r.messages).toBe(1);
    for (const address of [FARMER]) {
      expect(subjects(address)).toEqual(["Payouts at Green Farm Boxes: action needed"]);
      const [mail] = inbox(address);
      expect(mail.text).toContain("Charges and payouts are paused for Green Farm Boxes: members can't be charged and nothing is paid out to your bank account.");
      expect(mail.text).toContain("The payment provider needs a bank account, a date of birth, acceptance of the terms of service, and custom.thing_due.");
      expect(mail.text).toContain(`Open Payouts: ${payoutsLink(farm.id)}`);
      expect(mail.html).toContain(payoutsLink(farm.id));
      // From the platform, not the business: no reply-to (the business's own address would answer itself).
      expect(mail.from?.value[0]).toMatchObject({ name: "Membership Boxes", address: "boxes@example.com" });
      expect(mail.replyTo).toBeUndefined();
    }
    expect(inbox(EDITOR)).toEqual([]);
    const stored = await t.db.prisma.mailMessage.findMany({ where: { template: "payout_account_attention" }, orderBy: { id: "asc" } });
    expect(stored.map((m) => [m.toAddress, m.status, m.businessId])).toEqual([[FARMER, "SENT", farm.id]]);
  });

  it("an enabled account with nothing due sends nothing; one still owing something is told before it pauses", async () => {
    const before = smtp.received.length;
    expect(await applyAccountUpdate(connect(), { id: farmAccount, detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true, requirementsDue: [] })).toBe(true);
    const enabled = await dispatchAndDeliver();
    expect(enabled).toEqual({ events: 1, messages: 0 });
    expect(smtp.received.length).toBe(before);

    await applyAccountUpdate(connect(), { id: farmAccount, detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true, requirementsDue: ["individual.verification.document"] });
    await dispatchAndDeliver();
    const latest = inbox(FARMER).at(-1)!;
    expect(latest.subject).toBe("Payouts at Green Farm Boxes: action needed");
    expect(latest.text).toContain("Charges and payouts are running for Green Farm Boxes, but the payment provider needs more information to keep them going.");
    expect(latest.text).toContain("The payment provider needs an identity document.");
    expect(latest.text).toContain("Open Payouts to give it what it needs before it pauses charges or payouts.");
    expect(subjects(FARMER)).toHaveLength(2);
    expect(inbox(EDITOR)).toEqual([]);
  });
});

describe("platform fees", () => {
  it("a business's own schedule reaches its owner; the default reaches the owner of every business it applies to, once per business", async () => {
    const before = smtp.received.length;
    await scheduleFee(admin(), { businessId: dairy.id, effectivePeriod: "2026-12", platformBps: 400, platformCents: 0, processingBps: 290, processingCents: 30 });
    await scheduleFee(admin(), { businessId: bakery.id, effectivePeriod: "2027-02", platformBps: 125, platformCents: 10, processingBps: 5, processingCents: 0 });
    await scheduleFee(admin(), { businessId: null, effectivePeriod: "2026-12", platformBps: 500, platformCents: 0, processingBps: 290, processingCents: 30 });
    const r = await dispatchAndDeliver();
    // Dairy and Bakery (their own), then the default: Farm, Orchard and Bakery (Dairy has its own from December,
    // Silo's owner has no email address).
    expect(r).toEqual({ events: 3, messages: 5 });
    expect(smtp.received.length - before).toBe(5);

    const fees = (address: string) => inbox(address).filter((m) => m.subject?.startsWith("Platform fees"));
    const DEFAULT = "Platform fee 5 % and card processing 2.9 % + $0.30 per charge, from December 2026.";

    expect(fees(DAIRY).map((m) => m.subject)).toEqual(["Platform fees from December 2026"]);
    expect(fees(DAIRY)[0].text).toContain("The fees taken from the charges of Dairy change from December 2026:");
    expect(fees(DAIRY)[0].text).toContain("Platform fee 4 % and card processing 2.9 % + $0.30 per charge, from December 2026.");
    expect(fees(DAIRY)[0].text).toContain(`Open Payouts: ${payoutsLink(dairy.id)}`);

    expect(fees(BAKER).map((m) => m.subject)).toEqual(["Platform fees from February 2027", "Platform fees from December 2026"]);
    expect(fees(BAKER)[0].text).toContain("Platform fee 1.25 % + $0.10 and card processing 0.05 % per charge, from February 2027.");
    expect(fees(BAKER)[1].text).toContain(DEFAULT);

    expect(fees(EDITOR)).toEqual([]);
    expect(fees(PICKER)).toEqual([]);
    expect(await t.db.prisma.mailMessage.count({ where: { template: "platform_fee_changed", toAddress: "" } })).toBe(0);

    // An owner of two businesses: one message for each, each naming its business and linking its Payouts page.
    const farmer = fees(FARMER);
    expect(farmer.map((m) => m.subject)).toEqual(["Platform fees from December 2026", "Platform fees from December 2026"]);
    expect(farmer.every((m) => m.text?.includes(DEFAULT))).toBe(true);
    const byBusiness = (name: string) => farmer.find((m) => m.text?.includes(`the charges of ${name} change`));
    expect(byBusiness("Green Farm Boxes")?.text).toContain(`Open Payouts: ${payoutsLink(farm.id)}`);
    expect(byBusiness("Green Farm Boxes")?.text).toContain("Charges of earlier months, and their retries, keep the fees they were first made with.");
    expect(byBusiness("Orchard")?.text).toContain(`Open Payouts: ${payoutsLink(orchard.id)}`);
    const stored = await t.db.prisma.mailMessage.findMany({ where: { template: "platform_fee_changed", toAddress: FARMER }, select: { businessId: true, dedupeKey: true } });
    expect(stored.map((m) => m.businessId).sort()).toEqual([farm.id, orchard.id].sort());
    expect(new Set(stored.map((m) => m.dedupeKey)).size).toBe(2);
  });

  it("a re-read outbox plans nothing twice", async () => {
    const count = await t.db.prisma.mailMessage.count();
    const received = smtp.received.length;
    await t.db.prisma.eventConsumer.update({ where: { name: MAIL_CONSUMER }, data: { position: 0n } });
    const again = await dispatchAndDeliver();
    expect(again.events).toBeGreaterThanOrEqual(6);
    expect(again.messages).toBe(0);
    expect(await t.db.prisma.mailMessage.count()).toBe(count);
    expect(smtp.received.length).toBe(received);
  });
});
