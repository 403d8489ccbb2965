/** Spec §9 rich-text undo: changes within 1000 ms merge into one step; at most 100 steps are kept. */
const UNDO_MERGE_MS = 1000;
const UNDO_MAX_STEPS = 100;

export class UndoHistory<T> {
  private past: T[] = [];
  private future: T[] = [];
  private lastRecordedAt = -Infinity;

  constructor(private present: T) {}

  /** Records a new state; one within the merge window replaces the current step instead of adding one. */
  record(state: T, now: number): void {
    if (now - this.lastRecordedAt >= UNDO_MERGE_MS) {
      this.past.push(this.present);
      if (this.past.length > UNDO_MAX_STEPS) this.past.shift();
    }
    this.present = state;
    this.future = [];
    this.lastRecordedAt = now;
  }

  undo(): T | null {
    const previous = this.past.pop();
    if (previous === undefined) return null;
    this.future.push(this.present);
    this.present = previous;
    this.lastRecordedAt = -Infinity;
    return previous;
  }

  redo(): T | null {
    const next = this.future.pop();
    if (next === undefined) return null;
    this.past.push(this.present);
    this.present = next;
    this.lastRecordedAt = -Infinity;
    return next;
  }
}
