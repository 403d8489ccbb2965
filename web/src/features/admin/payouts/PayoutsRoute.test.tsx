import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { RelayEnvironmentProvider } from "react-relay";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters, type Variables } from "relay-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { system } from "../../../ui/theme.ts";
import PayoutsRoute from "../../../routes/admin/PayoutsRoute.tsx";

const BUSINESS_ID = "QnVzaW5lc3M6MQ==";
const FEES = { platformBps: 500, platformCents: 0, processingBps: 290, processingCents: 30 };

// Refusals carry `__isError`: Relay asks for it (as `__isError: __typename`) to read `... on Error` in a union.
type Account = { status: "ONBOARDING" | "ENABLED" | "RESTRICTED"; requirementsDue: string[] } | null;

type Balance = { availableCents: number; pendingCents: number; nextPayoutDate: string | null } | null;
type Payout = { databaseId: number; createdAt: string; arrivalDate: string; amountCents: number; status: string; failureReason: string | null };

const payoutPage = (payouts: Payout[], hasNextPage = false) => ({
  edges: payouts.map((p) => ({ cursor: `p${p.databaseId}`, node: { __typename: "Payout", ...p } })),
  pageInfo: { endCursor: payouts.length ? `p${payouts.at(-1)!.databaseId}` : null, hasNextPage },
});

const business = (payoutAccount: Account, connectFromPeriod: string | null = null, money: { balance?: Balance; payouts?: ReturnType<typeof payoutPage> } = {}) => ({
  __typename: "Business",
  id: BUSINESS_ID,
  name: "Green Acres Farm",
  databaseId: 1,
  viewerCanManagePayouts: true,
  connectFromPeriod,
  currentPeriod: "2026-04",
  timeZone: "America/New_York",
  payoutAccount,
  feeRates: FEES,
  balance: money.balance ?? null,
  payouts: money.payouts ?? payoutPage([]),
});

type Entry = { databaseId: number; date: string; memberName: string | null; period: string; kind: "CHARGE" | "REFUND"; grossCents: number; platformFeeCents: number; processingFeeCents: number; netCents: number };

const charge = (databaseId: number, date: string, memberName: string | null, grossCents: number): Entry => ({
  databaseId,
  date,
  memberName,
  period: date.slice(0, 7),
  kind: "CHARGE",
  grossCents,
  platformFeeCents: 145,
  processingFeeCents: 114,
  netCents: grossCents - 259,
});

/** Business.statement(month) as the server answers it: the totals, and a page of entries. */
function statement(month: string, entries: Entry[], hasNextPage = false, paidOutCents = 0) {
  const sum = (k: "platformFeeCents" | "processingFeeCents" | "netCents") => entries.reduce((s, e) => s + e[k], 0);
  return {
    adminBusiness: {
      __typename: "Business",
      id: BUSINESS_ID,
      statement: {
        month,
        timeZone: "America/New_York",
        grossCents: entries.filter((e) => e.kind === "CHARGE").reduce((s, e) => s + e.grossCents, 0),
        refundsCents: entries.filter((e) => e.kind === "REFUND").reduce((s, e) => s + e.grossCents, 0),
        platformFeeCents: sum("platformFeeCents"),
        processingFeeCents: sum("processingFeeCents"),
        netCents: sum("netCents"),
        paidOutCents,
        entries: entryPage(entries, hasNextPage),
      },
    },
  };
}

const entryPage = (entries: Entry[], hasNextPage: boolean) => ({
  edges: entries.map((e) => ({ cursor: `c${e.databaseId}`, node: { __typename: "StatementEntry", ...e } })),
  pageInfo: { endCursor: entries.length ? `c${entries.at(-1)!.databaseId}` : null, hasNextPage },
});

/** A server answering each operation by name with what the test gives it, recording what was asked. */
function server(answers: Record<string, (variables: Variables) => unknown>) {
  const calls: { name: string; variables: Variables }[] = [];
  const network = Network.create((request: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      calls.push({ name: request.name, variables });
      // Every page shows this month's statement: an empty one unless the test gives it.
      const answer = answers[request.name] ?? (request.name === "StatementPanelQuery" ? (v: Variables) => statement(String(v.month), []) : undefined);
      if (!answer) return sink.error(new Error(`Unexpected ${request.name}`));
      sink.next({ data: answer(variables) } as GraphQLResponse);
      sink.complete();
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), calls };
}

/** The page's requests but the statement's (StatementPanel reads its month on its own). */
const accountCalls = (calls: { name: string; variables: Variables }[]) => calls.filter((c) => !c.name.startsWith("Statement"));

function Where() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function show(environment: Environment, path = "/admin/business/1/payouts") {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment}>
        <MemoryRouter initialEntries={[path]}>
          <Suspense fallback="loading">
            <Routes>
              <Route path="/admin/business/:id/payouts" element={<PayoutsRoute />} />
              <Route path="*" element={null} />
            </Routes>
          </Suspense>
          <Where />
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
}

const status = () => screen.getByTestId("payout-status").textContent;
const statusText = () => screen.getByTestId("payout-status-text").textContent;
const button = (name: string) => screen.getByRole<HTMLButtonElement>("button", { name });

// Unmounted route queries are disposed a tick later (lib/routeQuery.ts): let that happen before the next test's
// environment asks for the same query.
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await new Promise((resolve) => setTimeout(resolve, 0));
});

describe("Payouts page", () => {
  it("without an account: Not connected, Connect payouts leaves for the onboarding link; the fees in force", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { href: window.location.href, origin: window.location.origin, assign });
    const s = server({
      PayoutsRouteQuery: () => ({ adminBusiness: business(null) }),
      PayoutAccountSectionStartMutation: () => ({ startPayoutOnboarding: { __typename: "StartPayoutOnboardingSuccess", data: { url: "https://connect.example/setup/abc" } } }),
    });
    show(s.environment);
    expect(await screen.findByRole("heading", { level: 1, name: "Payouts" })).toBeTruthy();
    expect(status()).toBe("Not connected");
    expect(screen.getByTestId("fees-in-force").textContent).toBe("Platform fee 5 % · card processing 2.9 % + $0.30 per charge");
    await act(async () => fireEvent.click(button("Connect payouts")));
    expect(s.calls.at(-1)).toEqual({ name: "PayoutAccountSectionStartMutation", variables: { input: { businessId: "1" } } });
    expect(assign).toHaveBeenCalledWith("https://connect.example/setup/abc");
  });

  it("onboarding: Finish setup with the requirements due; a refusal shows inline", async () => {
    const s = server({
      PayoutsRouteQuery: () => ({ adminBusiness: business({ status: "ONBOARDING", requirementsDue: ["external_account", "individual.id_number"] }) }),
      PayoutAccountSectionStartMutation: () => ({ startPayoutOnboarding: { __typename: "RuleViolationError", __isError: "RuleViolationError", message: "Payouts are already set up for this business." } }),
    });
    show(s.environment);
    await screen.findByTestId("payout-status");
    expect(status()).toBe("Finish setup");
    const needed = screen.getByRole("list", { name: "Still needed" });
    expect(within(needed).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Bank account for payouts", "Individual id number"]);
    await act(async () => fireEvent.click(button("Finish setup")));
    expect(screen.getByRole("alert").textContent).toContain("Payouts are already set up for this business.");
  });

  it("enabled: the month payments go to the account from, and Bank details opens the dashboard (our own host in the app)", async () => {
    const s = server({
      PayoutsRouteQuery: () => ({ adminBusiness: business({ status: "ENABLED", requirementsDue: [] }, "2026-12") }),
      PayoutAccountSectionDashboardMutation: () => ({ payoutDashboardLink: { __typename: "PayoutDashboardLinkSuccess", data: "/sandbox/connect/accounts/acct_1" } }),
    });
    show(s.environment);
    await screen.findByTestId("payout-status");
    expect(status()).toBe("Enabled");
    expect(statusText()).toBe("Members' payments go to your own account from December 2026");
    expect(screen.queryByRole("list", { name: "Still needed" })).toBeNull();
    await act(async () => fireEvent.click(button("Bank details")));
    expect(screen.getByTestId("location").textContent).toBe("/sandbox/connect/accounts/acct_1");
  });

  it("restricted: Restricted with the requirements due and Finish setup", async () => {
    const s = server({ PayoutsRouteQuery: () => ({ adminBusiness: business({ status: "RESTRICTED", requirementsDue: ["external_account"] }, "2026-11") }) });
    show(s.environment);
    await screen.findByTestId("payout-status");
    expect(status()).toBe("Restricted");
    expect(within(screen.getByRole("list", { name: "Still needed" })).getByText("Bank account for payouts")).toBeTruthy();
    expect(button("Finish setup")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Bank details" })).toBeNull();
  });

  it("back from onboarding: reads the account once, drops the parameter and shows the new state", async () => {
    const s = server({
      PayoutsRouteQuery: () => ({ adminBusiness: business({ status: "ONBOARDING", requirementsDue: ["external_account"] }) }),
      PayoutsPanelRefreshMutation: () => ({ refreshPayoutAccount: { __typename: "RefreshPayoutAccountSuccess" } }),
      PayoutsPanelRefetchQuery: () => ({ node: business({ status: "ENABLED", requirementsDue: [] }, "2027-01") }),
    });
    show(s.environment, "/admin/business/1/payouts?onboarding=return");
    await screen.findByText("Members' payments go to your own account from January 2027");
    expect(status()).toBe("Enabled");
    expect(accountCalls(s.calls).map((c) => c.name)).toEqual(["PayoutsRouteQuery", "PayoutsPanelRefreshMutation", "PayoutsPanelRefetchQuery"]);
    expect(accountCalls(s.calls)[1].variables).toEqual({ input: { businessId: "1" } });
    expect(screen.getByTestId("location").textContent).toBe("/admin/business/1/payouts");
  });

  it("back from onboarding with a refusal: says so and keeps the state it had", async () => {
    const s = server({
      PayoutsRouteQuery: () => ({ adminBusiness: business(null) }),
      PayoutsPanelRefreshMutation: () => ({ refreshPayoutAccount: { __typename: "NotFoundError", __isError: "NotFoundError", message: "Payout account not found" } }),
    });
    show(s.environment, "/admin/business/1/payouts?onboarding=refresh");
    expect((await screen.findByRole("alert")).textContent).toContain("Payout account not found");
    expect(status()).toBe("Not connected");
    expect(accountCalls(s.calls).map((c) => c.name)).toEqual(["PayoutsRouteQuery", "PayoutsPanelRefreshMutation"]);
  });

  it("the statement: this month's totals and entries, Load more, another month, the CSV with the bearer token", async () => {
    const s = server({
      PayoutsRouteQuery: () => ({ adminBusiness: business({ status: "ENABLED", requirementsDue: [] }, "2026-01") }),
      StatementPanelQuery: (v) =>
        v.month === "2026-04" ? statement("2026-04", [charge(7, "2026-04-01", "Bo Diddley", 2900), charge(9, "2026-04-03", "Cy Young", 4550)], true, 2641) : statement(String(v.month), []),
      StatementEntriesPaginationQuery: () => ({
        adminBusiness: {
          __typename: "Business",
          id: BUSINESS_ID,
          statement: { month: "2026-04", entries: entryPage([{ ...charge(12, "2026-04-02", null, -2900), period: "2026-03", kind: "REFUND", platformFeeCents: -145, processingFeeCents: -114, netCents: -2641 }], false) },
        },
      }),
    });
    show(s.environment);
    const totals = await screen.findByTestId("statement-totals");
    expect(s.calls.find((c) => c.name === "StatementPanelQuery")?.variables).toEqual({ id: 1, month: "2026-04" });
    expect(within(totals).getAllByText(/\$/).map((v) => v.parentElement?.textContent)).toEqual(["Gross$74.50", "Refunds$0.00", "Platform fee$2.90", "Processing fee$2.28", "Net$69.32", "Paid out$26.41"]);
    const rows = () => within(screen.getByTestId("statement-entries")).getAllByRole("row").slice(1).map((r) => within(r).getAllByRole("cell").map((c) => c.textContent));
    expect(rows()).toEqual([
      ["Apr 1, 2026", "Bo Diddley", "Apr 2026", "Charge", "$29.00", "$2.59", "$26.41"],
      ["Apr 3, 2026", "Cy Young", "Apr 2026", "Charge", "$45.50", "$2.59", "$42.91"],
    ]);
    await act(async () => fireEvent.click(button("Load more")));
    expect(s.calls.at(-1)).toEqual({ name: "StatementEntriesPaginationQuery", variables: { id: 1, month: "2026-04", count: 50, cursor: "c9" } });
    expect(rows()[2]).toEqual(["Apr 2, 2026", "Payment removed", "Mar 2026", "Refund", "-$29.00", "-$2.59", "-$26.41"]);
    expect(button("Next month").disabled).toBe(true);

    await act(async () => fireEvent.change(screen.getByLabelText("Statement month"), { target: { value: "2026-03" } }));
    expect(await screen.findByText("No charges or refunds in March 2026.")).toBeTruthy();
    expect(s.calls.at(-1)).toEqual({ name: "StatementPanelQuery", variables: { id: 1, month: "2026-03" } });

    localStorage.setItem("auth_token", "owner-token");
    const fetch = vi.fn(async () => new Response("date,member\r\n", { headers: { "content-disposition": 'attachment; filename="statement-farm-2026-03.csv"' } }));
    vi.stubGlobal("fetch", fetch);
    URL.createObjectURL = vi.fn(() => "blob:statement");
    URL.revokeObjectURL = vi.fn();
    const saved = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    await act(async () => fireEvent.click(button("Download CSV")));
    expect(fetch).toHaveBeenCalledWith("/api/admin/businesses/1/statements/2026-03.csv", { credentials: "include", headers: { Authorization: "Bearer owner-token" } });
    expect(saved).toHaveBeenCalledOnce();
    expect((saved.mock.contexts[0] as HTMLAnchorElement).download).toBe("statement-farm-2026-03.csv");
    saved.mockRestore();
    localStorage.removeItem("auth_token");
  });

  it("the balance, the next payout day and the payouts: newest first, a failure with its reason, Load more", async () => {
    const payouts = [
      { databaseId: 3, createdAt: "2026-04-13T15:00:00Z", arrivalDate: "2026-04-15", amountCents: 4210, status: "IN_TRANSIT", failureReason: null },
      { databaseId: 2, createdAt: "2026-04-06T15:00:00Z", arrivalDate: "2026-04-08", amountCents: 1800, status: "FAILED", failureReason: "The bank couldn't find an account with the bank details on file." },
    ];
    const s = server({
      PayoutsRouteQuery: () => ({
        adminBusiness: business({ status: "ENABLED", requirementsDue: [] }, "2026-01", { balance: { availableCents: 1800, pendingCents: 2641, nextPayoutDate: "2026-04-20" }, payouts: payoutPage(payouts, true) }),
      }),
      PayoutListPaginationQuery: () => ({
        node: { __typename: "Business", id: BUSINESS_ID, timeZone: "America/New_York", payouts: payoutPage([{ databaseId: 1, createdAt: "2026-03-30T15:00:00Z", arrivalDate: "2026-04-01", amountCents: 2641, status: "PAID", failureReason: null }]) },
      }),
    });
    show(s.environment);
    const balance = await screen.findByTestId("payout-balance");
    expect(within(balance).getAllByText(/\$|Apr/).map((v) => v.parentElement?.textContent)).toEqual(["Available$18.00", "Pending$26.41", "Next payoutApr 20, 2026"]);
    const rows = () => within(screen.getByTestId("payout-list")).getAllByRole("row").slice(1).map((r) => within(r).getAllByRole("cell").map((c) => c.textContent));
    expect(rows()).toEqual([
      ["Apr 13, 2026", "Apr 15, 2026", "$42.10", "In transit"],
      ["Apr 6, 2026", "Apr 8, 2026", "$18.00", "FailedThe bank couldn't find an account with the bank details on file."],
    ]);
    await act(async () => fireEvent.click(within(screen.getByTestId("payout-list").closest("section")!).getByRole("button", { name: "Load more" })));
    expect(s.calls.find((c) => c.name === "PayoutListPaginationQuery")?.variables).toEqual({ count: 10, cursor: "p2", id: BUSINESS_ID });
    expect(rows()[2]).toEqual(["Mar 30, 2026", "Apr 1, 2026", "$26.41", "Paid"]);
  });

  it("no payouts yet; without an account no balance; a statement link opens its month", async () => {
    const s = server({ PayoutsRouteQuery: () => ({ adminBusiness: business(null) }) });
    show(s.environment, "/admin/business/1/payouts?month=2026-03");
    expect(await screen.findByText("No payouts yet.")).toBeTruthy();
    expect(screen.queryByTestId("payout-balance")).toBeNull();
    await screen.findByText("No charges or refunds in March 2026.");
    expect(s.calls.find((c) => c.name === "StatementPanelQuery")?.variables).toEqual({ id: 1, month: "2026-03" });
  });

  it("finds no business for a viewer who may not manage its payouts (the server answers none)", async () => {
    const s = server({ PayoutsRouteQuery: () => ({ adminBusiness: null }) });
    show(s.environment);
    expect(await screen.findByText("No businesses found")).toBeTruthy();
  });
});
