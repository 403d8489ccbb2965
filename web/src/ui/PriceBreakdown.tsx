import { Table } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import type { PriceBreakdownFragment_breakdown$key } from "./__generated__/PriceBreakdownFragment_breakdown.graphql.ts";

/**
 * The server's price line by line: the checkout quote, a change or restart quote and a paid order all
 * answer the same `PriceBreakdown`, whose lines sum to its total. Shown to the cent as the server sent it; nothing
 * here adds amounts up.
 */
const PriceBreakdownFragment = graphql`
  fragment PriceBreakdownFragment_breakdown on PriceBreakdown {
    lines {
      kind
      label
      amountCents
    }
    subtotalCents
    totalCents
  }
`;

/** Cents with a true minus sign for a negative amount (the coupon's discount): "−$4.15". */
function signedCents(cents: number): string {
  return cents < 0 ? `\u2212${formatCents(-cents)}` : formatCents(cents);
}

function Row({ label, amount, strong, rule }: { label: string; amount: string; strong?: boolean; rule?: boolean }) {
  const border = { borderBottomWidth: "0", borderTopWidth: rule ? "1px" : "0", borderColor: "border" };
  return (
    <Table.Row bg="transparent" fontWeight={strong ? "bold" : undefined} fontSize={strong ? "md" : undefined}>
      <Table.Cell as="th" scope="row" ps="0" py="1.5" fontWeight="inherit" textAlign="start" {...border}>
        {label}
      </Table.Cell>
      <Table.Cell ps="3" pe="0" py="1.5" textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" {...border}>
        {amount}
      </Table.Cell>
    </Table.Row>
  );
}

/**
 * A price as a two-column table (what, amount): the plan, the fulfillment surcharge and the add-ons, a Subtotal
 * row, then the coupon (negative) and the tax, and the Total row in bold. `totalLabel` names the total ("Total
 * charged", "New monthly price"…).
 */
export function PriceBreakdown({ breakdown: key, totalLabel = "Total" }: { breakdown: PriceBreakdownFragment_breakdown$key; totalLabel?: string }) {
  const b = useFragment(PriceBreakdownFragment, key);
  const beforeSubtotal = b.lines.filter((l) => l.kind === "PLAN" || l.kind === "SURCHARGE" || l.kind === "ADDON");
  const afterSubtotal = b.lines.filter((l) => !beforeSubtotal.includes(l));
  return (
    <Table.Root size="sm" aria-label="Price breakdown" data-testid="price-breakdown" w="full" css={{ tableLayout: "auto" }}>
      <Table.Header srOnly>
        <Table.Row>
          <Table.ColumnHeader scope="col">Item</Table.ColumnHeader>
          <Table.ColumnHeader scope="col">Amount</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {beforeSubtotal.map((l, i) => (
          <Row key={`${l.kind}-${i}`} label={l.label} amount={signedCents(l.amountCents)} />
        ))}
        <Row label="Subtotal" amount={signedCents(b.subtotalCents)} rule />
        {afterSubtotal.map((l, i) => (
          <Row key={`${l.kind}-${i}`} label={l.label} amount={signedCents(l.amountCents)} />
        ))}
        <Row label={totalLabel} amount={signedCents(b.totalCents)} strong rule />
      </Table.Body>
    </Table.Root>
  );
}
