import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { SelectionAddress } from "../../lib/selection.ts";
import { system } from "../../ui/theme.ts";
import { DeliveryAddressDialog, type AddressSaveOutcome } from "./DeliveryAddressDialog.tsx";

const CURRENT: SelectionAddress = { fullName: "Maya Patel", phone: "330-555-0142", street: "215 Maple Ave", apt: "", city: "Akron", state: "OH", zip: "44303", country: "US", instructions: "Ring twice" };

/** A save the test answers when it wants, recording what was sent. */
function pendingSave() {
  const calls: { address: SelectionAddress; area: string | null }[] = [];
  let settle: (o: AddressSaveOutcome) => void = () => {};
  const onSave = (address: SelectionAddress, area: string | null) => {
    calls.push({ address, area });
    return new Promise<AddressSaveOutcome>((resolve) => (settle = resolve));
  };
  return { calls, onSave, answer: (o: AddressSaveOutcome) => act(async () => settle(o)) };
}

function renderDialog(props: { mode?: "shipping" | "delivery"; area?: string; areas?: string[]; address?: SelectionAddress | null; onSave: (a: SelectionAddress, area: string | null) => Promise<AddressSaveOutcome> }) {
  const saved: string[] = [];
  let closed = 0;
  render(
    <ChakraProvider value={system}>
      <DeliveryAddressDialog
        open
        businessName="Green Acres Farm"
        mode={props.mode ?? "delivery"}
        address={props.address === undefined ? CURRENT : props.address}
        area={props.area ?? "Akron"}
        areas={props.areas ?? ["Akron", "Hudson and Stow"]}
        onClose={() => closed++}
        onSave={props.onSave}
        onSaved={(from) => saved.push(from)}
      />
    </ChakraProvider>,
  );
  return { saved, closed: () => closed };
}

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(new RegExp(`^${label}`));
const saveButton = () => screen.getByRole<HTMLButtonElement>("button", { name: /Save address|Saving…/ });

afterEach(cleanup);

describe("DeliveryAddressDialog", () => {
  it("opens with the current address and area, and saves what was typed with the chosen area", async () => {
    const save = pendingSave();
    const { saved } = renderDialog({ onSave: save.onSave });
    expect(screen.getByRole("dialog", { name: "Change delivery address" })).toBeTruthy();
    expect(input("Name on the address").value).toBe("Maya Patel");
    expect(input("Street address").value).toBe("215 Maple Ave");
    expect(input("City").value).toBe("Akron");
    expect(screen.getByLabelText<HTMLSelectElement>(/^State/).value).toBe("OH");
    expect(input("Zip code").value).toBe("44303");
    expect(screen.getByLabelText<HTMLTextAreaElement>("Delivery instructions (optional)").value).toBe("Ring twice");
    const group = screen.getByRole("radiogroup", { name: "Choose a delivery area" });
    expect(screen.getByRole<HTMLInputElement>("radio", { name: "Akron" }).checked).toBe(true);
    expect(group).toBeTruthy();

    fireEvent.change(input("Street address"), { target: { value: "9 Birch Rd" } });
    fireEvent.click(screen.getByRole("radio", { name: "Hudson and Stow" }));
    fireEvent.click(saveButton());
    expect(save.calls).toEqual([{ address: { ...CURRENT, street: "9 Birch Rd" }, area: "Hudson and Stow" }]);
    // While the server answers: the button says so and a second click sends nothing.
    expect(saveButton().textContent).toContain("Saving…");
    fireEvent.click(saveButton());
    expect(save.calls).toHaveLength(1);
    await save.answer({ ok: true, appliesFrom: "2026-04" });
    expect(saved).toEqual(["2026-04"]);
  });

  it("shows the server's refusal, marks the fields it names and keeps everything typed", async () => {
    const save = pendingSave();
    const { saved } = renderDialog({ onSave: save.onSave });
    fireEvent.change(input("Street address"), { target: { value: "" } });
    fireEvent.change(input("Apt, suite, unit"), { target: { value: "Unit 4" } });
    fireEvent.click(saveButton());
    await save.answer({ ok: false, message: "Please enter the street, city and zip code the box goes to.", issues: [{ path: "address.street", message: "Required" }] });
    expect(screen.getByRole("alert").textContent).toBe("Please enter the street, city and zip code the box goes to.");
    expect(input("Street address").getAttribute("aria-invalid")).toBe("true");
    expect(input("Apt, suite, unit").value).toBe("Unit 4");
    expect(screen.getByRole<HTMLInputElement>("radio", { name: "Akron" }).checked).toBe(true);
    expect(saved).toEqual([]);
    expect(saveButton().textContent).toContain("Save address");
  });

  it("asks for an area when the current one is no longer offered, without calling the server", () => {
    const save = pendingSave();
    renderDialog({ area: "Kent", onSave: save.onSave });
    expect(screen.getByText("Kent is no longer delivered to: choose another area.")).toBeTruthy();
    expect(screen.getAllByRole<HTMLInputElement>("radio").some((r) => r.checked)).toBe(false);
    fireEvent.click(saveButton());
    expect(save.calls).toEqual([]);
    expect(screen.getByRole("alert").textContent).toBe("Choose a delivery area to continue.");
  });

  it("for shipping: no area and no instructions; starts empty when no address is on file", () => {
    const save = pendingSave();
    renderDialog({ mode: "shipping", address: null, areas: [], onSave: save.onSave });
    expect(screen.queryByRole("radiogroup")).toBeNull();
    expect(screen.queryByLabelText("Delivery instructions (optional)")).toBeNull();
    expect(input("Street address").value).toBe("");
    expect(input("Country").value).toBe("United States");
    fireEvent.click(saveButton());
    expect(save.calls[0].area).toBeNull();
  });

  it("Cancel closes without saving", () => {
    const save = pendingSave();
    const { closed } = renderDialog({ onSave: save.onSave });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(closed()).toBe(1);
    expect(save.calls).toEqual([]);
  });
});
