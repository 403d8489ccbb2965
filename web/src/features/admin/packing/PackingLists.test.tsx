import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, render, screen, within } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../../ui/theme.ts";
import type { PackingListsTestQuery } from "./__generated__/PackingListsTestQuery.graphql.ts";
import { PackingLists } from "./PackingLists.tsx";

const query = graphql`
  query PackingListsTestQuery {
    ...PackingListsFragment_query @arguments(id: 1, month: "2026-04")
  }
`;

const address = (fullName: string, instructions = "") => ({ fullName, phone: "555-0100", street: "1 Main St", apt: "Apt 2", city: "Hudson", state: "NY", zip: "12534", country: "US", instructions });
const box = (n: number, o: Record<string, unknown>) => ({
  cursor: `c${n}`,
  node: {
    __typename: "PackingBox",
    membershipId: `m${n}`,
    membershipDatabaseId: n,
    email: `m${n}@example.com`,
    phone: "555-0100",
    planName: "Veg Box",
    addons: [],
    address: null,
    isGift: false,
    giftRecipient: "",
    giftMessage: "",
    hold: null,
    ...o,
  },
});

function environment(edges: ReturnType<typeof box>[]) {
  const data = {
    adminBusiness: { __typename: "Business", id: "QnVzaW5lc3M6MQ==", fulfilment: { month: "2026-04", boxes: { edges, pageInfo: { endCursor: null, hasNextPage: false } } } },
  };
  const network = Network.create(() =>
    Observable.create<GraphQLResponse>((sink) => {
      sink.next({ data });
      sink.complete();
    }),
  );
  return new Environment({ network, store: new Store(new RecordSource()) });
}

function Page() {
  const data = useLazyLoadQuery<PackingListsTestQuery>(query, {});
  return <PackingLists query={data} businessId={1} businessName="Farm" />;
}

const show = (edges: ReturnType<typeof box>[]) =>
  render(
    <ChakraProvider value={system}>
      <MemoryRouter>
        <RelayEnvironmentProvider environment={environment(edges)}>
          <Suspense fallback="loading">
            <Page />
          </Suspense>
        </RelayEnvironmentProvider>
      </MemoryRouter>
    </ChakraProvider>,
  );

afterEach(cleanup);

describe("PackingLists", () => {
  it("groups pickup by point with a check column, delivery by area with address and instructions, shipping as address blocks; marks gifts and holds", async () => {
    show([
      box(1, { memberName: "Amy", mode: "PICKUP", fulfillmentPoint: "Barn", addons: [{ name: "Eggs" }], isGift: true, giftRecipient: "Grandma Rose", giftMessage: "Happy birthday!" }),
      box(2, { memberName: "Dee", mode: "PICKUP", fulfillmentPoint: "Barn", hold: "payment_failed" }),
      box(3, { memberName: "Zed", mode: "PICKUP", fulfillmentPoint: "Market" }),
      box(4, { memberName: "Cy", mode: "SHIPPING", fulfillmentPoint: "", address: address("Cy Shipper") }),
      box(5, { memberName: "Bo", mode: "DELIVERY", fulfillmentPoint: "Downtown", address: address("Bo", "Leave at the side door") }),
    ]);
    const pickup = await screen.findByRole<HTMLElement>("region", { name: "Pickup (3)" });
    expect(within(pickup).getAllByRole("heading", { level: 4 }).map((h) => h.textContent)).toEqual(["Pickup point: Barn (2)", "Pickup point: Market (1)"]);
    expect(within(pickup).getAllByText("Gift for Grandma Rose: “Happy birthday!”").length).toBeGreaterThan(0);
    expect(within(pickup).getAllByText("Hold — payment failed").length).toBeGreaterThan(0);
    expect(within(pickup).getAllByText("Add-ons: Eggs").length).toBeGreaterThan(0);
    expect(within(pickup).getAllByRole("cell", { name: "Not packed yet" })).toHaveLength(3);
    const delivery = screen.getByRole("region", { name: "Delivery (1)" });
    expect(within(delivery).getByRole("heading", { level: 4 }).textContent).toBe("Delivery area: Downtown (1)");
    expect(within(delivery).getAllByText("Instructions: Leave at the side door").length).toBeGreaterThan(0);
    expect(within(delivery).getAllByText("1 Main St, Apt 2").length).toBeGreaterThan(0);
    const shipping = screen.getByRole("region", { name: "Shipping (1)" });
    expect(within(shipping).getAllByText("Cy Shipper").length).toBeGreaterThan(0);
    expect(within(shipping).getAllByText("Hudson, NY 12534").length).toBeGreaterThan(0);
    // One packing slip per box for the "Packing slips" print.
    expect(document.querySelectorAll(".packing-slip")).toHaveLength(5);
    // Each member's name opens their member page, in the lists and on the slips.
    // (The phone's cards and the slips are hidden on this screen: counted all the same.)
    const amy = screen.getAllByRole("link", { name: "Amy", hidden: true });
    expect(amy).toHaveLength(3);
    expect(new Set(amy.map((a) => a.getAttribute("href")))).toEqual(new Set(["/admin/business/1/members/1"]));
    expect(within(screen.getAllByTestId("packing-slip")[0]).getByRole("link", { hidden: true }).getAttribute("href")).toMatch(/^\/admin\/business\/1\/members\/\d+$/);
    // A slip names its month as people do ("April 2026", not the route's "2026-04").
    expect(screen.getAllByTestId("packing-slip")[0].textContent).toContain("Farm · Box for April 2026");
    expect(document.querySelector(".packing-root")?.textContent).not.toContain("2026-04");
    expect(screen.getAllByRole("button", { name: /^Download CSV/ }).map((b) => b.getAttribute("aria-label"))).toEqual([
      "Download CSV: all lists",
      "Download CSV: Pickup",
      "Download CSV: Delivery",
      "Download CSV: Shipping",
    ]);
  });

  it("says so when the month has no boxes", async () => {
    show([]);
    expect(await screen.findByText("No boxes this month.")).toBeTruthy();
  });
});
