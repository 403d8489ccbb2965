import { useEffect, useState } from "react";

/** Spec §9 search debounce (250 ms): the admin searches. */
const SEARCH_DEBOUNCE_MS = 250;

/** The value once it has stayed the same for delayMs (the first render's value at once). */
export function useDebouncedValue<T>(value: T, delayMs = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
