import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import type { MembershipBuilderTestQuery } from "./__generated__/MembershipBuilderTestQuery.graphql.ts";
import { MembershipBuilder } from "./MembershipBuilder.tsx";
import { soldOutChoice } from "./rules.ts";

const query = graphql`
  query MembershipBuilderTestQuery {
    business(slug: "farm") {
      ...MembershipBuilderFragment_business
    }
  }
`;

const variation = (plan: string, mode: "PICKUP" | "SHIPPING", amountCents: number) => ({
  id: `${plan}_${mode.toLowerCase()}`,
  mode,
  name: mode === "PICKUP" ? "Pickup" : "Shipping",
  amountCents,
});

/** The business page's data: a sold-out plan, and a plan whose shipping is sold out. */
const business = {
  __typename: "Business",
  id: "QnVzaW5lc3M6MQ==",
  slug: "farm",
  name: "Farm",
  checkoutClosedMessage: null,
  page: {
    addonLimit: 0,
    addonSectionTitle: "Available Add-ons",
    billingDay: 1,
    fulfillment: { pickup: true, shipping: true, delivery: false, pickupPoints: ["Barn"], shippingText: "Nationwide Shipping", deliveryAreas: [] },
    tax: { enabled: false, ratePercent: 0 },
    theme: { primary: "#c2410c", primaryText: "#ffffff", buttonBorder: "transparent", selection: "#2563eb", pageBg: "#ffffff" },
  },
  plans: {
    edges: [
      { node: { id: "UGxhbjox", ref: "item_full", name: "Full Box", description: "", priceCents: 3000, soldOutModes: ["PICKUP"], variations: [variation("item_full", "PICKUP", 3000)] } },
      {
        node: {
          id: "UGxhbjoy",
          ref: "item_open",
          name: "Open Box",
          description: "",
          priceCents: 2000,
          soldOutModes: ["SHIPPING"],
          variations: [variation("item_open", "PICKUP", 2000), variation("item_open", "SHIPPING", 2500)],
        },
      },
    ],
  },
  addons: { edges: [] },
};

function environment() {
  const network = Network.create(() =>
    Observable.create<GraphQLResponse>((sink) => {
      sink.next({ data: { business } });
      sink.complete();
    }),
  );
  return new Environment({ network, store: new Store(new RecordSource()) });
}

function Page() {
  const data = useLazyLoadQuery<MembershipBuilderTestQuery>(query, {});
  return <MembershipBuilder business={data.business!} membership={null} changeMode={false} checkoutPath="/membership/checkout" loggedIn={false} />;
}

afterEach(cleanup);

describe("MembershipBuilder: sold out (issue 20)", () => {
  it("shows 'Sold out' on a full plan and a full mode and disables those choices; the first open plan is chosen", async () => {
    render(
      <ChakraProvider value={system}>
        <RelayEnvironmentProvider environment={environment()}>
          <MemoryRouter>
            <Suspense fallback="loading">
              <Page />
            </Suspense>
          </MemoryRouter>
        </RelayEnvironmentProvider>
      </ChakraProvider>,
    );
    const radio = (name: string | RegExp) => screen.getByRole<HTMLInputElement>("radio", { name });
    await screen.findByRole("radio", { name: "Full Box (Sold out)" });
    expect(radio("Full Box (Sold out)").disabled).toBe(true);
    expect(radio("Open Box")).toMatchObject({ disabled: false, checked: true });
    expect(radio(/^Shipping .*\(Sold out\)$/).disabled).toBe(true);
    expect(radio("Pickup")).toMatchObject({ disabled: false, checked: true });
    expect(screen.getAllByText("Sold out")).toHaveLength(2);
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Checkout" }).disabled).toBe(false);
  });
});

describe("soldOutChoice", () => {
  const plan = { ref: "item_a", variations: [{ mode: "PICKUP" }, { mode: "SHIPPING" }] };
  const all = ["PICKUP", "SHIPPING"];

  it("a plan is sold out when every mode it offers is; a mode when it is listed", () => {
    expect(soldOutChoice(plan, all, null, null)).toBe(true);
    expect(soldOutChoice(plan, all, "pickup", null)).toBe(true);
    expect(soldOutChoice(plan, ["PICKUP"], null, null)).toBe(false);
    expect(soldOutChoice(plan, ["PICKUP"], "shipping", null)).toBe(false);
    expect(soldOutChoice(plan, ["PICKUP"], "pickup", null)).toBe(true);
  });

  it("what a member already holds stays choosable (the same plan and mode takes no new place)", () => {
    const own = { planRef: "item_a", mode: "pickup" as const };
    expect(soldOutChoice(plan, all, null, own)).toBe(false);
    expect(soldOutChoice(plan, all, "pickup", own)).toBe(false);
    expect(soldOutChoice(plan, all, "shipping", own)).toBe(true);
  });
});
