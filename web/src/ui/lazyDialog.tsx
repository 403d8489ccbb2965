import { lazy, Suspense, useEffect, useState, type ComponentType } from "react";

/**
 * A dialog whose code (Chakra's Dialog: focus trap, dismissal, scroll lock; ~12 kB gzip) is not part of the
 * page's initial JavaScript. The page renders without it; its chunk is fetched as soon as the host component has
 * mounted and the browser is idle, so opening it does not wait in practice. It renders nothing until `open` is
 * first true, then stays mounted as before, so its close animation and its state behave exactly as an eagerly
 * imported dialog's.
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const fetchChunk = () =>
    (loading ??= load()
      .then((component) => ({ default: component }))
      .catch((error: unknown) => {
        loading = undefined; // a failed prefetch does not stick: opening the dialog loads it again
        throw error;
      }));
  const Dialog = lazy(fetchChunk);

  function LazyDialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    useEffect(() => {
      const prefetch = () => void fetchChunk().catch(() => {});
      if ("requestIdleCallback" in window) {
        const id = requestIdleCallback(prefetch);
        return () => cancelIdleCallback(id);
      }
      const id = setTimeout(prefetch, 200);
      return () => clearTimeout(id);
    }, []);
    return opened ? (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    ) : null;
  }
  return LazyDialog;
}
