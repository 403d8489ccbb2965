import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
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
    // Left owing its bank account, the account is given none.
    expect(s.calls.at(-1)).toEqual({ name: "SandboxOnboardingRouteMutation", variables: { link: "link_1", leaveRequirementsDue: true, bankAccount: null } });
    expect(assign).toHaveBeenCalledWith("http://localhost/admin/business/1/payouts?onboarding=return");
  });

  it("asks for the bank account number, prefilled with the one whose payouts arrive, and explains the test numbers", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { href: window.location.href, origin: window.location.origin, assign });
    const s = server({
      SandboxOnboardingRouteQuery: page(true),
      SandboxOnboardingRouteMutation: () => ({ completeSandboxOnboarding: { __typename: "CompleteSandboxOnboardingSuccess", data: "http://localhost/admin/business/1/payouts?onboarding=return" } }),
    });
    show(s.environment);
    const field = await screen.findByRole<HTMLInputElement>("textbox", { name: "Bank account number" });
    expect(field.value).toBe("000123456789");
    expect(field.getAttribute("inputmode")).toBe("numeric");
    // The hint is the field's description.
    expect(document.getElementById(field.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Stripe's test numbers: 000123456789 is paid out; 000111111116 fails (no such account); 000111111113 fails (account closed).");

    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Complete onboarding" })));
    expect(s.calls.at(-1)).toEqual({ name: "SandboxOnboardingRouteMutation", variables: { link: "link_1", leaveRequirementsDue: false, bankAccount: "000123456789" } });
    expect(assign).toHaveBeenCalledOnce();
  });

  it("sends the number typed (Enter submits), and shows the server's refusal of it on the field, the link still usable", async () => {
    const assign = vi.fn();
    vi.stubGlobal("location", { href: window.location.href, origin: window.location.origin, assign });
    const INVALID = "A bank account number is 4 to 17 digits.";
    const s = server({
      SandboxOnboardingRouteQuery: page(true),
      SandboxOnboardingRouteMutation: ({ bankAccount }) =>
        bankAccount === "12ab"
          ? { completeSandboxOnboarding: { __typename: "ValidationError", __isError: "ValidationError", message: INVALID, issues: [{ path: "bankAccount", message: INVALID }] } }
          : { completeSandboxOnboarding: { __typename: "CompleteSandboxOnboardingSuccess", data: "http://localhost/admin/business/1/payouts?onboarding=return" } },
    });
    show(s.environment);
    const field = await screen.findByRole<HTMLInputElement>("textbox", { name: "Bank account number" });
    fireEvent.change(field, { target: { value: "12ab" } });
    await act(async () => fireEvent.submit(field.closest("form")!));
    expect(s.calls.at(-1)?.variables).toEqual({ link: "link_1", leaveRequirementsDue: false, bankAccount: "12ab" });
    expect(field.getAttribute("aria-invalid")).toBe("true");
    await waitFor(() => expect(document.getElementById(field.getAttribute("aria-errormessage") ?? "")?.textContent).toBe(INVALID));
    expect(document.activeElement).toBe(field);
    expect(screen.queryByTestId("onboarding-expired")).toBeNull();
    expect(assign).not.toHaveBeenCalled();

    // Typing clears the error; the corrected number goes through.
    fireEvent.change(field, { target: { value: "000111111116" } });
    expect(field.getAttribute("aria-invalid")).toBeNull();
    expect(screen.queryByText(INVALID)).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Complete onboarding" })));
    expect(s.calls.at(-1)?.variables).toEqual({ link: "link_1", leaveRequirementsDue: false, bankAccount: "000111111116" });
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
        completeSandboxOnboarding: { __typename: "ValidationError", __isError: "ValidationError", message: EXPIRED, issues: [{ path: "link", message: EXPIRED }] },
      }),
    });
    show(s.environment);
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Complete onboarding" })));
    expect(screen.getByTestId("onboarding-expired").textContent).toBe(EXPIRED);
    expect(screen.queryByRole("button")).toBeNull();
  });
});
