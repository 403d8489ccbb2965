import { useEffect, useLayoutEffect } from "react";
import { useLocation, useNavigationType, type Location, type NavigationType } from "react-router";

/**
 * Where a navigation leaves the window, what React Router's data router does with `<ScrollRestoration />`
 * (this app uses its declarative mode, router.tsx): Back and Forward (POP) return to the position the entry was
 * left at; another page (a new path, or a Back to an entry without a saved position) starts at the top, or at its
 * #anchor; a change of the query string alone (filters, a portal tab's parameters) keeps the position. Nothing for
 * a first load without a saved position or anchor: the window is at the top already.
 */
export type ScrollTarget =
  | { kind: "position"; y: number }
  /** `fromTop`: another page, which starts at the top until its anchor has rendered. */
  | { kind: "anchor"; id: string; fromTop: boolean }
  | { kind: "top" }
  | null;

export function scrollTarget(
  type: `${NavigationType}`,
  previous: Pick<Location, "pathname"> | null,
  next: Pick<Location, "pathname" | "hash">,
  saved: number | undefined,
): ScrollTarget {
  if (type === "POP" && saved !== undefined) return { kind: "position", y: saved };
  const otherPage = previous !== null && previous.pathname !== next.pathname;
  if (next.hash.length > 1) return { kind: "anchor", id: decodeURIComponent(next.hash.slice(1)), fromTop: otherPage };
  return otherPage ? { kind: "top" } : null;
}

const STORAGE_KEY = "scroll_positions";
/** Entries kept across a reload: the most recent ones (a long session's history need not grow the storage). */
const KEPT = 50;
/**
 * How long a Back waits for the page to grow tall enough for its old position (its data arriving, lazy sections
 * mounting) before giving up.
 */
const SETTLE_MS = 5000;

/** The positions by history entry (location.key): kept in sessionStorage over a reload, as the browser would. */
function readSaved(): Map<string, number> {
  try {
    const entries = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "[]") as [string, number][];
    return new Map(entries.filter(([k, y]) => typeof k === "string" && typeof y === "number"));
  } catch {
    return new Map();
  }
}

function writeSaved(positions: Map<string, number>) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-KEPT)));
  } catch {
    // Storage disabled or full: positions then last for this document only.
  }
}

function apply(target: NonNullable<ScrollTarget>): boolean {
  if (target.kind === "top") {
    window.scrollTo(0, 0);
    return true;
  }
  if (target.kind === "anchor") {
    const element = document.getElementById(target.id);
    element?.scrollIntoView();
    return element !== null;
  }
  window.scrollTo(0, target.y);
  return Math.abs(window.scrollY - target.y) <= 1;
}

/**
 * Applies `target` now and, while it cannot be reached yet (the page still shorter than the saved position, the
 * anchor not rendered: a route's content that suspended), again each time the page's size changes, until it is
 * reached, the reader scrolls or types themself, or SETTLE_MS pass. Returns the cancel.
 */
function settle(target: NonNullable<ScrollTarget>): () => void {
  if (target.kind === "anchor" && target.fromTop) window.scrollTo(0, 0);
  if (apply(target)) return () => undefined;
  const observer = new ResizeObserver(() => {
    if (apply(target)) stop();
  });
  const inputs = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
  const timer = window.setTimeout(stop, SETTLE_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const name of inputs) window.removeEventListener(name, stop);
  }
  observer.observe(document.documentElement);
  for (const name of inputs) window.addEventListener(name, stop, { passive: true });
  return stop;
}

const positions = typeof window === "undefined" ? new Map<string, number>() : readSaved();
let currentKey: string | null = null;
let previousLocation: Location | null = null;
/** The navigation's target, decided once: StrictMode runs the effect twice for one navigation. */
let decided: { key: string; target: ScrollTarget } | null = null;

/** Called once by the app's routes (router.tsx `AppRoutes`). */
export function useScrollRestoration(): void {
  const location = useLocation();
  const type = useNavigationType();

  useEffect(() => {
    // The browser's own restoration would jump before the page's content is back; this module does it instead.
    window.history.scrollRestoration = "manual";
    // The current entry's position, updated as the reader scrolls: by the time a navigation commits, the left
    // page's last position is recorded (the new page's layout effect below switches the key before the browser
    // reports a scroll clamped by the new, shorter page).
    const record = () => {
      if (currentKey !== null) positions.set(currentKey, window.scrollY);
    };
    const persist = () => writeSaved(positions);
    window.addEventListener("scroll", record, { passive: true });
    window.addEventListener("pagehide", persist);
    return () => {
      window.removeEventListener("scroll", record);
      window.removeEventListener("pagehide", persist);
    };
  }, []);

  // A layout effect: the new route has committed, and the window is placed before the browser paints it.
  useLayoutEffect(() => {
    if (decided?.key !== location.key) decided = { key: location.key, target: scrollTarget(type, previousLocation, location, positions.get(location.key)) };
    currentKey = location.key;
    previousLocation = location;
    if (decided.target) return settle(decided.target);
  }, [location, type]);
}
