/**
 * The sandbox's onboarding page chooses the bank account payouts go to (`completeSandboxOnboarding`'s
 * `bankAccount`): Stripe's failing test number 000111111116, typed there, makes the Monday payout fail with
 * `no_account` on its arrival day, its amount back in the balance. A number that is not 4 to 17 digits is the
 * field's validation error, before anything is spent: the link still works and the account is as it was. Both
 * databases.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxFor } from "../../api/billing/service.ts";
import { payoutsSandboxJob } from "../../api/jobs/payouts-sandbox-job.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";

const log = pino({ level: "silent" });

const START = `mutation($b: ID!) { startPayoutOnboarding(input: { businessId: $b }) { __typename ... on StartPayoutOnboardingSuccess { data { url } } ... on Error { message } } }`;
const LINK = `query($link: String!) { sandboxOnboardingLink(link: $link) { usable } }`;
const COMPLETE = `mutation($link: String!, $bank: String) { completeSandboxOnboarding(link: $link, bankAccount: $bank) {
  __typename ... on CompleteSandboxOnboardingSuccess { data } ... on ValidationError { issues { path message } } ... on Error { message } } }`;
const PAYOUTS = `query($slug: String!) { business(slug: $slug) {
  payoutAccount { status }
  payouts(first: 10) { edges { node { amountCents status failureCode failureReason } } }
} }`;

let t: TestApp;
let f: Factories;
let seq = 0;

const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });
const pass = () => payoutsSandboxJob(ctx()).run({} as never, new AbortController().signal);
const linkOf = (url: string) => new URL(url).pathname.split("/").at(-1)!;
const accountOf = async (businessId: number) => (await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId } })).accountId;
const balanceOf = async (businessId: number) => sandboxFor(ctx()).retrieveBalance(await accountOf(businessId));
/** The sandbox's own record of the account (where its bank account number is kept). */
const sandboxAccount = async (businessId: number) => (await t.db.prisma.sandboxObject.findUniqueOrThrow({ where: { id: await accountOf(businessId) } })).data as Record<string, unknown>;

/** A business with no payout account yet, its owner's token, and a fresh onboarding link made through GraphQL. */
async function onboarding() {
  const slug = `bank-${++seq}`;
  const business = await f.business({ slug, name: `Bank Farm ${seq}`, payouts: "none", page: { billingDay: 5, pickupEnabled: true } });
  const owner = await f.user({ username: `bank-owner${seq}`, email: `bank-owner${seq}@example.com` });
  await f.attach(business, owner, "OWNER");
  const token = await f.session(owner);
  const started = (await t.gqlOk(START, { b: business.id }, { token })).startPayoutOnboarding;
  expect(started.__typename).toBe("StartPayoutOnboardingSuccess");
  return { business, slug, token, link: linkOf(started.data.url) };
}

async function checkout(slug: string, planRef: string) {
  const buyer = await f.user({ username: `bank-buyer${++seq}` });
  const opts = { token: await f.session(buyer, slug), tenant: slug };
  const selection = { businessSlug: slug, planRef, mode: "PICKUP", addonRefs: [] };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `bank-buyer${seq}@example.com`, idempotencyKey: `payouts-bank-${seq}-key` } }, opts)).startCheckout;
  expect(started.__typename).toBe("StartCheckoutSuccess");
  await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, opts);
  expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
}

beforeAll(async () => {
  // Monday March 2nd, 2026 (New York): the week below runs to the payout's arrival on Wednesday the 11th.
  t = await createTestApp({ now: "2026-03-02T15:00:00Z" });
  f = factories(t);
}, 60_000);
afterAll(() => t?.close());

describe("the sandbox onboarding page's bank account", () => {
  it("000111111116 typed at onboarding: the Monday payout fails with no_account, the amount back in the balance", async () => {
    const { business, slug, token, link } = await onboarding();
    const done = (await t.gqlOk(COMPLETE, { link, bank: " 000111111116 " })).completeSandboxOnboarding;
    expect(done).toMatchObject({ __typename: "CompleteSandboxOnboardingSuccess", data: expect.stringMatching(/onboarding=return$/) });
    expect(await sandboxAccount(business.id)).toMatchObject({ chargesEnabled: true, payoutsEnabled: true, bankAccountNumber: "000111111116" });
    expect((await t.gqlOk(PAYOUTS, { slug }, { token })).business.payoutAccount).toEqual({ status: "ENABLED" });

    // Tuesday 3rd: a member joins; the charge is available on Thursday the 5th.
    const plan = await f.plan(business, { prices: { PICKUP: 2900 } });
    t.clock.set("2026-03-03T15:00:00Z");
    await checkout(slug, plan.ref);

    // Monday 9th: the whole available balance is paid out, in transit for two days.
    t.clock.set("2026-03-09T15:00:00Z");
    const available = (await balanceOf(business.id)).availableCents;
    expect(available).toBeGreaterThan(0);
    expect(await pass()).toMatchObject({ paid: 1, failed: 0 });
    expect((await balanceOf(business.id)).availableCents).toBe(0);
    expect((await t.gqlOk(PAYOUTS, { slug }, { token })).business.payouts.edges).toEqual([
      { node: { amountCents: available, status: "IN_TRANSIT", failureCode: null, failureReason: null } },
    ]);

    // Wednesday 11th, its arrival day: the bank has no such account.
    t.clock.set("2026-03-11T15:00:00Z");
    expect(await pass()).toMatchObject({ paid: 0, settled: 0, failed: 1 });
    expect((await t.gqlOk(PAYOUTS, { slug }, { token })).business.payouts.edges).toEqual([
      { node: { amountCents: available, status: "FAILED", failureCode: "no_account", failureReason: "The bank couldn't find an account with the bank details on file." } },
    ]);
    expect((await balanceOf(business.id)).availableCents).toBe(available);
    expect(await t.db.prisma.event.count({ where: { type: "payout.failed.v1", businessId: business.id } })).toBe(1);
  });

  it.each([
    ["letters", "00012345678x"],
    ["too short", "123"],
    ["too long", "000123456789012345"],
    ["empty", ""],
  ])("a bank account number that is not 4 to 17 digits (%s): the field's error; the link and the account are unchanged", async (_why, number) => {
    const { business, slug, token, link } = await onboarding();
    const before = await sandboxAccount(business.id);
    const refused = (await t.gqlOk(COMPLETE, { link, bank: number })).completeSandboxOnboarding;
    expect(refused).toEqual({
      __typename: "ValidationError",
      message: "A bank account number is 4 to 17 digits.",
      issues: [{ path: "bankAccount", message: "A bank account number is 4 to 17 digits." }],
    });
    expect(await sandboxAccount(business.id)).toEqual(before);
    expect(before).toMatchObject({ chargesEnabled: false, bankAccountNumber: "000123456789" });
    expect((await t.gqlOk(PAYOUTS, { slug }, { token })).business.payoutAccount).toEqual({ status: "ONBOARDING" });
    expect(await t.db.prisma.event.count({ where: { type: "payout_account.updated.v1", businessId: business.id } })).toBe(0);

    // Nothing was spent: the owner corrects the number on the same page.
    expect((await t.gqlOk(LINK, { link })).sandboxOnboardingLink.usable).toBe(true);
    expect((await t.gqlOk(COMPLETE, { link, bank: "000111111113" })).completeSandboxOnboarding.__typename).toBe("CompleteSandboxOnboardingSuccess");
    expect(await sandboxAccount(business.id)).toMatchObject({ chargesEnabled: true, bankAccountNumber: "000111111113" });
  });

  it("left out, the account keeps the number it has (Stripe's test number whose payouts arrive, for a new one)", async () => {
    const { business, link } = await onboarding();
    expect((await t.gqlOk(COMPLETE, { link })).completeSandboxOnboarding.__typename).toBe("CompleteSandboxOnboardingSuccess");
    expect(await sandboxAccount(business.id)).toMatchObject({ chargesEnabled: true, bankAccountNumber: "000123456789" });
  });
});
