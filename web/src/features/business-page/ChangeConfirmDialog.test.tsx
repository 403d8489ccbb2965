import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { RelayEnvironmentProvider } from "react-relay";
import { MemoryRouter } from "react-router";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import { ChangeConfirmDialog } from "./ChangeConfirmDialog.tsx";

const CALCULATING = "Calculating the new price…";
/** The server's breakdown of a plan alone: its lines sum to the total (nothing is added up in the browser). */
const breakdown = (totalCents: number) => ({
  lines: [{ kind: "PLAN", label: "Last Box", amountCents: totalCents }],
  subtotalCents: totalCents,
  totalCents,
});
const quote = (totalCents: number, effectivePeriod = "2026-04") => ({
  changeQuote: { __typename: "ChangeQuoteSuccess", data: { discountCents: 0, taxCents: 0, taxRatePercent: 0, totalCents, effectivePeriod, breakdown: breakdown(totalCents) } },
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

  it("names the first month charged and shows the new price line by line, as the server gives them", async () => {
    const server = quoteServer();
    renderDialog(server);
    // The month after a skipped one: the server's effectivePeriod, named as is.
    await server.answer({
      data: {
        changeQuote: {
          __typename: "ChangeQuoteSuccess",
          data: {
            discountCents: 330,
            taxCents: 171,
            taxRatePercent: 5.75,
            totalCents: 3141,
            effectivePeriod: "2027-01",
            breakdown: {
              lines: [
                { kind: "PLAN", label: "Last Box", amountCents: 2800 },
                { kind: "SURCHARGE", label: "Shipping", amountCents: 500 },
                { kind: "DISCOUNT", label: "Coupon WELCOME10", amountCents: -330 },
                { kind: "TAX", label: "Tax (5.75%)", amountCents: 171 },
              ],
              subtotalCents: 3300,
              totalCents: 3141,
            },
          },
        },
      },
    });
    expect(quoteLines()).toEqual(["New monthly price: $31.41 / month (after $3.30 discount, incl. $1.71 tax at 5.75%), from January 2027."]);
    const rows = screen.getAllByRole("row").map((r) => r.textContent);
    expect(rows).toEqual(["ItemAmount", "Last Box$28.00", "Shipping$5.00", "Subtotal$33.00", "Coupon WELCOME10\u2212$3.30", "Tax (5.75%)$1.71", "Monthly from January 2027$31.41"]);
    // The spec's statement stays: next billing cycle, nothing today.
    expect(screen.getByText("The change takes effect next billing cycle. There is no charge today.")).toBeTruthy();
  });
});
