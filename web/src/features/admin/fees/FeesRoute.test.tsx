import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { RelayEnvironmentProvider } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters, type Variables } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../../ui/theme.ts";
import FeesRoute from "../../../routes/admin/FeesRoute.tsx";

/** A server answering each operation by name with the next of its answers (the last one again), recording what was asked. */
function server(answers: Record<string, ((variables: Variables) => unknown)[]>) {
  const calls: { name: string; variables: Variables }[] = [];
  const network = Network.create((request: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      calls.push({ name: request.name, variables });
      const list = answers[request.name] ?? [];
      const answer = list.length > 1 ? list.shift() : list[0];
      // Answered after the current render, as a real server does (a refetch starts while FeesRoute renders).
      void Promise.resolve().then(() => {
        if (!answer) return sink.error(new Error(`Unexpected ${request.name}`));
        sink.next({ data: answer(variables) } as GraphQLResponse);
        sink.complete();
      });
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), calls };
}

const schedule = { databaseId: 1, business: null, effectivePeriod: "2026-12", platformBps: 450, platformCents: 0, processingBps: 290, processingCents: 30, createdAt: "2026-11-03T10:00:00.000Z" };
const businesses = () => ({ myBusinesses: { edges: [{ node: { __typename: "Business", id: "QnVzaW5lc3M6Nw==", databaseId: 7, name: "Green Acres Farm" } }] } });

const amounts = (a: Partial<Record<string, number>> = {}) => ({ chargeCount: 0, platformFeeCents: 0, processingFeeCents: 0, feesRefundedCents: 0, providerFeeCents: 0, netCents: 0, ...a });
const noFees = () => ({ feesCollected: { businesses: [], totals: amounts() } });

function show(environment: Environment) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment}>
        <MemoryRouter>
          <Suspense fallback="loading">
            <FeesRoute />
          </Suspense>
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
}

const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

// Unmounted route queries are disposed a tick later (lib/routeQuery.ts): let that happen before the next test's
// environment asks for the same query.
afterEach(async () => {
  cleanup();
  await new Promise((resolve) => setTimeout(resolve, 0));
});

describe("Fees page", () => {
  it("with no schedule: the defaults in words; a business's own first month; refusals under their fields; then the new schedule", async () => {
    const s = server({
      FeesRouteQuery: [() => ({ firstSchedulableMonth: "2026-12", feeSchedules: [] }), () => ({ firstSchedulableMonth: "2026-12", feeSchedules: [schedule] })],
      BusinessFilterQuery: [businesses],
      FeesCollectedPanelQuery: [noFees],
      ScheduleFeeFormMonthQuery: [() => ({ firstSchedulableMonth: "2027-01" }), () => ({ firstSchedulableMonth: "2026-12" })],
      ScheduleFeeFormMutation: [
        () => ({ scheduleFee: { __typename: "ValidationError", __isError: "ValidationError", message: "The platform fee can be at most 50 %", issues: [{ path: "platformBps", message: "The platform fee can be at most 50 %" }] } }),
        () => ({ scheduleFee: { __typename: "ScheduleFeeSuccess", data: { effectivePeriod: "2026-12" } } }),
      ],
    });
    show(s.environment);
    expect(await screen.findByText("No fee schedules: every business pays the default 5 % platform fee and 2.9 % + $0.30 processing.")).toBeTruthy();
    expect(field("Month").value).toBe("2026-12");

    const business = screen.getByRole<HTMLSelectElement>("combobox", { name: "Business" });
    expect([...business.options].map((o) => o.text)).toEqual(["Default (every business)", "Green Acres Farm"]);
    await act(async () => fireEvent.change(business, { target: { value: "7" } }));
    expect(s.calls.at(-1)).toEqual({ name: "ScheduleFeeFormMonthQuery", variables: { businessId: "7" } });
    expect(field("Month").value).toBe("2027-01");
    await act(async () => fireEvent.change(business, { target: { value: "" } }));
    expect(field("Month").value).toBe("2026-12");

    type("Platform fee %", "60");
    type("Platform fee fixed ($)", "0");
    type("Processing fee %", "2.9");
    type("Processing fee fixed ($)", "$0.30");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Schedule fees" })));
    expect(s.calls.at(-1)).toEqual({
      name: "ScheduleFeeFormMutation",
      variables: { input: { businessId: null, effectivePeriod: "2026-12", platformBps: 6000, platformCents: 0, processingBps: 290, processingCents: 30 } },
    });
    expect(field("Platform fee %").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getAllByText("The platform fee can be at most 50 %").length).toBe(2); // under the field and in the alert

    type("Platform fee %", "4.5");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Schedule fees" })));
    expect(s.calls.at(-2)?.variables).toMatchObject({ input: { platformBps: 450 } });
    expect(screen.getByRole("status").textContent).toContain("Fees scheduled from December 2026.");
    const table = await screen.findByRole("region", { name: "Fee schedules" });
    const cells = within(table).getAllByRole("cell").map((c) => c.textContent);
    expect(cells.slice(0, 4)).toEqual(["Default", "December 2026", "4.5 %", "2.9 % + $0.30"]);
  });

  it("checks what it can read before sending anything", async () => {
    const s = server({ FeesRouteQuery: [() => ({ firstSchedulableMonth: "2026-12", feeSchedules: [] })], BusinessFilterQuery: [businesses], FeesCollectedPanelQuery: [noFees] });
    show(s.environment);
    await screen.findByRole("button", { name: "Schedule fees" });
    type("Platform fee %", "2.955");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Schedule fees" })));
    expect(s.calls.map((c) => c.name)).not.toContain("ScheduleFeeFormMutation");
    // The one typed and the three left empty.
    expect(field("Platform fee %").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getAllByText("Enter a percent with at most 2 decimals, e.g. 2.9")).toHaveLength(2);
    expect(screen.getAllByText("Enter dollars and cents, e.g. 0.30")).toHaveLength(2);
  });
  it("Fees collected: a row per business, the totals, another month asked for by the picker", async () => {
    const farm = { businessId: "QnVzaW5lc3M6Nw==", businessName: "Green Acres Farm", timeZone: "America/New_York", ...amounts({ chargeCount: 2, platformFeeCents: 500, processingFeeCents: 350, feesRefundedCents: 120, providerFeeCents: 320, netCents: 410 }) };
    const s = server({
      FeesRouteQuery: [() => ({ firstSchedulableMonth: "2026-12", feeSchedules: [] })],
      BusinessFilterQuery: [businesses],
      FeesCollectedPanelQuery: [() => ({ feesCollected: { businesses: [farm], totals: amounts({ chargeCount: 2, platformFeeCents: 500, processingFeeCents: 350, feesRefundedCents: 120, providerFeeCents: 320, netCents: 410 }) } })],
    });
    show(s.environment);
    const table = await screen.findByRole("region", { name: "Fees collected" });
    const farmRow = within(table).getByText("Green Acres Farm").closest("tr")!;
    expect(within(farmRow as HTMLElement).getByText("$5.00")).toBeTruthy();
    expect(within(farmRow as HTMLElement).getByText("$4.10")).toBeTruthy();
    expect(within(table).getByText("Total")).toBeTruthy();
    type("Fees month", "2026-03");
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(s.calls.filter((c) => c.name === "FeesCollectedPanelQuery").at(-1)?.variables).toEqual({ month: "2026-03" });
  });
});
