import { describe, expect, it } from "vitest";
import { UndoHistory } from "./undoHistory.ts";

describe("UndoHistory (spec §9)", () => {
  it("merges changes within 1000 ms into one step", () => {
    const h = new UndoHistory("a");
    h.record("ab", 0);
    h.record("abc", 500);
    h.record("abcd", 2000);
    expect(h.undo()).toBe("abc");
    expect(h.undo()).toBe("a");
    expect(h.undo()).toBeNull();
    expect(h.redo()).toBe("abc");
    expect(h.redo()).toBe("abcd");
    expect(h.redo()).toBeNull();
  });
  it("keeps at most 100 steps and drops redo after a new change", () => {
    const h = new UndoHistory(0);
    for (let i = 1; i <= 150; i++) h.record(i, i * 2000);
    let steps = 0;
    while (h.undo() !== null) steps++;
    expect(steps).toBe(100);
    h.redo();
    h.record(999, 1e9);
    expect(h.redo()).toBeNull();
  });
});
