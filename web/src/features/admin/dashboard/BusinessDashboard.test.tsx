import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { RelayEnvironmentProvider } from "react-relay";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../../ui/theme.ts";
import BusinessDashboardRoute from "../../../routes/admin/BusinessDashboardRoute.tsx";

// The business dashboard's outlook and past-due panels, and its recent memberships by name, from the server's
// figures: formatted only, never recomputed.

const outlook = {
  nextBillingRun: { date: "2026-04-05", memberships: 2, amountCents: 6017, changes: 1 },
  boxesThisMonth: { month: "2026-04", boxes: 7, held: 1, addedSinceFreeze: 2 },
  membersThisMonth: { newMembers: 2, canceled: 1, cancellationRequests: { requests: 3, offersAccepted: 1, byReason: [{ reason: "TOO_EXPENSIVE", count: 2 }, { reason: "MOVING", count: 1 }] } },
  recurringRevenue: { mrrCents: 20519, previousMonth: "2026-03", changeCents: 600 },
};

const pastDue = {
  total: 2,
  memberships: [
    { membershipId: 41, fullName: "Eve Evans", username: "eve", owedPeriod: "2026-04", attempts: 2, nextRetryDate: "2026-04-04" },
    { membershipId: 42, fullName: null, username: "lee", owedPeriod: "2026-03", attempts: 0, nextRetryDate: null },
  ],
};

const recent = [
  { id: "TWVtYmVyc2hpcDox", userPublicId: "u-1", memberName: "Jordan Lee", username: "jordan", status: "ACTIVE", startedAt: "2026-04-01T12:00:00.000Z", business: { id: "QnVzaW5lc3M6MQ==", name: "Green Acres Farm" } },
  { id: "TWVtYmVyc2hpcDoy", userPublicId: "u-2", memberName: null, username: "liam", status: "CANCELED", startedAt: "2026-03-01T12:00:00.000Z", business: { id: "QnVzaW5lc3M6MQ==", name: "Green Acres Farm" } },
];

/** The route's query as the server answers it, with `o` over the outlook and past-due figures. */
function answer(o: { outlook?: Partial<typeof outlook>; pastDue?: typeof pastDue } = {}) {
  return {
    adminBusiness: {
      __typename: "Business",
      id: "QnVzaW5lc3M6MQ==",
      name: "Green Acres Farm",
      slug: "green-acres-farm",
      metrics: {
        __typename: "BusinessMetrics",
        __isDashboardMetrics: "BusinessMetrics",
        ...outlook,
        ...o.outlook,
        pastDue: o.pastDue ?? pastDue,
        totals: { subscriptionsAll: 12, subscriptionsActive: 9, subscriptionsCanceled: 3, totalRevenueCents: 50000 },
        averages: { subscriptionPriceCents: 2280 },
        // An empty series: the charts show their empty line (no chart drawn in jsdom).
        monthly: [{ yearMonth: "2026-04", activeMembers: 0, revenueCents: 0 }],
        recentSubscriptions: recent,
      },
    },
  };
}

function environment(data: unknown) {
  const network = Network.create(() =>
    Observable.create<GraphQLResponse>((sink) => {
      sink.next({ data } as GraphQLResponse);
      sink.complete();
    }),
  );
  return new Environment({ network, store: new Store(new RecordSource()) });
}

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

async function show(data: unknown) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment(data)}>
        <MemoryRouter initialEntries={["/admin/business/1"]}>
          <Suspense fallback="loading">
            <Routes>
              <Route path="/admin/business/:id" element={<BusinessDashboardRoute />} />
              <Route path="*" element={null} />
            </Routes>
          </Suspense>
          <Where />
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
  await screen.findByRole("heading", { level: 1, name: "Green Acres Farm" });
}

/** A card of the outlook by its label: its value and its help text. */
function card(label: string) {
  const root = within(screen.getByTestId("owner-outlook")).getByText(label).parentElement!;
  return root.textContent ?? "";
}

// Unmounted route queries are disposed a tick later (lib/routeQuery.ts): let that happen before the next test.
afterEach(async () => {
  cleanup();
  await new Promise((resolve) => setTimeout(resolve, 0));
});

describe("the business dashboard's outlook", () => {
  it("shows the next billing run, MRR, the month's boxes, past due, new members and cancellations as the server gives them", async () => {
    await show(answer());
    const labels = within(screen.getByTestId("owner-outlook")).getAllByText(/./, { selector: "dt" });
    expect(labels.map((l) => l.textContent)).toEqual(["Next billing run", "Monthly recurring revenue", "Boxes to pack", "Past due", "New members", "Cancellations"]);
    expect(card("Next billing run")).toBe("Next billing runApr 5, 20262 memberships · $60.17 expected1 box change takes effect");
    expect(card("Boxes to pack")).toBe("Boxes to pack7April 2026 · 1 on hold · 2 paid after the freezeOpen Fulfilment");
    // The soonest retry: the server's list is in retry order.
    expect(card("Past due")).toBe("Past due2Next retry Apr 4, 2026");
    expect(card("New members")).toBe("New members2Started in April 2026");
    expect(card("Cancellations")).toBe("Cancellations1Canceled in April 2026" + "3 members asked to cancel · 1 kept by an offerToo expensive 2 · Moving 1");
    expect(card("Monthly recurring revenue")).toBe("Monthly recurring revenue$205.19+$6.00 since the end of March 2026");
  });

  it("links the boxes to the Fulfilment screen of that month", async () => {
    await show(answer());
    const link = screen.getByRole("link", { name: "Open Fulfilment for April 2026" });
    expect(link.getAttribute("href")).toBe("/admin/business/1/fulfilment/2026-04");
    await act(async () => fireEvent.click(link));
    expect(screen.getByTestId("location").textContent).toBe("/admin/business/1/fulfilment/2026-04");
  });

  it("says when nothing is scheduled, and a fall in MRR as a negative change", async () => {
    await show(
      answer({
        outlook: { nextBillingRun: null as never, boxesThisMonth: { month: "2026-04", boxes: 0, held: 0, addedSinceFreeze: 0 }, recurringRevenue: { mrrCents: 0, previousMonth: "2026-03", changeCents: -2300 } },
      }),
    );
    expect(card("Next billing run")).toBe("Next billing runNoneNo renewals due");
    expect(card("Boxes to pack")).toBe("Boxes to pack0April 2026Open Fulfilment");
    expect(card("Monthly recurring revenue")).toBe("Monthly recurring revenue$0.00-$23.00 since the end of March 2026");
  });

  it("says when no retry is scheduled for the past-due memberships", async () => {
    await show(answer({ pastDue: { total: 1, memberships: [pastDue.memberships[1]] } }));
    expect(card("Past due")).toBe("Past due1No retry scheduled");
  });

  it("says when everyone is paid up", async () => {
    await show(answer({ pastDue: { total: 0, memberships: [] } }));
    expect(card("Past due")).toBe("Past due0Everyone is paid up");
  });
});

describe("the past-due panel", () => {
  it("lists each member by full name with the username beneath, linking to the member's page, with the month owed and the next retry", async () => {
    await show(answer());
    expect(screen.getByRole("heading", { level: 2, name: "Past due (2)" })).toBeTruthy();
    const items = within(screen.getByTestId("past-due")).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      "Eve EvanseveOwes April 2026 · 2 attemptsNext retry Apr 4, 2026",
      // No name given: the username, once; no attempt yet, so no retry scheduled.
      "leeOwes March 2026No retry scheduled",
    ]);
    expect(within(items[0]).getByRole("link", { name: "Eve Evans" }).getAttribute("href")).toBe("/admin/business/1/members/41");
    expect(within(items[1]).getByRole("link", { name: "lee" }).getAttribute("href")).toBe("/admin/business/1/members/42");
    await act(async () => fireEvent.click(within(items[0]).getByRole("link", { name: "Eve Evans" })));
    expect(screen.getByTestId("location").textContent).toBe("/admin/business/1/members/41");
  });

  it("is left out when nobody is past due (the outlook's card says so)", async () => {
    await show(answer({ pastDue: { total: 0, memberships: [] } }));
    expect(screen.queryByRole("heading", { level: 2, name: /^Past due/ })).toBeNull();
    expect(screen.queryByTestId("past-due")).toBeNull();
  });

  it("says how many it shows when there are more", async () => {
    await show(answer({ pastDue: { total: 30, memberships: pastDue.memberships } }));
    expect(screen.getByRole("heading", { level: 2, name: "Past due (30)" })).toBeTruthy();
    expect(screen.getByText("Showing 2 of 30.")).toBeTruthy();
  });
});

describe("recent subscriptions on a business's dashboard", () => {
  it("names members by full name with the username beneath, without a business column", async () => {
    await show(answer());
    const table = screen.getByTestId("recent-subscriptions");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Member", "Status", "Started"]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell")[0].textContent)).toEqual(["Jordan Leejordan", "liam"]);
    expect(table.textContent).not.toContain("green-acres-farm");
  });
});
