import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import type { CheckoutResult } from "./ReviewStep.tsx";
import { SuccessPanel } from "./SuccessPanel.tsx";

const result: CheckoutResult = {
  orderId: 42,
  createdAt: "2026-03-05T15:00:00.000Z",
  chargedCents: 5996,
  nextBillingDate: "2026-04-01",
  message: null,
  card: { brand: "visa", last4: "4242" },
  receiptEmail: "vera@example.com",
  nextMonth: null,
};

const show = (r: CheckoutResult) =>
  render(
    <ChakraProvider value={system}>
      <SuccessPanel result={r} />
    </ChakraProvider>,
  );

afterEach(cleanup);

describe("SuccessPanel (spec §2)", () => {
  it("says the order, the charge, the card that paid and where the receipt went", () => {
    show(result);
    const panel = screen.getByRole("status");
    expect(screen.getByRole("heading", { name: "Subscription Activated!" })).toBeTruthy();
    expect(panel.textContent).toContain("Order ID: 42");
    expect(panel.textContent).toContain("Amount charged: $59.96");
    expect(screen.getByText("Paid with VISA ending in 4242")).toBeTruthy();
    expect(screen.getByText("Your monthly subscription is now active. Next billing: April 1, 2026")).toBeTruthy();
    expect(screen.getByText("A receipt was sent to vera@example.com.")).toBeTruthy();
    expect(screen.getByText("Redirecting to your membership dashboard...")).toBeTruthy();
    // In the spec's order, the card right after the charge.
    const texts = [...panel.querySelectorAll("p")].map((p) => p.textContent);
    expect(texts.indexOf("Paid with VISA ending in 4242")).toBe(texts.indexOf("Amount charged: $59.96") + 1);
  });

  it("leaves out the card and the receipt line when the server has none", () => {
    show({ ...result, chargedCents: 0, card: null, receiptEmail: "" });
    const panel = screen.getByRole("status");
    expect(panel.textContent).not.toContain("Paid with");
    expect(panel.textContent).not.toContain("receipt");
    expect(panel.textContent).not.toContain("Amount charged");
  });

  it("claims no charge for a next-month sign-up: the card saved, the first box's month and the first charge", () => {
    show({ ...result, orderId: null, chargedCents: 0, nextBillingDate: "2026-04-06", nextMonth: { firstPeriod: "2026-04", firstChargeCents: 2100 } });
    const panel = screen.getByRole("status");
    expect(screen.getByRole("heading", { name: "Subscription Activated!" })).toBeTruthy();
    expect(panel.textContent).not.toContain("Order ID");
    expect(panel.textContent).not.toContain("Amount charged");
    expect(panel.textContent).not.toContain("Paid with");
    expect(panel.textContent).not.toContain("Next billing");
    expect(panel.textContent).not.toContain("receipt");
    expect(screen.getByText("Card saved: VISA ending in 4242")).toBeTruthy();
    expect(screen.getByText("Your first box will be April's. $21.00 will be charged on April 6.")).toBeTruthy();
    expect(screen.getByText("A confirmation was sent to vera@example.com.")).toBeTruthy();
    expect(screen.getByText("Redirecting to your membership dashboard...")).toBeTruthy();
  });
});
