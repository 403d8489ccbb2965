import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse } from "relay-runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import type { MembershipBuilderTestQuery } from "./__generated__/MembershipBuilderTestQuery.graphql.ts";
import type { MembershipBuilderChangeTestQuery } from "./__generated__/MembershipBuilderChangeTestQuery.graphql.ts";
import { MembershipBuilder } from "./MembershipBuilder.tsx";
import { soldOutChoice } from "./rules.ts";

const query = graphql`
  query MembershipBuilderTestQuery {
    business(slug: "farm") {
      ...MembershipBuilderFragment_business
    }
  }
`;

const changeQuery = graphql`
  query MembershipBuilderChangeTestQuery {
    business(slug: "farm") {
      ...MembershipBuilderFragment_business
    }
    node(id: "TWVtYmVyc2hpcDox") {
      ...MembershipBuilderFragment_membership @alias(as: "membership")
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
  acceptingMembers: true,
  checkoutClosedMessage: null,
  signupStartsNextMonth: false,
  signupFirstPeriod: "2026-03",
  signupFirstChargeDate: "2026-03-05",
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
      { node: { id: "UGxhbjox", ref: "item_full", name: "Full Box", description: "", priceCents: 3000, soldOut: false, soldOutModes: ["PICKUP"], variations: [variation("item_full", "PICKUP", 3000)] } },
      {
        node: {
          id: "UGxhbjoy",
          ref: "item_open",
          name: "Open Box",
          description: "",
          priceCents: 2000,
          soldOut: false,
          soldOutModes: ["SHIPPING"],
          variations: [variation("item_open", "PICKUP", 2000), variation("item_open", "SHIPPING", 2500)],
        },
      },
    ],
  },
  addons: { edges: [] },
};

function environment(data: Record<string, unknown> = { business }) {
  const network = Network.create(() =>
    Observable.create<GraphQLResponse>((sink) => {
      sink.next({ data });
      sink.complete();
    }),
  );
  return new Environment({ network, store: new Store(new RecordSource()) });
}

function renderWith(env: Environment, page: React.ReactNode) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={env}>
        <MemoryRouter>
          <Suspense fallback="loading">{page}</Suspense>
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
}

function Page() {
  const data = useLazyLoadQuery<MembershipBuilderTestQuery>(query, {});
  return <MembershipBuilder business={data.business!} membership={null} changeMode={false} checkoutPath="/membership/checkout" loggedIn={false} />;
}

function ChangePage() {
  const data = useLazyLoadQuery<MembershipBuilderChangeTestQuery>(changeQuery, {});
  return <MembershipBuilder business={data.business!} membership={data.node?.membership ?? null} changeMode checkoutPath="/membership/checkout" loggedIn />;
}

/**
 * A member of a full plan (its capacity of 2 reached: they hold one place, in pickup) whose shipping has no limit
 * of its own; the other plan is open in pickup, its shipping full by its own capacity.
 */
function fullPlanPage(pendingChange: unknown = null) {
  const full = business.plans.edges[0].node;
  const plans = {
    edges: [
      { node: { ...full, soldOut: true, soldOutModes: ["PICKUP", "SHIPPING"], variations: [variation("item_full", "PICKUP", 3000), variation("item_full", "SHIPPING", 3500)] } },
      business.plans.edges[1],
    ],
  };
  // What the server answers for this member (api/catalog/capacity.ts soldOutForChange): the full plan they hold is
  // not full for them and its shipping has no limit of its own; the other plan's shipping is full by its own.
  const soldOutForChange = [
    { planRef: "item_full", soldOut: false, soldOutModes: [] },
    { planRef: "item_open", soldOut: false, soldOutModes: ["SHIPPING"] },
  ];
  const membership = { __typename: "Membership", id: "TWVtYmVyc2hpcDox", mode: "PICKUP", fulfillmentPoint: "Barn", plan: { id: "UGxhbjox", ref: "item_full" }, addons: [], pendingChange, soldOutForChange };
  return environment({ business: { ...business, plans }, node: membership });
}

const radio = (name: string | RegExp) => screen.getByRole<HTMLInputElement>("radio", { name });

beforeEach(() => localStorage.clear());
afterEach(cleanup);

describe("MembershipBuilder: sold out", () => {
  it("shows 'Sold out' on a full plan and a full mode and disables those choices; the first open plan is chosen", async () => {
    renderWith(environment(), <Page />);
    await screen.findByRole("radio", { name: "Full Box (Sold out)" });
    expect(radio("Full Box (Sold out)").disabled).toBe(true);
    expect(radio("Open Box")).toMatchObject({ disabled: false, checked: true });
    expect(radio(/^Shipping .*\(Sold out\)$/).disabled).toBe(true);
    expect(radio("Pickup")).toMatchObject({ disabled: false, checked: true });
    expect(screen.getAllByText("Sold out")).toHaveLength(2);
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Checkout" }).disabled).toBe(false);
  });
});

describe("MembershipBuilder: changing the mode within a full plan", () => {
  it("the member's own full plan stays choosable in every mode; another plan's full mode stays sold out", async () => {
    renderWith(fullPlanPage(), <ChangePage />);
    await screen.findByRole("radio", { name: "Full Box" });
    expect(radio("Full Box")).toMatchObject({ disabled: false, checked: true });
    expect(radio("Pickup")).toMatchObject({ disabled: false, checked: true });
    const shipping = radio(/^Shipping/);
    expect(shipping.disabled).toBe(false);
    expect(shipping.getAttribute("aria-label")).not.toContain("Sold out");
    expect(screen.queryAllByText("Sold out")).toHaveLength(0);
    const update = screen.getByRole<HTMLButtonElement>("button", { name: "Update" });
    expect(update.disabled).toBe(true);
    fireEvent.click(shipping);
    expect(update.disabled).toBe(false);

    // The other plan takes a new place: its shipping, full by its own capacity, is sold out.
    fireEvent.click(radio("Open Box"));
    expect(radio(/^Shipping .*\(Sold out\)$/).disabled).toBe(true);
    expect(update.disabled).toBe(true);
  });

  it("a scheduled change's plan holds a place too", async () => {
    const pending = { mode: "PICKUP", fulfillmentPoint: "Barn", plan: { id: "UGxhbjoy", ref: "item_open" }, addons: [] };
    renderWith(fullPlanPage(pending), <ChangePage />);
    // The builder starts from the scheduled change (Open Box, pickup).
    await screen.findByRole("radio", { name: "Open Box" });
    expect(radio("Open Box").checked).toBe(true);
    // Open Box's shipping is full by its own capacity: held plan or not, that mode still needs a place.
    expect(radio(/^Shipping .*\(Sold out\)$/).disabled).toBe(true);
    fireEvent.click(radio("Full Box"));
    expect(radio(/^Shipping/).disabled).toBe(false);
  });
});

describe("MembershipBuilder: past the cutoff (spec §8)", () => {
  it("a page that takes sign-ups for next month offers next month's box, with Checkout enabled", async () => {
    renderWith(environment({ business: { ...business, signupStartsNextMonth: true, signupFirstPeriod: "2026-12", signupFirstChargeDate: "2026-12-06", page: { ...business.page, billingDay: 6 } } }), <Page />);
    await screen.findByText("Sign up now for your December box");
    // The first charge's day is the server's (Business.signupFirstChargeDate), never worked out in the browser.
    expect(screen.getByTestId("next-month-notice").textContent).toContain("Nothing is charged today: your card is saved and first charged on December 6.");
    expect(screen.getByTestId("next-month-hint").textContent).toBe("Your first box is December's. Nothing is charged today.");
    expect(screen.queryByTestId("cutoff-notice")).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Checkout" }).disabled).toBe(false);
  });

  it("a page that refuses them keeps §8's message and a disabled Checkout", async () => {
    const message = "The last day to subscribe for this month has passed. The cutoff day is the 4th of each month. Please try again next month.";
    renderWith(environment({ business: { ...business, checkoutClosedMessage: message, signupFirstPeriod: "2026-04" } }), <Page />);
    expect((await screen.findByTestId("cutoff-notice")).textContent).toBe(message);
    expect(screen.queryByTestId("next-month-notice")).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Checkout" }).disabled).toBe(true);
  });
});

describe("MembershipBuilder: a business not taking members yet", () => {
  it("says so where the closed message appears and disables Checkout", async () => {
    renderWith(environment({ business: { ...business, acceptingMembers: false } }), <Page />);
    expect((await screen.findByTestId("cutoff-notice")).textContent).toBe("Farm isn't taking new members yet.");
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Checkout" }).disabled).toBe(true);
    expect(screen.queryByText("New memberships open again next month.")).toBeNull();
  });
});

describe("soldOutChoice", () => {
  const variations = [{ mode: "PICKUP" }, { mode: "SHIPPING" }];
  const fullPlan = { soldOut: true, soldOutModes: ["PICKUP", "SHIPPING"], variations };
  const fullShipping = { soldOut: false, soldOutModes: ["SHIPPING"], variations };
  const everyModeFull = { soldOut: false, soldOutModes: ["PICKUP", "SHIPPING"], variations };

  it("a plan is sold out when its capacity is reached or every mode it offers is; a mode when it is listed", () => {
    expect(soldOutChoice(fullPlan, null)).toBe(true);
    expect(soldOutChoice(fullPlan, "pickup")).toBe(true);
    expect(soldOutChoice(everyModeFull, null)).toBe(true);
    expect(soldOutChoice(fullShipping, null)).toBe(false);
    expect(soldOutChoice(fullShipping, "pickup")).toBe(false);
    expect(soldOutChoice(fullShipping, "shipping")).toBe(true);
  });
});
