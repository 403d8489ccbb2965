import { useState } from "react";
import { ChakraProvider } from "@chakra-ui/react";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { system } from "../../../../ui/theme.ts";
import { pageDraftFrom, type CancellationDraft, type PageDraft } from "../draft.ts";
import type { SaveIssue } from "../saveFailure.ts";
import { SubscriptionPanel } from "./SettingsPanels.tsx";

/** The panel over a draft it edits, reporting each draft it makes. */
function renderPanel(cancellation: CancellationDraft | null, issues: readonly SaveIssue[] = []) {
  const drafts: PageDraft[] = [];
  function Harness() {
    const [draft, setDraft] = useState<PageDraft>({ ...pageDraftFrom(null), cancellation });
    return (
      <SubscriptionPanel
        draft={draft}
        issues={issues}
        update={(change) =>
          setDraft((d) => {
            const next = change(d);
            drafts.push(next);
            return next;
          })
        }
      />
    );
  }
  render(
    <ChakraProvider value={system}>
      <Harness />
    </ChakraProvider>,
  );
  return drafts;
}

afterEach(cleanup);

describe("Subscription Settings: how members cancel", () => {
  it("by phone (the default) shows no offers; from the membership page, the offers and the discount with its offer", async () => {
    const drafts = renderPanel({ policy: "PHONE", offers: ["SKIP", "PAUSE", "SWITCH_PLAN"], discountPercent: 10 });
    const policy = screen.getByLabelText<HTMLSelectElement>("How members cancel");
    expect([...policy.options].map((o) => [o.value, o.textContent])).toEqual([
      ["PHONE", "By phone (support phone)"],
      ["SELF_SERVICE", "From their membership page"],
    ]);
    expect(policy.value).toBe("PHONE");
    expect(screen.queryByRole("group", { name: "Offers before cancelling" })).toBeNull();

    fireEvent.change(policy, { target: { value: "SELF_SERVICE" } });
    const offers = screen.getByRole("group", { name: "Offers before cancelling" });
    const boxes = within(offers).getAllByRole<HTMLInputElement>("checkbox");
    expect(boxes.map((b) => [b.closest("label")?.textContent, b.checked])).toEqual([
      ["Skip a month", true],
      ["Pause", true],
      ["Switch plan", true],
      ["Discount", false],
    ]);
    expect(screen.queryByLabelText("Discount (%)")).toBeNull();
    // Ark's checkbox takes the hidden input's click after a tick.
    await act(async () => fireEvent.click(within(offers).getByRole("checkbox", { name: "Discount" })));
    const percent = screen.getByLabelText<HTMLInputElement>("Discount (%)");
    expect(percent.value).toBe("10");
    expect([percent.min, percent.max]).toEqual(["5", "50"]);
    fireEvent.change(percent, { target: { value: "20" } });
    await act(async () => fireEvent.click(within(offers).getByRole("checkbox", { name: "Skip a month" })));
    expect(drafts.at(-1)?.cancellation).toEqual({ policy: "SELF_SERVICE", offers: ["PAUSE", "SWITCH_PLAN", "DISCOUNT"], discountPercent: 20 });
  });

  it("shows the server's refusal of the discount under its field, and nothing for the home page", () => {
    renderPanel({ policy: "SELF_SERVICE", offers: ["DISCOUNT"], discountPercent: 80 }, [{ path: "content.retentionDiscountPercent", message: "Retention discount must be a whole percent from 5 to 50" }]);
    expect(screen.getByText("Retention discount must be a whole percent from 5 to 50")).toBeTruthy();
    expect(screen.getByLabelText("Discount (%)").getAttribute("aria-invalid")).toBe("true");
    cleanup();
    renderPanel(null);
    expect(screen.queryByLabelText("How members cancel")).toBeNull();
  });
});
