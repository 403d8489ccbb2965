import { useCallback, useEffect, useRef, useState } from "react";

/** A message that clears itself after the given time (status lines of spec §9). */
export function useFlash<T>(): [T | null, (value: T, ms: number) => void] {
  const [value, setValue] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const flash = useCallback((next: T, ms: number) => {
    clearTimeout(timer.current);
    setValue(next);
    timer.current = setTimeout(() => setValue(null), ms);
  }, []);
  return [value, flash];
}
