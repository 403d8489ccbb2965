import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters, type Variables } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import type { SubscriptionCardTestQuery } from "./__generated__/SubscriptionCardTestQuery.graphql.ts";
import { SubscriptionCard } from "./SubscriptionCard.tsx";

const query = graphql`
  query SubscriptionCardTestQuery {
    viewer {
      subscriptions {
        ...SubscriptionCardFragment_membership
      }
    }
    paymentConfig {
      ...SubscriptionCardFragment_paymentConfig
    }
  }
`;

const MEMBERSHIP_ID = "TWVtYmVyc2hpcDox";

/** The card's membership as the server answers it: active, March 5th, April the month a skip now pauses. */
function membership(o: Record<string, unknown> = {}, pauseMaxMonths = 3) {
  return {
    __typename: "Membership",
    id: MEMBERSHIP_ID,
    status: "ACTIVE",
    planName: "Harvest Box",
    mode: "PICKUP",
    fulfillmentPoint: "1 Orchard Road",
    isGift: false,
    giftMessage: "",
    totalCents: 2400,
    couponTerms: null,
    nextBoxDate: "2026-03-06",
    startedAt: "2026-01-05T15:00:00.000Z",
    canceledAt: null,
    business: {
      __typename: "Business",
      id: "QnVzaW5lc3M6MQ==",
      name: "Quince Farm",
      slug: "quince",
      page: {
        fulfillment: { pickup: true, shipping: false, delivery: false, pickupPoints: ["1 Orchard Road"], shippingText: "", deliveryAreas: [] },
        supportPhone: "(216) 555-0199",
        pauseMaxMonths,
        theme: { primary: "#f97316", primaryText: "#ffffff", buttonBorder: "transparent" },
      },
    },
    addons: [],
    skipWindow: { open: true, opensOn: "2026-03-01", closesOn: "2026-03-14" },
    changeWindow: { open: true, opensOn: "2026-03-01", closesOn: "2026-03-14" },
    skipTarget: { month: "2026-04", resumeDate: "2026-05-01", skipped: false, allowed: true },
    skips: [],
    pausedThrough: null,
    resumeDate: null,
    pendingChange: null,
    ...o,
  };
}

/** Paused for April and May: boxes back on June 6th. */
const PAUSED = {
  nextBoxDate: "2026-03-06",
  skipTarget: { month: "2026-04", resumeDate: "2026-05-01", skipped: true, allowed: false },
  skips: [{ yearMonth: "2026-01" }, { yearMonth: "2026-04" }, { yearMonth: "2026-05" }],
  pausedThrough: "2026-05",
  resumeDate: "2026-06-06",
};

/**
 * A server answering the card's query with `first` and each mutation with what the test gives for it (a
 * membership's changes, or a refusal), recording the mutations' names and variables.
 */
function server(first: Record<string, unknown>, answers: Record<string, (vars: Variables) => unknown> = {}) {
  const sent: { name: string; input: unknown }[] = [];
  const network = Network.create((params: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      if (params.name === "SubscriptionCardTestQuery") {
        sink.next({ data: { viewer: { __typename: "User", id: "VXNlcjox", subscriptions: [first] }, paymentConfig: { provider: "sandbox", publishableKey: null } } });
      } else {
        sent.push({ name: params.name, input: variables.input });
        sink.next({ data: answers[params.name](variables) } as GraphQLResponse);
      }
      sink.complete();
    }),
  );
  // The card's other sections (address, restart) read fields these answers leave out: null, as for a pickup membership.
  return { environment: new Environment({ network, store: new Store(new RecordSource()), treatMissingFieldsAsNull: true }), sent };
}

function Card() {
  const data = useLazyLoadQuery<SubscriptionCardTestQuery>(query, {});
  const m = data.viewer?.subscriptions[0];
  return m ? <SubscriptionCard membership={m} paymentConfig={data.paymentConfig} onChanged={() => {}} onOpenProfile={() => {}} /> : null;
}

function renderCard(environment: Environment) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment}>
        <MemoryRouter>
          <Suspense fallback="loading">
            <Card />
          </Suspense>
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
  return screen.findByTestId("subscription-card");
}

const refusal = (field: string, message: string) => ({ [field]: { __typename: "RuleViolationError", __isError: "RuleViolationError", message } });
const success = (field: string, data: Record<string, unknown>) => ({ [field]: { __typename: field.replace(/^./, (c) => c.toUpperCase()) + "Success", data } });

afterEach(cleanup);

describe("SubscriptionCard: the price", () => {
  it("says when a coupon discounts it for some months only, as the server words its terms", async () => {
    const plain = await renderCard(server(membership()).environment);
    expect(within(plain).getByText(/\/ month/).textContent).toBe("Harvest Box · Pickup · $24.00 / month");
    cleanup();
    const discounted = await renderCard(server(membership({ totalCents: 1920, couponTerms: "20 % off · 1 month left" })).environment);
    expect(within(discounted).getByText(/\/ month/).textContent).toBe("Harvest Box · Pickup · $19.20 / month (20 % off · 1 month left)");
  });
});

describe("SubscriptionCard: pause, resume and unskip", () => {
  it("offers Pause beside Skip a month only where the business offers a pause", async () => {
    const card = await renderCard(server(membership({}, 0)).environment);
    expect(within(card).getByRole("button", { name: "Skip a month" })).toBeTruthy();
    expect(within(card).queryByRole("button", { name: "Pause" })).toBeNull();
    cleanup();
    const offered = await renderCard(server(membership()).environment);
    expect(within(offered).getByRole<HTMLButtonElement>("button", { name: "Pause" }).disabled).toBe(false);
    expect(within(offered).queryByTestId("paused-until")).toBeNull();
    expect(within(offered).queryByRole("button", { name: "Resume now" })).toBeNull();
  });

  it("pauses for the months chosen, previews them, and shows the server's pause on the card", async () => {
    const { environment, sent } = server(membership(), {
      PauseDialogMutation: () => success("pauseMembership", { fromMonth: "2026-04", throughMonth: "2026-05", resumeDate: "2026-06-06", membership: membership(PAUSED) }),
    });
    const card = await renderCard(environment);
    fireEvent.click(within(card).getByRole("button", { name: "Pause" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Pause your membership" });
    // One radio per month up to the page's longest pause, one month first.
    const choices = within(dialog).getAllByRole<HTMLInputElement>("radio");
    expect(choices.map((r) => r.closest("label")?.textContent)).toEqual(["1 month", "2 months", "3 months"]);
    expect(choices[0].checked).toBe(true);
    expect(within(dialog).getByTestId("pause-preview").textContent).toBe("Your Quince Farm boxes for April 2026 will be skipped and you won't be charged for them. Your boxes come back in May 2026.");
    fireEvent.click(within(dialog).getByRole("radio", { name: "2 months" }));
    expect(within(dialog).getByTestId("pause-preview").textContent).toBe("Your Quince Farm boxes for April 2026 and May 2026 will be skipped and you won't be charged for them. Your boxes come back in June 2026.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Pause membership" }));
    expect(await screen.findByText("Paused until June 6th")).toBeTruthy();
    expect(screen.getByText("No boxes and no charges for April 2026 through May 2026.")).toBeTruthy();
    expect(sent).toEqual([{ name: "PauseDialogMutation", input: { subscriptionId: MEMBERSHIP_ID, months: 2 } }]);
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    // The card: the server's pause, the months from the next box's on (January is behind), Resume instead of Pause.
    await waitFor(() => expect(within(card).getByTestId("paused-until").textContent).toBe("Paused until June 6th"));
    expect(within(card).getAllByTestId("skipped-month").map((e) => e.textContent)).toEqual(["Skipped: April 2026", "Skipped: May 2026"]);
    expect(within(card).queryByRole("button", { name: "Pause" })).toBeNull();
    expect(within(card).getByRole<HTMLButtonElement>("button", { name: "Skip a month" }).disabled).toBe(true);
    expect(within(card).getByRole<HTMLButtonElement>("button", { name: "Resume now" }).disabled).toBe(false);
  });

  it("keeps the server's refusal of a pause in the dialog, then on the card once closed", async () => {
    const { environment } = server(membership(), { PauseDialogMutation: () => refusal("pauseMembership", "You can pause for at most 3 months.") });
    const card = await renderCard(environment);
    fireEvent.click(within(card).getByRole("button", { name: "Pause" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Pause your membership" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Pause membership" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("You can pause for at most 3 months.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Keep my boxes" }));
    await waitFor(() => expect(within(card).getByRole("alert").textContent).toBe("You can pause for at most 3 months."));
  });

  it("takes one month back with Unskip: the card shows the server's answer, and its refusal", async () => {
    const afterUnskip = membership({ ...PAUSED, skips: [{ yearMonth: "2026-04" }], pausedThrough: "2026-04", resumeDate: "2026-05-06" });
    const { environment, sent } = server(membership(PAUSED), {
      SkippedMonthsUnskipMutation: (vars) =>
        (vars.input as { month: string }).month === "2026-05" ? success("unskipMonth", { months: ["2026-05"], membership: afterUnskip }) : refusal("unskipMonth", "Your April 2026 box is already being packed, so its skip stays."),
    });
    const card = await renderCard(environment);
    fireEvent.click(within(card).getByRole("button", { name: "Unskip May 2026" }));
    await waitFor(() => expect(within(card).getByTestId("paused-until").textContent).toBe("Paused until May 6th"));
    expect(sent).toEqual([{ name: "SkippedMonthsUnskipMutation", input: { subscriptionId: MEMBERSHIP_ID, month: "2026-05" } }]);
    // A pause of the next box's month alone reads as the skip it is, with when payments resume.
    expect(within(card).getAllByTestId("skipped-month").map((e) => e.textContent)).toEqual(["Skipped: April 2026 · payments resume May 1st"]);
    expect(within(card).getByRole("status").textContent).toBe("Your May box is back on.");
    fireEvent.click(within(card).getByRole("button", { name: "Unskip April 2026" }));
    await waitFor(() => expect(within(card).getByRole("alert").textContent).toBe("Your April 2026 box is already being packed, so its skip stays."));
    expect(within(card).getByTestId("paused-until")).toBeTruthy();
  });

  it("resumes after a confirmation, naming the months the server put back on", async () => {
    const { environment, sent } = server(membership(PAUSED), {
      ResumeDialogMutation: () => success("resumeMembership", { months: ["2026-04", "2026-05"], membership: membership({ skips: [{ yearMonth: "2026-01" }] }) }),
    });
    const card = await renderCard(environment);
    fireEvent.click(within(card).getByRole("button", { name: "Resume now" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Resume your membership?" });
    expect(dialog.textContent).toContain("Your Quince Farm membership is paused for April 2026 through May 2026.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Resume now" }));
    expect(await screen.findByText("Your boxes for April 2026 and May 2026 are back on.")).toBeTruthy();
    expect(sent).toEqual([{ name: "ResumeDialogMutation", input: { subscriptionId: MEMBERSHIP_ID } }]);
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    await waitFor(() => expect(within(card).queryByTestId("paused-until")).toBeNull());
    expect(within(card).queryByTestId("skipped-month")).toBeNull();
    expect(within(card).getByRole("button", { name: "Pause" })).toBeTruthy();
  });

  it("outside the skip window: Resume and Unskip are disabled", async () => {
    const closed = membership({ ...PAUSED, skipWindow: { open: false, opensOn: "2026-04-01", closesOn: "2026-04-14" } });
    const card = await renderCard(server(closed).environment);
    expect(within(card).getByRole<HTMLButtonElement>("button", { name: "Resume now" }).disabled).toBe(true);
    expect(within(card).getByRole<HTMLButtonElement>("button", { name: "Unskip April 2026" }).disabled).toBe(true);
    expect(within(card).getByRole<HTMLButtonElement>("button", { name: "Unskip May 2026" }).disabled).toBe(true);
  });
});
