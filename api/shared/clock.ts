/**
 * The one source of "now" for every business rule (billing days, windows, cutoffs, session expiry), so
 * tests can run any rule on any date.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock an operator may move (demos and tests only: never the system clock, so never production). */
export interface MovableClock extends Clock {
  moveTo(at: Date): void;
}

export function isMovable(clock: Clock): clock is MovableClock {
  return typeof (clock as Partial<MovableClock>).moveTo === "function";
}

/** A clock that stands still until told otherwise (tests, CLI runs "as of" a date). */
export class FixedClock implements MovableClock {
  #t: number;
  constructor(at: Date | string) {
    this.#t = new Date(at).getTime();
  }
  now(): Date {
    return new Date(this.#t);
  }
  set(at: Date | string): void {
    this.#t = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.#t += ms;
  }
  moveTo(at: Date): void {
    this.#t = at.getTime();
  }
}

/**
 * A clock that starts at a chosen instant and then runs in real time: demos and browser tests can live on a
 * given day (inside a skip window, past a cutoff) while sessions and timers still move.
 */
export class ShiftedClock implements MovableClock {
  #offsetMs: number;
  constructor(start: Date | string, bootedAt: Date = new Date()) {
    this.#offsetMs = new Date(start).getTime() - bootedAt.getTime();
  }
  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }
  /** From now on the clock reads `at` and runs on from there (the demo clock, api/jobs/demo-clock.ts). */
  moveTo(at: Date): void {
    this.#offsetMs = at.getTime() - Date.now();
  }
}
