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

const business = (payoutAccount: Account, connectFromPeriod: string | null = null) => ({
  __typename: "Business",
  id: BUSINESS_ID,
  name: "Green Acres Farm",
  databaseId: 1,
  viewerCanManagePayouts: true,
  connectFromPeriod,
  payoutAccount,
  feeRates: FEES,
});

/** A server answering each operation by name with what the test gives it, recording what was asked. */
function server(answers: Record<string, (variables: Variables) => unknown>) {
  const calls: { name: string; variables: Variables }[] = [];
  const network = Network.create((request: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      calls.push({ name: request.name, variables });
      const answer = answers[request.name];
      if (!answer) return sink.error(new Error(`Unexpected ${request.name}`));
      sink.next({ data: answer(variables) } as GraphQLResponse);
      sink.complete();
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), calls };
}

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
    expect(s.calls.map((c) => c.name)).toEqual(["PayoutsRouteQuery", "PayoutsPanelRefreshMutation", "PayoutsPanelRefetchQuery"]);
    expect(s.calls[1].variables).toEqual({ input: { businessId: "1" } });
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
    expect(s.calls.map((c) => c.name)).toEqual(["PayoutsRouteQuery", "PayoutsPanelRefreshMutation"]);
  });

  it("finds no business for a viewer who may not manage its payouts (the server answers none)", async () => {
    const s = server({ PayoutsRouteQuery: () => ({ adminBusiness: null }) });
    show(s.environment);
    expect(await screen.findByText("No businesses found")).toBeTruthy();
  });
});
