import { createContext, useCallback, useContext, useMemo, useRef } from "react";

/**
 * Editor.js reports changes after a short delay; a Save pressed right after typing must first collect every
 * editor's latest content. Editors register a flush here; savers await flushAll() before reading the draft.
 */
export interface RichTextFlushRegistry {
  register: (flush: () => Promise<void>) => () => void;
}

export const RichTextFlushContext = createContext<RichTextFlushRegistry | null>(null);

export function useRichTextFlushRegistry(): { registry: RichTextFlushRegistry; flushAll: () => Promise<void> } {
  const flushes = useRef(new Set<() => Promise<void>>());
  const registry = useMemo<RichTextFlushRegistry>(
    () => ({
      register: (flush) => {
        flushes.current.add(flush);
        return () => flushes.current.delete(flush);
      },
    }),
    [],
  );
  const flushAll = useCallback(async () => {
    await Promise.all(Array.from(flushes.current, (flush) => flush().catch(() => {})));
  }, []);
  return { registry, flushAll };
}

export function useRichTextFlushContext(): RichTextFlushRegistry | null {
  return useContext(RichTextFlushContext);
}
