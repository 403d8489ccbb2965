/**
 * Editor.js documents as the server accepts them: the blocks the app's editors make (paragraph, header, list in
 * the @editorjs/list v2 shape, the inline image tool), validated with clear messages, their text sanitised, and
 * rendered to the HTML that the public pages, the member portal and REST clients read. The document is the
 * source of truth; the HTML beside it is always rendered and sanitised here.
 */
import { z } from "zod";
import { isAllowedImageSrc, sanitizeInlineRichText, sanitizeRichText } from "../rules/richtext.ts";
import {
  blocksToHtml,
  INLINE_IMAGE_MAX_BYTES,
  LIST_MAX_DEPTH,
  type RichTextDoc,
  type RichTextListItem,
} from "../shared/richtext-blocks.ts";

export type { RichTextDoc } from "../shared/richtext-blocks.ts";

/** One rich-text field's document, embedded images included (the HTML of a field has the same cap). */
const RICH_TEXT_DOC_MAX_CHARS = 1_000_000;
const RICH_TEXT_MAX_BLOCKS = 500;
const BLOCK_TEXT_MAX_CHARS = 100_000;
const LIST_MAX_ITEMS = 1_000;
/** Objects and arrays inside one another; a list at the deepest allowed level needs about 2 per level. */
const JSON_MAX_DEPTH = 4 * LIST_MAX_DEPTH + 8;

const number = (n: number) => n.toLocaleString("en-US");

/** Depth of nested objects and arrays, walked without recursion (the input is not trusted). */
function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/** Bytes of a base64 data URL's payload. */
function dataUrlBytes(url: string): number {
  const payload = url.slice(url.indexOf(",") + 1).replace(/\s/g, "");
  return Math.floor((payload.length * 3) / 4) - (payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0);
}

function listShape(items: readonly RichTextListItem[]): { depth: number; count: number } {
  let depth = 0;
  let count = 0;
  const stack: [readonly RichTextListItem[], number][] = [[items, 1]];
  while (stack.length) {
    const [level, d] = stack.pop()!;
    if (level.length) depth = Math.max(depth, d);
    count += level.length;
    for (const item of level) stack.push([item.items, d + 1]);
  }
  return { depth, count };
}

/**
 * The schema of one rich-text field's document; `label` names the field in messages ("Description", "FAQ
 * answer", "Next Box content"). The output is the document as stored: unknown keys dropped and every block's
 * text sanitised, so the stored document is as safe to show as the stored HTML.
 */
export function richTextDocSchema(label: string) {
  const notADocument = `${label} must be an Editor.js document with a list of blocks`;
  const text = z
    .string({ error: `${label}: a block's text must be a string` })
    .max(BLOCK_TEXT_MAX_CHARS, `${label}: a block's text is too long (at most ${number(BLOCK_TEXT_MAX_CHARS)} characters)`)
    .transform(sanitizeInlineRichText);
  const id = z.string().max(64).optional().catch(undefined);

  const listItem: z.ZodType<RichTextListItem, unknown> = z.lazy(() =>
    z.object(
      {
        content: text,
        meta: z.object({ checked: z.boolean().optional() }).optional().catch(undefined),
        items: z.array(listItem, { error: `${label}: a list item's items must be a list` }).default([]),
      },
      { error: `${label}: list items must be objects with content and items (@editorjs/list 2)` },
    ),
  );

  const paragraph = z.object({ id, type: z.literal("paragraph"), data: z.object({ text }) });
  const header = z.object({
    id,
    type: z.literal("header"),
    data: z.object({
      text,
      level: z.number({ error: `${label}: headings need a level from 1 to 6` }).int(`${label}: headings need a level from 1 to 6`).min(1, `${label}: headings need a level from 1 to 6`).max(6, `${label}: headings need a level from 1 to 6`),
    }),
  });
  const list = z.object({
    id,
    type: z.literal("list"),
    data: z
      .object({
        style: z.enum(["ordered", "unordered", "checklist"], { error: `${label}: lists must be ordered, unordered or checklist` }),
        meta: z
          .object({
            start: z.number().int().min(-1_000_000_000).max(1_000_000_000).optional().catch(undefined),
            counterType: z.enum(["numeric", "upper-roman", "lower-roman", "upper-alpha", "lower-alpha"]).optional().catch(undefined),
          })
          .optional()
          .catch(undefined),
        items: z.array(listItem, { error: `${label}: a list needs a list of items` }),
      })
      .superRefine((data, ctx) => {
        const { depth, count } = listShape(data.items);
        if (depth > LIST_MAX_DEPTH) ctx.addIssue({ code: "custom", path: ["items"], message: `${label}: lists can be nested at most ${LIST_MAX_DEPTH} levels deep` });
        if (count > LIST_MAX_ITEMS) ctx.addIssue({ code: "custom", path: ["items"], message: `${label}: a list can have at most ${number(LIST_MAX_ITEMS)} items` });
      }),
  });
  const image = z.object({
    id,
    type: z.literal("image"),
    data: z.object({
      url: z
        .string({ error: `${label}: an image block needs an image` })
        .trim()
        .min(1, `${label}: an image block needs an image`)
        .superRefine((url, ctx) => {
          if (!url) return; // said by min()
          if (!isAllowedImageSrc(url) || (!url.startsWith("data:") && url.length > 2048)) {
            ctx.addIssue({ code: "custom", message: `${label}: embedded images must be PNG, GIF, JPEG, BMP or ICO (or an http(s) address)` });
          } else if (url.startsWith("data:") && dataUrlBytes(url) > INLINE_IMAGE_MAX_BYTES) {
            ctx.addIssue({ code: "custom", message: `${label}: embedded images can be at most ${INLINE_IMAGE_MAX_BYTES / 1024} KB; add larger photos to the gallery` });
          }
        }),
      // Plain text (the file name), shown as the image's alt text.
      caption: z.string().max(1000, `${label}: an image caption is too long (at most 1,000 characters)`).optional().default(""),
    }),
  });

  const block = z.discriminatedUnion("type", [paragraph, header, list, image], {
    error: (issue) =>
      issue.code === "invalid_union" || issue.code === "invalid_type"
        ? `${label}: blocks must be paragraphs, headings, lists or images`
        : undefined,
  });

  const doc = z.object(
    {
      time: z.number().optional().catch(undefined),
      version: z.string().max(32).optional().catch(undefined),
      blocks: z.array(block, { error: notADocument }).max(RICH_TEXT_MAX_BLOCKS, `${label} has too many blocks (at most ${RICH_TEXT_MAX_BLOCKS})`),
    },
    { error: notADocument },
  );

  return z
    .unknown()
    .superRefine((value, ctx) => {
      // Before the structure, so a huge or deeply nested value is refused without walking it recursively.
      if (value !== null && typeof value === "object" && jsonDepthExceeds(value, JSON_MAX_DEPTH)) {
        ctx.addIssue({ code: "custom", message: `${label} is nested too deeply (lists at most ${LIST_MAX_DEPTH} levels)` });
      } else if (JSON.stringify(value ?? null).length > RICH_TEXT_DOC_MAX_CHARS) {
        ctx.addIssue({ code: "custom", message: `${label} is too large (at most ${number(RICH_TEXT_DOC_MAX_CHARS)} characters, embedded images included)` });
      }
    })
    .pipe(doc)
    .transform((d): RichTextDoc => ({ ...(d.time !== undefined && { time: d.time }), ...(d.version !== undefined && { version: d.version }), blocks: d.blocks }));
}

/** The sanitised HTML of a (validated) document: what the public page, the portal and REST show. */
export function renderRichTextDoc(doc: RichTextDoc): string {
  return sanitizeRichText(blocksToHtml(doc.blocks));
}

/** A field's stored pair: the HTML rendered from the document, or, without one, the sent HTML sanitised. */
export function richTextOf(doc: RichTextDoc | null | undefined, html: string | null | undefined): { html: string; doc: RichTextDoc | null } {
  return doc ? { html: renderRichTextDoc(doc), doc } : { html: sanitizeRichText(html), doc: null };
}
