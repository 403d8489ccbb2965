import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lazyDialog } from "./lazyDialog.tsx";

function FakeDialog({ open, title }: { open: boolean; title: string }) {
  return (
    <div role="dialog" data-state={open ? "open" : "closed"}>
      {title}
    </div>
  );
}

afterEach(cleanup);

describe("lazyDialog", () => {
  it("renders nothing until first opened, then the loaded dialog, and keeps it mounted after closing", async () => {
    const load = vi.fn(() => Promise.resolve(FakeDialog));
    const Dialog = lazyDialog(load);
    const { rerender } = render(<Dialog open={false} title="Skip March?" />);
    expect(screen.queryByRole("dialog")).toBeNull();

    rerender(<Dialog open title="Skip March?" />);
    expect((await screen.findByRole("dialog")).textContent).toBe("Skip March?");
    expect(screen.getByRole("dialog").dataset.state).toBe("open");

    // Closed again: still in the document (as an eagerly imported Chakra dialog is), so it can animate out.
    rerender(<Dialog open={false} title="Skip March?" />);
    expect(screen.getByRole("dialog").dataset.state).toBe("closed");
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("fetches the dialog's code after the page has rendered, before anyone opens it", async () => {
    vi.useFakeTimers();
    try {
      const load = vi.fn(() => Promise.resolve(FakeDialog));
      const Dialog = lazyDialog(load);
      render(<Dialog open={false} title="3D Secure authentication" />);
      expect(load).not.toHaveBeenCalled();
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(load).toHaveBeenCalledTimes(1);
      expect(screen.queryByRole("dialog")).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("loads again when opened after a failed prefetch", async () => {
    vi.useFakeTimers();
    try {
      const load = vi.fn<() => Promise<typeof FakeDialog>>().mockRejectedValueOnce(new Error("network")).mockResolvedValue(FakeDialog);
      const Dialog = lazyDialog(load);
      const first = render(<Dialog open={false} title="Update your membership?" />);
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(load).toHaveBeenCalledTimes(1);
      first.unmount();
      render(<Dialog open title="Update your membership?" />);
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(load).toHaveBeenCalledTimes(2);
      expect(screen.getByRole("dialog").textContent).toBe("Update your membership?");
    } finally {
      vi.useRealTimers();
    }
  });
});
