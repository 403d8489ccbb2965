import { useState } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { system } from "../theme.ts";
import { MonthStepper } from "./MonthStepper.tsx";

/** The stepper holding its month, as a panel does; every change is recorded. */
function Stepper({ start, max, changed }: { start: string; max?: string; changed: (month: string) => void }) {
  const [month, setMonth] = useState(start);
  return (
    <MonthStepper
      month={month}
      label="Statement month"
      max={max}
      onChange={(next) => {
        changed(next);
        setMonth(next);
      }}
    >
      <button type="button">Download CSV</button>
    </MonthStepper>
  );
}

const show = (props: { start: string; max?: string }) => {
  const changed = vi.fn();
  render(
    <ChakraProvider value={system}>
      <Stepper {...props} changed={changed} />
    </ChakraProvider>,
  );
  return changed;
};
const field = () => screen.getByLabelText<HTMLInputElement>("Statement month");
const button = (name: string) => screen.getByRole<HTMLButtonElement>("button", { name });

afterEach(cleanup);

describe("MonthStepper", () => {
  it("steps back and forth across years, its field named by the panel, its actions after it", () => {
    const changed = show({ start: "2026-12" });
    expect(screen.getAllByRole("button").map((b) => b.getAttribute("aria-label") ?? b.textContent)).toEqual(["Previous month", "Next month", "Download CSV"]);
    fireEvent.click(button("Next month"));
    expect(field().value).toBe("2027-01");
    fireEvent.click(button("Previous month"));
    fireEvent.click(button("Previous month"));
    expect(field().value).toBe("2026-11");
    expect(changed.mock.calls.map(([m]) => m)).toEqual(["2027-01", "2026-12", "2026-11"]);
  });

  it("takes a month typed in full, and ignores a half-typed one", () => {
    const changed = show({ start: "2026-04" });
    fireEvent.change(field(), { target: { value: "2025-09" } });
    fireEvent.change(field(), { target: { value: "" } });
    expect(changed.mock.calls).toEqual([["2025-09"]]);
    expect(field().value).toBe("2025-09");
  });

  it("stops at `max`: next month is off there, and the field's picker ends at it", () => {
    show({ start: "2026-03", max: "2026-04" });
    expect(field().max).toBe("2026-04");
    expect(button("Next month").disabled).toBe(false);
    fireEvent.click(button("Next month"));
    expect(button("Next month").disabled).toBe(true);
  });
});
