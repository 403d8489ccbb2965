import { Suspense } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse, type RequestParameters } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import type { OrderHistoryTestQuery } from "./__generated__/OrderHistoryTestQuery.graphql.ts";
import { OrderHistory } from "./OrderHistory.tsx";

const query = graphql`
  query OrderHistoryTestQuery {
    viewer {
      ...OrderHistoryFragment_user
    }
  }
`;

const ORDER_ID = "T3JkZXI6NDI=";

const order = (o: Record<string, unknown>) => ({
  __typename: "Order",
  id: ORDER_ID,
  databaseId: 42,
  createdAt: "2026-03-05T15:00:00.000Z",
  kind: "RENEWAL",
  period: "2026-11",
  planName: "Family Harvest Box",
  mode: "PICKUP",
  status: "PAID",
  totalCents: 5996,
  refundedCents: 0,
  business: { __typename: "Business", id: "QnVzaW5lc3M6MQ==", name: "Green Acres Farm" },
  addons: [{ name: "Wildflower honey (12 oz)" }],
  ...o,
});

const breakdown = {
  lines: [
    { kind: "PLAN", label: "Family Harvest Box", amountCents: 5200 },
    { kind: "ADDON", label: "Wildflower honey (12 oz)", amountCents: 1100 },
    { kind: "DISCOUNT", label: "Coupon WELCOME10", amountCents: -630 },
    { kind: "TAX", label: "Tax (5.75%)", amountCents: 326 },
  ],
  subtotalCents: 6300,
  totalCents: 5996,
};

const receipt = {
  subject: "Welcome to Green Acres Farm: your receipt",
  html: "<html><body><p>Order #42</p></body></html>",
  text: "Order #42",
  toAddress: "member@example.com",
  status: "HELD",
  createdAt: "2026-03-05T15:00:05.000Z",
  sentAt: null,
};

/** A server answering the history, an order's lines and its receipt (`withReceipt`), counting what was asked. */
function server(orders: Record<string, unknown>[], withReceipt = true) {
  const asked: string[] = [];
  const answers: Record<string, () => unknown> = {
    OrderHistoryTestQuery: () => ({ viewer: { __typename: "User", id: "VXNlcjox", orders: { edges: orders.map((node) => ({ node })) } } }),
    OrderBreakdownQuery: () => ({ node: { __typename: "Order", id: ORDER_ID, breakdown } }),
    ReceiptDialogQuery: () => ({ node: { __typename: "Order", id: ORDER_ID, receipt: withReceipt ? receipt : null } }),
  };
  const network = Network.create((params: RequestParameters) =>
    Observable.create<GraphQLResponse>((sink) => {
      asked.push(params.name);
      sink.next({ data: answers[params.name]() } as GraphQLResponse);
      sink.complete();
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), asked };
}

function History() {
  const data = useLazyLoadQuery<OrderHistoryTestQuery>(query, {});
  return data.viewer ? <OrderHistory user={data.viewer} highlightOrderId={null} /> : null;
}

const show = (s: ReturnType<typeof server>) =>
  render(
    <ChakraProvider value={system}>
      <RelayEnvironmentProvider environment={s.environment}>
        <Suspense fallback="loading">
          <History />
        </Suspense>
      </RelayEnvironmentProvider>
    </ChakraProvider>,
  );

afterEach(cleanup);

describe("OrderHistory", () => {
  it("names the month, shows the status, and opens to the server's lines only when expanded", async () => {
    const s = server([order({})]);
    show(s);
    const row = await screen.findByTestId("order-row");
    expect(row.textContent).toContain("Renewal for November 2026");
    expect(row.textContent).not.toContain("2026-11");
    expect(within(row).getByTestId("order-status").textContent).toBe("Paid");
    expect(s.asked).toEqual(["OrderHistoryTestQuery"]);

    const toggle = within(row).getByRole("button", { name: "Show details of order #42" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(toggle);
    const table = await within(row).findByRole("table", { name: "Price breakdown" });
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((r) => [...r.querySelectorAll("th, td")].map((c) => c.textContent));
    expect(rows).toEqual([
      ["Family Harvest Box", "$52.00"],
      ["Wildflower honey (12 oz)", "$11.00"],
      ["Subtotal", "$63.00"],
      ["Coupon WELCOME10", "\u2212$6.30"],
      ["Tax (5.75%)", "$3.26"],
      ["Total charged", "$59.96"],
    ]);
    expect(within(table).getByRole("rowheader", { name: "Total charged" })).toBeTruthy();
    expect(s.asked).toEqual(["OrderHistoryTestQuery", "OrderBreakdownQuery"]);
  });

  it("says refunds as the status and the amount given back", async () => {
    show(server([order({ status: "PARTLY_REFUNDED", refundedCents: 1000 }), order({ id: "T3JkZXI6NDM=", databaseId: 43, status: "REFUNDED", refundedCents: 5996, kind: "INITIAL", period: "2026-10" })]));
    const rows = await screen.findAllByTestId("order-row");
    expect(rows.map((r) => within(r).getByTestId("order-status").textContent)).toEqual(["Partly refunded", "Refunded"]);
    expect(rows[0].textContent).toContain("$10.00 refunded");
    expect(rows[1].textContent).toContain("New membership for October 2026");
  });

  it("View receipt asks for the receipt and shows its HTML in a sandboxed frame, titled by its subject", async () => {
    const s = server([order({})]);
    show(s);
    fireEvent.click(await screen.findByRole("button", { name: "View receipt of order #42" }));
    const dialog = await screen.findByRole("dialog", { name: receipt.subject });
    const frame = within(dialog).getByTitle(`Receipt email: ${receipt.subject}`);
    expect(frame.tagName).toBe("IFRAME");
    expect(frame.getAttribute("sandbox")).toBe("");
    expect(frame.getAttribute("srcdoc")).toBe(receipt.html);
    expect(dialog.textContent).toContain("member@example.com");
    expect(s.asked).toEqual(["OrderHistoryTestQuery", "ReceiptDialogQuery"]);

    // Closed, it leaves; opened again, it shows the receipt it has and asks again.
    fireEvent.click(within(dialog).getAllByRole("button", { name: "Close" })[0]);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    fireEvent.click(screen.getByRole("button", { name: "View receipt of order #42" }));
    expect(await screen.findByRole("dialog", { name: receipt.subject })).toBeTruthy();
    expect(s.asked).toEqual(["OrderHistoryTestQuery", "ReceiptDialogQuery", "ReceiptDialogQuery"]);
  });

  it("says the receipt is on its way while the server has none yet", async () => {
    show(server([order({})], false));
    fireEvent.click(await screen.findByRole("button", { name: "View receipt of order #42" }));
    const dialog = await screen.findByRole("dialog", { name: "Receipt for order #42" });
    expect(await within(dialog).findByText("Your receipt is on its way.")).toBeTruthy();
    expect(within(dialog).queryByTitle(/^Receipt email/)).toBeNull();
  });

  it("keeps the empty state", async () => {
    show(server([]));
    expect(await screen.findByText("No orders yet.")).toBeTruthy();
  });
});
