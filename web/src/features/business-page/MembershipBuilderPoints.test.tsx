import { Suspense, type ReactNode } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters } from "relay-runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import { chosenPoint, readSelection } from "../../lib/selection.ts";
import { STORAGE_KEYS } from "../../lib/storage.ts";
import type { MembershipBuilderPointsTestQuery } from "./__generated__/MembershipBuilderPointsTestQuery.graphql.ts";
import type { MembershipBuilderPointsChangeTestQuery } from "./__generated__/MembershipBuilderPointsChangeTestQuery.graphql.ts";
import { MembershipBuilder } from "./MembershipBuilder.tsx";
import { initialPoint, missingPoint, pointQuestion, pointsForMode } from "./points.ts";

const query = graphql`
  query MembershipBuilderPointsTestQuery {
    business(slug: "farm") {
      ...MembershipBuilderFragment_business
    }
  }
`;

const changeQuery = graphql`
  query MembershipBuilderPointsChangeTestQuery {
    business(slug: "farm") {
      ...MembershipBuilderFragment_business
    }
    node(id: "TWVtYmVyc2hpcDox") {
      ...MembershipBuilderFragment_membership @alias(as: "membership")
    }
  }
`;

/** A page with two pickup points and one delivery area. */
const business = {
  __typename: "Business",
  id: "QnVzaW5lc3M6MQ==",
  slug: "farm",
  name: "Farm",
  acceptingMembers: true,
  checkoutClosedMessage: null,
  signupStartsNextMonth: false,
  signupFirstPeriod: "2026-03",
  page: {
    addonLimit: 0,
    addonSectionTitle: "Available Add-ons",
    billingDay: 1,
    fulfillment: { pickup: true, shipping: false, delivery: true, pickupPoints: ["Market Hall", "North Barn"], shippingText: "Nationwide Shipping", deliveryAreas: ["Riverside"] },
    tax: { enabled: false, ratePercent: 0 },
    theme: { primary: "#c2410c", primaryText: "#ffffff", buttonBorder: "transparent", selection: "#2563eb", pageBg: "#ffffff" },
  },
  plans: {
    edges: [
      {
        node: {
          id: "UGxhbjox",
          ref: "item_veg",
          name: "Veg Box",
          description: "",
          priceCents: 3000,
          soldOut: false,
          soldOutModes: [],
          variations: [
            { id: "item_veg_pickup", mode: "PICKUP", name: "Pickup", amountCents: 3000 },
            { id: "item_veg_delivery", mode: "DELIVERY", name: "Delivery", amountCents: 3300 },
          ],
        },
      },
    ],
  },
  addons: { edges: [] },
};

function Page() {
  const data = useLazyLoadQuery<MembershipBuilderPointsTestQuery>(query, {});
  return <MembershipBuilder business={data.business!} membership={null} changeMode={false} checkoutPath="/membership/checkout" loggedIn={false} />;
}

/** `page` in the app's providers, its queries answered by `network`. */
function renderWith(network: ReturnType<typeof Network.create>, page: ReactNode) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={new Environment({ network, store: new Store(new RecordSource()) })}>
        <MemoryRouter>
          <Suspense fallback="loading">{page}</Suspense>
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
}

function renderPage() {
  const network = Network.create(() =>
    Observable.create<GraphQLResponse>((sink) => {
      sink.next({ data: { business } });
      sink.complete();
    }),
  );
  renderWith(network, <Page />);
}

/** The member's membership: Veg Box, pickup at Market Hall. */
const membership = (point: string) => ({
  __typename: "Membership",
  id: "TWVtYmVyc2hpcDox",
  status: "ACTIVE",
  mode: "PICKUP",
  fulfillmentPoint: point,
  plan: { id: "UGxhbjox", ref: "item_veg" },
  addons: [],
  pendingChange: null,
  soldOutForChange: [],
});

function ChangePage() {
  const data = useLazyLoadQuery<MembershipBuilderPointsChangeTestQuery>(changeQuery, {});
  return <MembershipBuilder business={data.business!} membership={data.node?.membership ?? null} changeMode checkoutPath="/membership/checkout" loggedIn />;
}

beforeEach(() => localStorage.removeItem(STORAGE_KEYS.membershipSelection));
afterEach(cleanup);

describe("MembershipBuilder: pickup point and delivery area", () => {
  it("asks for a pickup point when there are several, and stores the choice in the selection", async () => {
    renderPage();
    await screen.findByRole("radiogroup", { name: "Choose a pickup point" });
    const checkout = screen.getByRole<HTMLButtonElement>("button", { name: "Checkout" });
    expect(checkout.disabled).toBe(true);
    expect(screen.getByTestId("point-missing").textContent).toBe("Choose a pickup point to continue.");

    fireEvent.click(screen.getByRole("radio", { name: "North Barn" }));
    expect(checkout.disabled).toBe(false);
    fireEvent.click(checkout);
    const stored = readSelection();
    expect(stored).toMatchObject({ mode: "pickup", pickupAddress: "North Barn", fulfillmentDetails: "North Barn" });
    expect(chosenPoint(stored!)).toBe("North Barn");
  });

  it("a single delivery area is shown as text and chosen without asking", async () => {
    renderPage();
    fireEvent.click(await screen.findByRole("radio", { name: /^Delivery/ }));
    expect(screen.queryByRole("radiogroup", { name: "Choose a delivery area" })).toBeNull();
    expect(screen.getByText("Riverside")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Checkout" }));
    expect(readSelection()).toMatchObject({ mode: "delivery", pickupAddress: "", fulfillmentDetails: "Riverside" });
  });
});

describe("MembershipBuilder: another pickup point alone", () => {
  it("saves at once and the dialog keeps saying so while the updated membership re-renders the page", async () => {
    const asked: string[] = [];
    const network = Network.create((params: RequestParameters) =>
      Observable.create<GraphQLResponse>((sink) => {
        asked.push(params.name);
        if (params.name === "MembershipBuilderPointsChangeTestQuery") sink.next({ data: { business, node: membership("Market Hall") } });
        else if (params.name === "ChangeConfirmDialogMutation") sink.next({ data: { changeSubscription: { __typename: "ChangeSubscriptionSuccess", data: membership("North Barn") } } });
        else return;
        sink.complete();
      }),
    );
    renderWith(network, <ChangePage />);
    fireEvent.click(await screen.findByRole("radio", { name: "North Barn" }));
    fireEvent.click(screen.getByRole("button", { name: "Update" }));
    await screen.findByText("Your next box goes to the new place. There is no charge today.");
    fireEvent.click(screen.getByRole("button", { name: "Confirm update" }));
    await screen.findByText("Update saved");
    // The membership now holds North Barn (nothing differs from it any more): the dialog still speaks of the point.
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>("button", { name: "Update", hidden: true }).disabled).toBe(true));
    expect(screen.getByText("Update saved")).toBeTruthy();
    expect(screen.queryByText("Update scheduled")).toBeNull();
    expect(screen.queryAllByTestId("change-quote")).toHaveLength(0);
    expect(asked).not.toContain("ChangeConfirmDialogQuoteQuery");
  });
});

describe("points", () => {
  const page = { pickupPoints: ["A", "B"], deliveryAreas: ["Z"] };

  it("lists a mode's points; shipping has none", () => {
    expect(pointsForMode(page, "pickup")).toEqual(["A", "B"]);
    expect(pointsForMode(page, "delivery")).toEqual(["Z"]);
    expect(pointsForMode(page, "shipping")).toEqual([]);
  });

  it("starts with the only point, else the preferred one while still offered", () => {
    expect(initialPoint(["Z"], null)).toBe("Z");
    expect(initialPoint(["A", "B"], "B")).toBe("B");
    expect(initialPoint(["A", "B"], "Gone")).toBe("");
    expect(initialPoint([], "A")).toBe("");
  });

  it("asks only when there is a choice, and until one is made", () => {
    expect(pointQuestion("pickup", ["A", "B"])).toBe("Choose a pickup point");
    expect(pointQuestion("delivery", ["Y", "Z"])).toBe("Choose a delivery area");
    expect(pointQuestion("delivery", ["Z"])).toBeNull();
    expect(missingPoint("pickup", ["A", "B"], "")).toBe("Choose a pickup point to continue.");
    expect(missingPoint("pickup", ["A", "B"], "A")).toBeNull();
    expect(missingPoint("shipping", [], "")).toBeNull();
  });

  it("the selection's point: pickupAddress for pickup, fulfillmentDetails for delivery, none for shipping", () => {
    expect(chosenPoint({ mode: "pickup", pickupAddress: "A", fulfillmentDetails: "A" })).toBe("A");
    expect(chosenPoint({ mode: "delivery", pickupAddress: "", fulfillmentDetails: "Z" })).toBe("Z");
    expect(chosenPoint({ mode: "shipping", pickupAddress: "", fulfillmentDetails: "Nationwide Shipping" })).toBe("");
  });
});
