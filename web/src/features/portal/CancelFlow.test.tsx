import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { MemoryRouter, Route, Routes, useLocation } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters, type Variables } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import type { CancelFlowTestQuery } from "./__generated__/CancelFlowTestQuery.graphql.ts";
import { cancellationNote } from "./cancellation.ts";
import { offerText } from "./RetentionOffers.tsx";
import { SubscriptionCard } from "./SubscriptionCard.tsx";

const query = graphql`
  query CancelFlowTestQuery {
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
const REQUEST_ID = "Q2FuY2VsbGF0aW9uUmVxdWVzdDox";

/** An active membership on March 5th at a business whose members cancel from the card (April: the next box's month). */
function membership(o: Record<string, unknown> = {}, cancellationPolicy = "SELF_SERVICE") {
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
    nextBoxDate: "2026-04-01",
    startedAt: "2026-03-05T15:00:00.000Z",
    canceledAt: null,
    cancelAfterPeriod: null,
    business: {
      __typename: "Business",
      id: "QnVzaW5lc3M6MQ==",
      name: "Quince Farm",
      slug: "quince",
      page: {
        fulfillment: { pickup: true, shipping: false, delivery: false, pickupPoints: ["1 Orchard Road"], shippingText: "", deliveryAreas: [] },
        supportPhone: "(216) 555-0199",
        pauseMaxMonths: 3,
        cancellationPolicy,
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

const NONE = { month: null, resumeDate: null, maxMonths: null, percent: null };
const OFFERS = [
  { ...NONE, offer: "SKIP", month: "2026-04", resumeDate: "2026-05-01" },
  { ...NONE, offer: "PAUSE", month: "2026-04", maxMonths: 3 },
  { ...NONE, offer: "SWITCH_PLAN" },
  { ...NONE, offer: "DISCOUNT", month: "2026-04", percent: 15 },
];

/** A server answering the card's query with `first` and each mutation with what the test gives, recording them. */
function server(first: Record<string, unknown>, answers: Record<string, (vars: Variables) => unknown> = {}) {
  const sent: { name: string; input: unknown }[] = [];
  const network = Network.create((params: RequestParameters, variables: Variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      if (params.name === "CancelFlowTestQuery") {
        sink.next({ data: { viewer: { __typename: "User", id: "VXNlcjox", subscriptions: [first] }, paymentConfig: { provider: "sandbox", publishableKey: null } } });
      } else {
        sent.push({ name: params.name, input: variables.input });
        sink.next({ data: answers[params.name](variables) } as GraphQLResponse);
      }
      sink.complete();
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()), treatMissingFieldsAsNull: true }), sent };
}

function Card() {
  const data = useLazyLoadQuery<CancelFlowTestQuery>(query, {});
  const m = data.viewer?.subscriptions[0];
  return m ? <SubscriptionCard membership={m} paymentConfig={data.paymentConfig} onChanged={() => {}} onOpenProfile={() => {}} /> : null;
}

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

function renderCard(environment: Environment) {
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={environment}>
        <MemoryRouter initialEntries={["/membership"]}>
          <Suspense fallback="loading">
            <Routes>
              <Route path="/membership" element={<Card />} />
              <Route path="*" element={<Where />} />
            </Routes>
          </Suspense>
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
  return screen.findByTestId("subscription-card");
}

const refusal = (field: string, message: string) => ({ [field]: { __typename: "RuleViolationError", __isError: "RuleViolationError", message } });
const success = (field: string, data: Record<string, unknown>) => ({ [field]: { __typename: field.replace(/^./, (c) => c.toUpperCase()) + "Success", data } });
const requested = (offers: unknown[]) => () => success("requestCancellation", { requestId: REQUEST_ID, afterPeriod: "2026-03", endsOn: "2026-04-01", offers, membership: membership() });
const ENDING = { cancelAfterPeriod: "2026-03" };

/** Opens the flow and gives a reason (and a note), up to the server's answer. */
async function giveReason(card: HTMLElement, reason: string, note = "") {
  fireEvent.click(within(card).getByRole("button", { name: "Cancel membership" }));
  const dialog = await screen.findByRole("alertdialog", { name: "Why are you leaving?" });
  if (note) fireEvent.change(within(dialog).getByLabelText(/Anything you'd like to tell us/), { target: { value: note } });
  fireEvent.click(within(dialog).getByRole("radio", { name: reason }));
  fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));
  return dialog;
}

afterEach(cleanup);

describe("SubscriptionCard: the member's own cancel", () => {
  it("offers Cancel membership only on an active membership at a business that takes it from the card", async () => {
    const phone = await renderCard(server(membership({}, "PHONE")).environment);
    expect(within(phone).queryByRole("button", { name: "Cancel membership" })).toBeNull();
    cleanup();
    const pastDue = await renderCard(server(membership({ status: "PAST_DUE" })).environment);
    expect(within(pastDue).queryByRole("button", { name: "Cancel membership" })).toBeNull();
    cleanup();
    const card = await renderCard(server(membership()).environment);
    expect(within(card).getByRole("button", { name: "Cancel membership" })).toBeTruthy();
  });

  it("asks why, shows the server's offers, cancels on No thanks and keeps the membership on Keep my membership", async () => {
    const { environment, sent } = server(membership(), {
      CancelFlowDialogRequestMutation: requested(OFFERS),
      CancelFlowDialogConfirmMutation: () => success("confirmCancellation", { afterPeriod: "2026-03", endsOn: "2026-04-01", membership: membership(ENDING) }),
      KeepMembershipButtonMutation: () => success("withdrawCancellation", { membership: membership() }),
    });
    const card = await renderCard(environment);
    fireEvent.click(within(card).getByRole("button", { name: "Cancel membership" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Why are you leaving?" });
    expect(within(dialog).getAllByRole("radio").map((r) => r.closest("label")?.textContent)).toEqual(["It's too expensive", "Too much food", "I'm moving", "Quality", "Delivery or pickup problems", "Taking a break", "Other"]);
    expect(within(dialog).getByRole<HTMLButtonElement>("button", { name: "Continue" }).disabled).toBe(true);
    const note = within(dialog).getByLabelText<HTMLTextAreaElement>(/Anything you'd like to tell us/);
    expect(note.maxLength).toBe(500);
    fireEvent.change(note, { target: { value: "  Too many beets  " } });
    expect(within(dialog).getByTestId("cancel-note-count").textContent).toBe("18/500");
    fireEvent.click(within(dialog).getByRole("radio", { name: "Too much food" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));

    const offers = await screen.findByRole("alertdialog", { name: "Before you go" });
    expect(within(offers).getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual(["Skip April instead", "Pause for 1–3 months", "Switch to a smaller box", "15 % off your next box"]);
    expect(within(offers).getByTestId("cancel-ends").textContent).toBe("If you cancel, your membership ends after your March box.");
    fireEvent.click(within(offers).getByRole("button", { name: "No thanks, cancel my membership" }));
    const ending = await screen.findByRole("dialog", { name: "Your membership will end" });
    expect(within(ending).getByText("Your membership ends after your March box.")).toBeTruthy();
    expect(sent).toEqual([
      { name: "CancelFlowDialogRequestMutation", input: { subscriptionId: MEMBERSHIP_ID, reason: "TOO_MUCH", note: "Too many beets" } },
      { name: "CancelFlowDialogConfirmMutation", input: { requestId: REQUEST_ID } },
    ]);
    fireEvent.click(within(ending).getByRole("button", { name: "Done" }));

    // The card: ending after March (no April box), kept with one button; the actions for boxes to come are gone.
    await waitFor(() => expect(within(card).getByTestId("ends-after").textContent).toBe("Ends after your March box"));
    expect(within(card).queryByText("Next box: April 1, 2026")).toBeNull();
    for (const name of ["Skip a month", "Pause", "Change box", "Cancel membership"]) expect(within(card).queryByRole("button", { name })).toBeNull();
    fireEvent.click(within(card).getByRole("button", { name: "Keep my membership" }));
    await waitFor(() => expect(within(card).queryByTestId("ends-after")).toBeNull());
    expect(within(card).getByRole("status").textContent).toBe("Your membership goes on as before.");
    expect(within(card).getByText("Next box: April 1, 2026")).toBeTruthy();
    expect(within(card).getByRole("button", { name: "Cancel membership" })).toBeTruthy();
    expect(sent.at(-1)).toEqual({ name: "KeepMembershipButtonMutation", input: { subscriptionId: MEMBERSHIP_ID } });
  });

  it("accepts an offer instead: the discount, or a pause of the months chosen, with the server's word", async () => {
    const { environment, sent } = server(membership(), {
      CancelFlowDialogRequestMutation: requested(OFFERS),
      CancelFlowDialogAcceptMutation: (vars) => success("acceptRetentionOffer", { offer: (vars.input as { offer: string }).offer, membership: membership({ totalCents: 2040 }) }),
    });
    const card = await renderCard(environment);
    await giveReason(card, "It's too expensive");
    const offers = await screen.findByRole("alertdialog", { name: "Before you go" });
    fireEvent.click(within(within(offers).getByRole("group", { name: "15 % off your next box" })).getByRole("button", { name: "Accept" }));
    const done = await screen.findByRole("dialog", { name: "Thanks for staying" });
    expect(within(done).getByTestId("retained-message").textContent).toBe("You'll get 15 % off your April box. Thanks for staying with us!");
    expect(sent.at(-1)).toEqual({ name: "CancelFlowDialogAcceptMutation", input: { requestId: REQUEST_ID, offer: "DISCOUNT", months: null } });
    fireEvent.click(within(done).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(within(card).getByText(/\$20\.40 \/ month/)).toBeTruthy());

    // A pause takes the months chosen.
    await giveReason(card, "Taking a break");
    const again = await screen.findByRole("alertdialog", { name: "Before you go" });
    const pause = within(again).getByRole("group", { name: "Pause for 1–3 months" });
    fireEvent.change(within(pause).getByLabelText("How many months?"), { target: { value: "2" } });
    expect(within(pause).getByTestId("pause-offer-preview").textContent).toBe("Skips April 2026 and May 2026.");
    fireEvent.click(within(pause).getByRole("button", { name: "Accept" }));
    expect((await screen.findByTestId("retained-message")).textContent).toBe("Your membership is paused: no boxes and no charges for April 2026 and May 2026.");
    expect(sent.at(-1)).toEqual({ name: "CancelFlowDialogAcceptMutation", input: { requestId: REQUEST_ID, offer: "PAUSE", months: 2 } });
  });

  it("switching plan goes on to the business's change flow once the server has it", async () => {
    const { environment, sent } = server(membership(), {
      CancelFlowDialogRequestMutation: requested(OFFERS),
      CancelFlowDialogAcceptMutation: () => success("acceptRetentionOffer", { offer: "SWITCH_PLAN", membership: membership() }),
    });
    const card = await renderCard(environment);
    await giveReason(card, "It's too expensive");
    const offers = await screen.findByRole("alertdialog", { name: "Before you go" });
    fireEvent.click(within(within(offers).getByRole("group", { name: "Switch to a smaller box" })).getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(screen.getByTestId("location").textContent).toBe("/b/quince?change=true"));
    expect(sent.at(-1)).toEqual({ name: "CancelFlowDialogAcceptMutation", input: { requestId: REQUEST_ID, offer: "SWITCH_PLAN", months: null } });
  });

  it("with no offers goes straight to confirming, saying when the membership ends", async () => {
    const { environment } = server(membership(), {
      CancelFlowDialogRequestMutation: requested([]),
      CancelFlowDialogConfirmMutation: () => success("confirmCancellation", { afterPeriod: "2026-03", endsOn: "2026-04-01", membership: membership(ENDING) }),
    });
    const card = await renderCard(environment);
    await giveReason(card, "I'm moving");
    const confirm = await screen.findByRole("alertdialog", { name: "Cancel your membership?" });
    expect(within(confirm).getByTestId("cancel-ends").textContent).toBe("Your membership ends after your March box. It won't renew on April 1, 2026.");
    fireEvent.click(within(confirm).getByRole("button", { name: "Cancel membership" }));
    await screen.findByRole("dialog", { name: "Your membership will end" });
    await waitFor(() => expect(within(card).getByTestId("ends-after").textContent).toBe("Ends after your March box"));
  });

  it("keeps the server's refusal in the dialog, then on the card once closed", async () => {
    const message = "Quince Farm takes cancellations by phone at (216) 555-0199.";
    const { environment } = server(membership(), { CancelFlowDialogRequestMutation: () => refusal("requestCancellation", message) });
    const card = await renderCard(environment);
    const dialog = await giveReason(card, "Quality");
    expect((await within(dialog).findByRole("alert")).textContent).toBe(message);
    fireEvent.click(within(dialog).getByRole("button", { name: "Never mind" }));
    await waitFor(() => expect(within(card).getByRole("alert").textContent).toBe(message));
  });
});

describe("cancellation wording", () => {
  it("names each offer in the server's months and amounts", () => {
    expect(OFFERS.map((o) => offerText(o as Parameters<typeof offerText>[0]).title)).toEqual(["Skip April instead", "Pause for 1–3 months", "Switch to a smaller box", "15 % off your next box"]);
    expect(offerText({ ...NONE, offer: "PAUSE", month: "2026-04", maxMonths: 1 }).title).toBe("Pause for 1 month");
    expect(offerText(OFFERS[0] as Parameters<typeof offerText>[0]).detail).toBe("No box and no charge for April 2026. Payments resume May 1st.");
  });
  it("the portal footer says phone only unless a current membership may be canceled from its card", () => {
    expect(cancellationNote([])).toBe("Cancellation is by phone only.");
    expect(cancellationNote([false, false])).toBe("Cancellation is by phone only.");
    expect(cancellationNote([true])).toBe("You can cancel from your membership card (Subscriptions tab).");
    expect(cancellationNote([true, false])).toBe("Cancellation is by phone unless the membership's card offers Cancel membership.");
  });
});
