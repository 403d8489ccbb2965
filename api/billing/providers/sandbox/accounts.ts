import type { ConnectedAccountInfo } from "../provider.ts";
import { SandboxCardError } from "./cards.ts";
import { rid, type SandboxStore } from "./store.ts";

/**
 * The sandbox's connected accounts (`acct_sbx_…`) and their onboarding links, kept in sandbox_objects like the
 * intents: an account is born needing everything, and its owner's visit to the onboarding page (single use, five
 * minutes, as Stripe's account links) completes it, or leaves requirements due to try the restricted path.
 */

/** What a new account owes before it may take charges and send payouts (Stripe's requirement codes). */
const ONBOARDING_REQUIREMENTS = ["business_profile.url", "external_account", "representative.first_name", "tos_acceptance.date"];

/** How long an onboarding link may be used (Stripe's account links last a few minutes). */
const ONBOARDING_LINK_MS = 5 * 60_000;

/** The bank account a new sandbox account pays out to (Stripe's test number whose payouts arrive). */
const DEFAULT_BANK_ACCOUNT = "000123456789";

interface StoredAccount extends Omit<ConnectedAccountInfo, "id"> {
  businessId: number;
  name: string;
  email: string | null;
  /** Where its payouts go (a Stripe test bank account number); accounts stored before payouts have none: the default. */
  bankAccountNumber?: string;
}

/** The bank account number the account's payouts go to. */
export const bankAccountOf = (a: StoredAccount): string => a.bankAccountNumber ?? DEFAULT_BANK_ACCOUNT;

interface StoredLink {
  accountId: string;
  expiresAt: string;
  used: boolean;
  returnUrl: string;
  refreshUrl: string;
}

export const accountInfo = (id: string, a: StoredAccount): ConnectedAccountInfo => ({
  id,
  detailsSubmitted: a.detailsSubmitted,
  chargesEnabled: a.chargesEnabled,
  payoutsEnabled: a.payoutsEnabled,
  requirementsDue: a.requirementsDue,
});

export function newAccount(args: { businessId: number; name: string; email?: string | null }): StoredAccount {
  return {
    businessId: args.businessId,
    name: args.name,
    email: args.email ?? null,
    detailsSubmitted: false,
    chargesEnabled: false,
    payoutsEnabled: false,
    requirementsDue: [...ONBOARDING_REQUIREMENTS],
    bankAccountNumber: DEFAULT_BANK_ACCOUNT,
  };
}

export async function loadAccount(store: SandboxStore, id: string): Promise<StoredAccount> {
  const a = await store.load<StoredAccount>(id, "account");
  if (!a) throw new SandboxCardError("resource_missing", `No such account: ${id}`);
  return a;
}

/** A single-use onboarding page on the app's own host (the return URL's), valid for ONBOARDING_LINK_MS. */
export async function newOnboardingLink(store: SandboxStore, now: Date, args: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<{ url: string; expiresAt: Date }> {
  await loadAccount(store, args.accountId);
  const id = rid("link");
  const expiresAt = new Date(now.getTime() + ONBOARDING_LINK_MS);
  await store.save(id, "account_link", { accountId: args.accountId, expiresAt: expiresAt.toISOString(), used: false, returnUrl: args.returnUrl, refreshUrl: args.refreshUrl } satisfies StoredLink);
  return { url: `${new URL(args.returnUrl).origin}/sandbox/connect/${id}`, expiresAt };
}

/** What the onboarding page shows: the account's business, and whether the link can still be used. */
export async function describeLink(store: SandboxStore, now: Date, linkId: string): Promise<{ accountId: string; businessName: string; usable: boolean }> {
  const link = await store.load<StoredLink>(linkId, "account_link");
  if (!link) throw new SandboxCardError("resource_missing", "This onboarding link does not exist.");
  const account = await loadAccount(store, link.accountId);
  return { accountId: link.accountId, businessName: account.name, usable: !link.used && new Date(link.expiresAt) > now };
}

/**
 * The owner finishes the onboarding page: the link is spent, and the account takes charges and sends payouts, or
 * (`leaveRequirementsDue`) is left owing its bank account, restricted. `bankAccount` is the bank account number
 * its payouts go to (Stripe's test numbers: 000123456789 arrives, 000111111116 fails with `no_account`, see
 * balances.ts); without it the account keeps the one it has. Answers the account and where to return.
 */
export async function completeOnboarding(
  store: SandboxStore,
  now: Date,
  linkId: string,
  opts: { leaveRequirementsDue?: boolean; bankAccount?: string } = {},
): Promise<{ account: ConnectedAccountInfo; returnUrl: string }> {
  if (opts.bankAccount !== undefined && !/^\d{4,17}$/.test(opts.bankAccount)) throw new SandboxCardError("invalid_bank_account", "A bank account number is 4 to 17 digits.");
  const link = await store.load<StoredLink>(linkId, "account_link");
  if (!link) throw new SandboxCardError("resource_missing", "This onboarding link does not exist.");
  if (link.used || new Date(link.expiresAt) <= now) throw new SandboxCardError("account_link_expired", "This onboarding link has expired. Start again from the Payouts page.");
  const account = await loadAccount(store, link.accountId);
  const next: StoredAccount = opts.leaveRequirementsDue
    ? { ...account, detailsSubmitted: true, chargesEnabled: false, payoutsEnabled: false, requirementsDue: ["external_account"] }
    : { ...account, detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true, requirementsDue: [], bankAccountNumber: opts.bankAccount ?? bankAccountOf(account) };
  await store.save(linkId, "account_link", { ...link, used: true } satisfies StoredLink);
  await store.save(link.accountId, "account", next);
  return { account: accountInfo(link.accountId, next), returnUrl: link.returnUrl };
}
