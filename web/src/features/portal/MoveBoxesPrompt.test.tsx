import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../ui/theme.ts";
import { MoveBoxesPrompt, type MoveChoice } from "./MoveBoxesPrompt.tsx";

const CHOICES: MoveChoice[] = [
  { id: "m1", label: "Ember & Oak Coffee · Whole Bean Box · Shipping", current: "Maya Patel, 215 Maple Ave, Akron, OH 44303" },
  { id: "m2", label: "Green Acres Farm · Harvest Box · Delivery", current: "Maya Patel, 215 Maple Ave, Akron, OH 44303" },
];
const NEW = { fullName: "Maya Patel", phone: "", street: "9 Birch Rd", apt: "", city: "Kent", state: "OH", zip: "44240", country: "US" };

function renderPrompt(opts: { busy?: boolean; error?: string | null } = {}) {
  const confirmed: string[][] = [];
  let canceled = 0;
  render(
    <ChakraProvider value={system}>
      <MoveBoxesPrompt open choices={CHOICES} address={NEW} busy={opts.busy ?? false} error={opts.error ?? null} onCancel={() => canceled++} onConfirm={(t) => confirmed.push(t.map((c) => c.id))} />
    </ChakraProvider>,
  );
  return { confirmed, canceled: () => canceled };
}

afterEach(cleanup);

describe("MoveBoxesPrompt ('Also send my boxes here?')", () => {
  it("lists each membership with where its boxes go now, none ticked, and the new address", () => {
    renderPrompt();
    expect(screen.getByRole("dialog", { name: "Also send my boxes here?" })).toBeTruthy();
    const boxes = screen.getAllByRole<HTMLInputElement>("checkbox");
    expect(boxes).toHaveLength(2);
    expect(boxes.every((b) => !b.checked)).toBe(true);
    expect(screen.getByRole("checkbox", { name: /^Ember & Oak Coffee · Whole Bean Box · Shipping.*Now: Maya Patel, 215 Maple Ave/ })).toBeTruthy();
    expect(screen.getByText("9 Birch Rd")).toBeTruthy();
    expect(screen.getByText("Kent, OH 44240")).toBeTruthy();
  });

  it("saves with none ticked (moves none), or with the ticked ones only", () => {
    const { confirmed } = renderPrompt();
    fireEvent.click(screen.getByRole("button", { name: "Save profile" }));
    fireEvent.click(screen.getByRole("checkbox", { name: /^Green Acres Farm/ }));
    fireEvent.click(screen.getByRole("button", { name: "Save profile" }));
    fireEvent.click(screen.getByRole("checkbox", { name: /^Green Acres Farm/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: /^Ember & Oak/ }));
    fireEvent.click(screen.getByRole("button", { name: "Save profile" }));
    expect(confirmed).toEqual([[], ["m2"], ["m1"]]);
  });

  it("shows the save's refusal and lets the member go back", () => {
    const { canceled } = renderPrompt({ error: "This delivery area is not offered. Please choose another." });
    expect(screen.getByRole("alert").textContent).toBe("This delivery area is not offered. Please choose another.");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(canceled()).toBe(1);
  });
});
