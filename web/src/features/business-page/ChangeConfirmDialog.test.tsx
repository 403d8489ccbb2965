import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { RelayEnvironmentProvider } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import { ChangeConfirmDialog } from "./ChangeConfirmDialog.tsx";

const CALCULATING = "Calculating the new price…";
const quote = (totalCents: number) => ({
  changeQuote: { __typename: "ChangeQuoteSuccess", data: { discountCents: 0, taxCents: 0, taxRatePercent: 0, totalCents, effectivePeriod: "2026-04" } },
});

/** A server whose quotes answer when the test says so (`answer`), counting the quotes asked. */
function quoteServer() {
  const pending: ((response: GraphQLResponse) => void)[] = [];
  let asked = 0;
  const network = Network.create((params: RequestParameters) =>
    Observable.create<GraphQLResponse>((sink) => {
      if (params.name !== "ChangeConfirmDialogQuoteQuery") throw new Error(`unexpected ${params.name}`);
      asked++;
      pending.push((response) => {
        sink.next(response);
        sink.complete();
      });
    }),
  );
  return {
    environment: new Environment({ network, store: new Store(new RecordSource()) }),
    asked: () => asked,
    answer: async (response: GraphQLResponse) => {
      await act(async () => pending.shift()!(response));
    },
  };
}

const props = {
  onOpenChange: () => {},
  membershipId: "TWVtYmVyc2hpcDox",
  planId: "UGxhbjox",
  mode: "shipping" as const,
  fulfillmentPoint: "",
  pointOnly: false,
  summary: "Last Box, Shipping",
};

function renderDialog(server: ReturnType<typeof quoteServer>) {
  const ui = (open: boolean) => (
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={server.environment}>
        <MemoryRouter>
          {/* A new add-on array each render, as the builder passes it. */}
          <ChangeConfirmDialog {...props} open={open} addonIds={[]} />
        </MemoryRouter>
      </RelayEnvironmentProvider>
    </ChakraProvider>
  );
  const view = render(ui(true));
  return { rerender: (open: boolean) => view.rerender(ui(open)) };
}

/** The quote lines in the document, shown or hidden (a re-suspended Suspense keeps its content hidden beside the fallback). */
const quoteLines = () => screen.queryAllByTestId("change-quote").map((el) => el.textContent);

afterEach(cleanup);

describe("ChangeConfirmDialog quote", () => {
  it("keeps the quote on screen once it came: no fall back to 'Calculating…' when the dialog renders again", async () => {
    const server = quoteServer();
    const dialog = renderDialog(server);
    expect(await screen.findByText(CALCULATING)).toBeTruthy();
    await server.answer({ data: quote(2500) });
    expect(quoteLines()).toEqual(["New monthly price: $25.00 / month, from April 2026."]);
    dialog.rerender(true);
    expect(quoteLines()).toEqual(["New monthly price: $25.00 / month, from April 2026."]);
    expect(server.asked()).toBe(1);
  });

  it("opened again for the same change, shows the quote it has while the server prices it again", async () => {
    const server = quoteServer();
    const dialog = renderDialog(server);
    await server.answer({ data: quote(2500) });
    dialog.rerender(false);
    dialog.rerender(true);
    expect(server.asked()).toBe(2);
    expect(quoteLines()).toEqual(["New monthly price: $25.00 / month, from April 2026."]);
    await server.answer({ data: quote(2600) });
    expect(quoteLines()).toEqual(["New monthly price: $26.00 / month, from April 2026."]);
  });

  it("a refused change cannot be confirmed", async () => {
    const server = quoteServer();
    renderDialog(server);
    await server.answer({ data: { changeQuote: { __typename: "RuleViolationError", __isError: "RuleViolationError", message: "This box is sold out." } } });
    expect(quoteLines()).toEqual(["This box is sold out."]);
    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Confirm update" }).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Confirm update" }));
    expect(screen.queryByText("Applying...")).toBeNull();
  });
});
