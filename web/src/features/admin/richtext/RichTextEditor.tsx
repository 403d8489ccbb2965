import { useEffect, useEffectEvent, useRef } from "react";
import { Box } from "@chakra-ui/react";
import EditorJS, { type OutputData, type ToolConstructable, type ToolSettings } from "@editorjs/editorjs";
import Header from "@editorjs/header";
import List from "@editorjs/list";
import { blocksToHtml, initialBlocks, LIST_MAX_DEPTH, type Block, type RichTextDoc, type RichTextValue } from "./blocksHtml.ts";
import { InlineImageTool } from "./InlineImageTool.ts";
import { useRichTextFlushContext } from "./flush.ts";
import { UndoHistory } from "./undoHistory.ts";

/** Toolbar presets as sets of tools (spec §9): every preset keeps inline bold, italic and link. */
export type RichTextPreset = "minimal" | "essential" | "full";

function toolsFor(preset: RichTextPreset): Record<string, ToolConstructable | ToolSettings> {
  if (preset === "minimal") return {};
  const essential = {
    header: { class: Header as unknown as ToolConstructable, inlineToolbar: true, config: { levels: [2, 3, 4], defaultLevel: 2 } },
    list: { class: List as unknown as ToolConstructable, inlineToolbar: true, config: { maxLevel: LIST_MAX_DEPTH } },
  };
  if (preset === "essential") return essential;
  return { ...essential, image: { class: InlineImageTool as unknown as ToolConstructable } };
}

/** What the editor reports: its document (what is saved) and that document as HTML (for previews). */
function valueOf(blocks: Block[], output?: Pick<OutputData, "time" | "version">): { doc: RichTextDoc; html: string } {
  return { doc: { time: output?.time ?? Date.now(), version: output?.version ?? EditorJS.version, blocks }, html: blocksToHtml(blocks) };
}

/**
 * Editor.js over a stored document: opens the document, or imports the HTML when there is none (content
 * saved as HTML by REST or before documents were kept), and reports every change as the document with its
 * HTML. The server renders the HTML it stores from the document. Uncontrolled: remount with a new key to load
 * different content.
 */
export function RichTextEditor({ initial: initialValue, onChange, preset = "essential", label, minHeight = 120 }: { initial: RichTextValue; onChange: (value: { doc: RichTextDoc; html: string }) => void; preset?: RichTextPreset; label: string; minHeight?: number }) {
  const holder = useRef<HTMLDivElement>(null);
  const reportChange = useEffectEvent(onChange);
  const initial = useRef(initialValue);
  const registry = useRichTextFlushContext();

  useEffect(() => {
    if (!holder.current) return;
    // Own child element per effect run: the first instance's async destroy() empties its holder (under StrictMode,
    // or on a remount), which would wipe the second instance.
    const el = document.createElement("div");
    holder.current.appendChild(el);
    let destroyed = false;
    const editor: EditorJS = new EditorJS({
      holder: el,
      tools: toolsFor(preset),
      data: { blocks: initialBlocks(initial.current) },
      minHeight,
      placeholder: "Start writing…",
      onChange: (api) => {
        // A replaced editor (reset, remount) must not report its content late; neither does an undo's re-render.
        if (destroyed || restoring) return;
        void api.saver.save().then((saved) => {
          if (destroyed) return;
          history.record(saved.blocks as Block[], Date.now());
          reportChange(valueOf(saved.blocks as Block[], saved));
        });
      },
    });
    // Undo/redo across blocks (the browser's own undo stops at a block's edge).
    const history = new UndoHistory<Block[]>(initialBlocks(initial.current));
    let restoring = false;
    const restore = async (blocks: Block[] | null) => {
      if (!blocks) return;
      restoring = true;
      try {
        await editor.render({ blocks: blocks.length ? blocks : [{ type: "paragraph", data: { text: "" } }] });
        reportChange(valueOf(blocks));
        // Rendering drops the caret: keep the keyboard in the editor for the next undo or redo.
        editor.focus(true);
      } finally {
        setTimeout(() => (restoring = false), 50);
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === "z" && !event.shiftKey) {
        event.preventDefault();
        event.stopPropagation();
        void restore(history.undo());
      } else if ((key === "z" && event.shiftKey) || key === "y") {
        event.preventDefault();
        event.stopPropagation();
        void restore(history.redo());
      }
    };
    el.addEventListener("keydown", onKeyDown, true);
    const unregister = registry?.register(async () => {
      await editor.isReady;
      if (destroyed) return;
      const saved = await editor.save();
      reportChange(valueOf(saved.blocks as Block[], saved));
    });
    return () => {
      destroyed = true;
      el.removeEventListener("keydown", onKeyDown, true);
      unregister?.();
      // Out of the page at once: the instance that replaces it (a remount, Reset) renders beside it otherwise,
      // and both editors show until this one has finished starting and is destroyed.
      el.remove();
      editor.isReady.then(() => editor.destroy()).catch(() => {});
    };
  }, [preset, minHeight, registry]);

  return (
    <Box
      ref={holder}
      role="group"
      aria-label={label}
      data-testid="rich-text"
      borderWidth="1px"
      borderColor="border"
      rounded="md"
      bg="bg"
      px={{ base: "3", md: "12" }}
      py="2"
      css={{ "& .codex-editor__redactor": { paddingBottom: "24px !important" }, "& h2": { fontSize: "xl", fontWeight: "bold" }, "& h3": { fontSize: "lg", fontWeight: "bold" }, "& ul": { listStyle: "disc" } }}
    />
  );
}
