import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { RelayEnvironmentProvider } from "react-relay";
import { MemoryRouter, Route, Routes } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters, type Variables } from "relay-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GraphQLRequestError } from "../lib/relayEnvironment.ts";
import { system } from "../ui/theme.ts";
import SandboxOnboardingRoute from "./SandboxOnboardingRoute.tsx";

const EXPIRED = "This onboarding link has expired. Start again from the Payouts page.";

/** A server answering each operation by name (an Error: the request fails), recording what was asked. */
function server(answers: Record<string, (variables: Variables) => unknown>) {
  const calls: { name: string; variables: Variables }[] = [];
  const network = Network.create((request: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      calls.push({ name: request.name, variables });
      const answer = answers[request.name]?.(variables);
      if (!answer || answer instanceof Error) return sink.error(answer instanceof Error ? answer : new Error(`Unexpected ${request.name}`));
      sink.next({ data: answer });
      sink.complete();
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), calls };
}

/** The page of `link` (each test its own: a query that failed stays loaded, as it was, for its variables). */
function show(environment: Environment, link = "link_1") {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment}>
        <MemoryRouter initialEntries={[`/sandbox/connect/${link}`]}>
          <Routes>
            <Route path="/sandbox/connect/:link" element={<SandboxOnboardingRoute />} />
          </Routes>
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
}

const page = (usable: boolean) => () => ({ sandboxOnboardingLink: { accountId: "acct_sbx_1", businessName: "Green Acres Farm", usable } });

// Unmounted route queries are disposed a tick later (lib/routeQuery.ts): let that happen before the next test's
// environment asks for the same query.
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await new Promise((resolve) => setTimeout(resolve, 0));
});

describe("Sandbox onboarding page", () => {
  it("names the business and account; submitting returns to the URL the server answers", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { href: window.location.href, origin: window.location.origin, assign });
    const s = server({
      SandboxOnboardingRouteQuery: page(true),
      SandboxOnboardingRouteMutation: () => ({ completeSandboxOnboarding: { __typename: "CompleteSandboxOnboardingSuccess", data: "http://localhost/admin/business/1/payouts?onboarding=return" } }),
    });
    show(s.environment);
    expect(await screen.findByText("Green Acres Farm")).toBeTruthy();
    expect(screen.getByRole("heading", { level: 1, name: "Sandbox onboarding" })).toBeTruthy();
    expect(screen.getByText("acct_sbx_1")).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Leave requirements due" })));
    expect(s.calls.at(-1)).toEqual({ name: "SandboxOnboardingRouteMutation", variables: { link: "link_1", leaveRequirementsDue: true } });
    expect(assign).toHaveBeenCalledWith("http://localhost/admin/business/1/payouts?onboarding=return");
  });

  it("a used or expired link: says so, with no buttons", async () => {
    show(server({ SandboxOnboardingRouteQuery: page(false) }).environment);
    expect((await screen.findByTestId("onboarding-expired")).textContent).toBe(EXPIRED);
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("a link the server does not know: the same", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    show(server({ SandboxOnboardingRouteQuery: () => new GraphQLRequestError("Onboarding link not found", 200, ["NOT_FOUND"]) }).environment, "link_gone");
    expect((await screen.findByTestId("onboarding-expired")).textContent).toBe(EXPIRED);
    expect(screen.queryByRole("button")).toBeNull();
    quiet.mockRestore();
  });

  it("a link spent meanwhile: refused on submit, then the same", async () => {
    const s = server({
      SandboxOnboardingRouteQuery: page(true),
      SandboxOnboardingRouteMutation: () => ({
        completeSandboxOnboarding: { __typename: "ValidationError", __isError: "ValidationError", message: EXPIRED, issues: [{ path: "link" }] },
      }),
    });
    show(s.environment);
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Complete onboarding" })));
    expect(screen.getByTestId("onboarding-expired").textContent).toBe(EXPIRED);
    expect(screen.queryByRole("button")).toBeNull();
  });
});
