import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { Box, Field, Link, NativeSelect, Stack } from "@chakra-ui/react";

/** One panel of the editor as its index lists it: the id of its wrapper and its title. */
export interface IndexedPanel {
  id: string;
  title: string;
}

/**
 * The panel the index marks: the first, in page order, of those crossing the band near the top of the window
 * (IntersectionObserver's view of them), else the one marked before (between two panels nothing crosses it).
 */
export function panelInView(order: readonly string[], crossing: ReadonlySet<string>, previous: string): string {
  return order.find((id) => crossing.has(id)) ?? previous;
}

/** Where a panel scrolled to lands below the window's top: clear of the mobile admin bar and the Jump to select. */
const LANDING_PX = { narrow: 120, wide: 16 };
/** The band the panel in view crosses starts just below where a panel lands. */
const BAND_BELOW_LANDING_PX = 8;
/** What the user does to scroll the page. */
const USER_SCROLL_EVENTS = ["wheel", "touchstart", "keydown", "mousedown"] as const;
const WIDE_QUERY = "(min-width: 48em)";

function useWide(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = window.matchMedia(WIDE_QUERY);
      query.addEventListener("change", onChange);
      return () => query.removeEventListener("change", onChange);
    },
    () => window.matchMedia(WIDE_QUERY).matches,
  );
}

/** The editor's panels (wrapped by `IndexedSection`) with the one in view, and a way to scroll one into view. */
function usePanelIndex(panels: readonly IndexedPanel[]) {
  const [current, setCurrent] = useState(panels[0]?.id ?? "");
  const wide = useWide();
  const ids = panels.map((p) => p.id).join(" ");
  const crossing = useRef(new Set<string>());
  // A jumped-to panel stays marked until the user scrolls again: the jump's scroll passes other panels, and the
  // last panels of the page can end below the band.
  const pinned = useRef(false);
  const stopJump = useRef<() => void>(() => {});
  useEffect(() => {
    const order = ids.split(" ");
    crossing.current = new Set();
    const top = (wide ? LANDING_PX.wide : LANDING_PX.narrow) + BAND_BELOW_LANDING_PX;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          if (e.isIntersecting) crossing.current.add(e.target.id);
          else crossing.current.delete(e.target.id);
        }
        if (!pinned.current) setCurrent((previous) => panelInView(order, crossing.current, previous));
      },
      // The band: from just below where a jumped-to panel lands to 40 % of the window's height.
      { rootMargin: `-${top}px 0px -60% 0px` },
    );
    for (const id of order) {
      const element = document.getElementById(id);
      if (element) observer.observe(element);
    }
    return () => observer.disconnect();
  }, [ids, wide]);
  useEffect(() => () => stopJump.current(), []);

  const go = (id: string) => {
    const element = document.getElementById(id);
    if (!element) return;
    stopJump.current();
    setCurrent(id);
    pinned.current = true;
    const order = ids.split(" ");
    // The user's own scrolling (wheel, touch, keys, the scroll bar) hands the mark back to the band; the jump's
    // smooth scroll fires none of these.
    const release = () => {
      stopJump.current();
      pinned.current = false;
      setCurrent((previous) => panelInView(order, crossing.current, previous));
    };
    for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, release, { capture: true, passive: true });
    stopJump.current = () => {
      for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, release, { capture: true });
    };
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
    // Keyboard and screen-reader users carry on from the panel they jumped to.
    element.focus({ preventScroll: true });
  };
  return { current, go };
}

/**
 * The editor's panels beside its form: a sticky index of links from md (the panel in view marked with
 * aria-current), a 'Jump to' select below it. Each panel is rendered inside an `IndexedSection` of the same id.
 */
export function PanelIndexLayout({ panels, children }: { panels: readonly IndexedPanel[]; children: ReactNode }) {
  const { current, go } = usePanelIndex(panels);
  return (
    <Box display={{ md: "grid" }} gridTemplateColumns={{ md: "10rem minmax(0, 1fr)", lg: "12rem minmax(0, 1fr)" }} gap="6" alignItems="start">
      <Box as="nav" aria-label="Editor panels" hideBelow="md" position="sticky" top="4" data-testid="panel-index">
        <Stack as="ul" gap="0.5" listStyleType="none" borderStartWidth="2px" borderColor="orange.100">
          {panels.map((p) => {
            const marked = p.id === current;
            return (
            <li key={p.id}>
              <Link
                href={`#${p.id}`}
                aria-current={marked ? "true" : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  go(p.id);
                }}
                display="block"
                ms="-2px"
                ps="3"
                py="1.5"
                fontSize="sm"
                color={marked ? "orange.800" : "fg.muted"}
                fontWeight={marked ? "semibold" : undefined}
                borderStartWidth="2px"
                borderColor={marked ? "orange.500" : "transparent"}
                textDecoration="none"
                _hover={{ color: "fg", textDecoration: "none" }}
              >
                {p.title}
              </Link>
            </li>
            );
          })}
        </Stack>
      </Box>
      {/* Below the mobile admin bar (57 px: a 40 px button, 8 px above and below it, its border). */}
      <Box hideFrom="md" position="sticky" top="57px" zIndex="docked" bg="bg" borderWidth="1px" borderColor="orange.100" rounded="xl" px="3" py="2" mb="4">
        <Field.Root orientation="horizontal" gap="3">
          <Field.Label flexShrink={0}>Jump to</Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field value={current} onChange={(e) => go(e.currentTarget.value)} bg="bg">
              {panels.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </Box>
      <Stack gap="4" minW="0">
        {children}
      </Stack>
    </Box>
  );
}

/** A panel's place in the index: scrolled to clear the mobile bar and the Jump to select, focusable to land on. */
export function IndexedSection({ id, children }: { id: string; children: ReactNode }) {
  return (
    <Box id={id} tabIndex={-1} scrollMarginTop={{ base: `${LANDING_PX.narrow}px`, md: `${LANDING_PX.wide}px` }} outline="none">
      {children}
    </Box>
  );
}
