import { ChakraProvider, Dialog } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { RelayEnvironmentProvider } from "react-relay";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters } from "relay-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { system } from "../../ui/theme.ts";
import { RESTART_CONFIRMATION, RestartConfirm, restartAmountsText } from "./RestartConfirm.tsx";

describe("restartAmountsText (the amounts under the §5 sentence)", () => {
  it("names today's charge and the next one, to the cent, as the server gives them", () => {
    expect(restartAmountsText({ todayCents: 3735, period: "2026-12", nextChargeDate: "2027-01-01", nextChargeCents: 3735 })).toBe("$37.35 today, then $37.35 on January 1.");
    expect(restartAmountsText({ todayCents: 2491, period: "2026-03", nextChargeDate: "2026-04-05", nextChargeCents: 2491 })).toBe("$24.91 today, then $24.91 on April 5.");
  });

  it("says nothing is charged today when the current period is already paid", () => {
    expect(restartAmountsText({ todayCents: 0, period: "2026-11", nextChargeDate: "2026-12-01", nextChargeCents: 3735 })).toBe("Nothing today (November is already paid), then $37.35 on December 1.");
  });

  it("adds the year only to a date beyond next year", () => {
    expect(restartAmountsText({ todayCents: 100, period: "2026-03", nextChargeDate: "2028-02-01", nextChargeCents: 100 })).toBe("$1.00 today, then $1.00 on February 1, 2028.");
  });
});

const QUOTE = {
  restartQuote: {
    __typename: "RestartQuoteSuccess",
    data: {
      todayCents: 2491,
      period: "2026-03",
      nextChargeDate: "2026-04-05",
      nextChargeCents: 2491,
      breakdown: {
        lines: [
          { kind: "PLAN", label: "Sourdough Box", amountCents: 2400 },
          { kind: "TAX", label: "Tax (3.80%)", amountCents: 91 },
        ],
        subtotalCents: 2400,
        totalCents: 2491,
      },
    },
  },
};

/** A server whose quotes answer when the test says so, counting them. */
function quoteServer() {
  const pending: ((response: GraphQLResponse | Error) => void)[] = [];
  let asked = 0;
  const network = Network.create((params: RequestParameters) =>
    Observable.create<GraphQLResponse>((sink) => {
      if (params.name !== "RestartConfirmQuoteQuery") throw new Error(`unexpected ${params.name}`);
      asked++;
      pending.push((response) => {
        if (response instanceof Error) return sink.error(response);
        sink.next(response);
        sink.complete();
      });
    }),
  );
  return {
    environment: new Environment({ network, store: new Store(new RecordSource()) }),
    asked: () => asked,
    answer: async (response: GraphQLResponse | Error) => {
      await act(async () => pending.shift()!(response));
    },
  };
}

function renderConfirm(server: ReturnType<typeof quoteServer>, notice: string | null = null) {
  const confirmed: number[] = [];
  let retry = () => {};
  function Host() {
    const [key, setKey] = useState(1);
    retry = () => setKey((k) => k + 1);
    return (
      <Dialog.Root open role="alertdialog">
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Title>Restart subscription</Dialog.Title>
            <RestartConfirm subscriptionId="TWVtYmVyc2hpcDoz" quoteKey={key} notice={notice} error={null} busy={false} ready onCancel={() => {}} onConfirm={(c) => confirmed.push(c)} onRetry={() => setKey((k) => k + 1)} />
          </Dialog.Content>
        </Dialog.Positioner>
      </Dialog.Root>
    );
  }
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={server.environment}>
        <Host />
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );
  return { confirmed, askAgain: () => act(async () => retry()) };
}

const restartButton = () => screen.getByRole<HTMLButtonElement>("button", { name: "Restart" });

afterEach(cleanup);

describe("RestartConfirm", () => {
  it("keeps the §5 sentence, loads the amounts, then enables Restart with today's amount", async () => {
    const server = quoteServer();
    const { confirmed } = renderConfirm(server);
    expect(screen.getByText(RESTART_CONFIRMATION)).toBeTruthy();
    expect(screen.getByText("Loading the amounts…")).toBeTruthy();
    expect(restartButton().disabled).toBe(true);
    await server.answer({ data: QUOTE });
    expect(screen.getByTestId("restart-amounts").textContent).toBe("$24.91 today, then $24.91 on April 5.");
    expect(screen.getAllByRole("row").map((r) => r.textContent)).toEqual(["ItemAmount", "Sourdough Box$24.00", "Subtotal$24.00", "Tax (3.80%)$0.91", "Each month$24.91"]);
    expect(restartButton().disabled).toBe(false);
    fireEvent.click(restartButton());
    expect(confirmed).toEqual([2491]);
  });

  it("shows the server's refusal in place of the amounts, and Restart stays disabled", async () => {
    const server = quoteServer();
    renderConfirm(server);
    await server.answer({ data: { restartQuote: { __typename: "ConflictError", __isError: "ConflictError", message: "You already have a membership at this business." } } });
    expect(screen.getByRole("alert").textContent).toBe("You already have a membership at this business.");
    expect(restartButton().disabled).toBe(true);
  });

  it("a failed request offers Try again, which asks the server again", async () => {
    // React reports the error the boundary catches; the test expects it.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const server = quoteServer();
    renderConfirm(server);
    await server.answer(new Error("Network request failed"));
    expect(screen.getByRole("alert").textContent).toBe("Network request failed");
    expect(restartButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(server.asked()).toBe(2);
    await server.answer({ data: QUOTE });
    expect(restartButton().disabled).toBe(false);
    quiet.mockRestore();
  });

  it("asked again (the amount changed), shows the notice and waits for the new amounts before Restart", async () => {
    const server = quoteServer();
    const { askAgain } = renderConfirm(server, "The amount of your restart has changed. Please review it and confirm again.");
    await server.answer({ data: QUOTE });
    expect(restartButton().disabled).toBe(false);
    await askAgain();
    expect(server.asked()).toBe(2);
    expect(restartButton().disabled).toBe(true);
    expect(screen.getByTestId("restart-amount-changed").textContent).toBe("The amount of your restart has changed. Please review it and confirm again.");
    await server.answer({ data: { restartQuote: { ...QUOTE.restartQuote, data: { ...QUOTE.restartQuote.data, todayCents: 0, period: "2026-04", nextChargeDate: "2026-05-05" } } } });
    expect(screen.getByTestId("restart-amounts").textContent).toBe("Nothing today (April is already paid), then $24.91 on May 5.");
    expect(restartButton().disabled).toBe(false);
  });
});
