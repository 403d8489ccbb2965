/**
 * WebP variants of uploaded images: each width of IMAGE_VARIANT_WIDTHS, never wider than the
 * original, beside the original in UPLOADS_DIR as `<id>-<width>w.webp` (api/shared/image-variants.ts).
 */
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { IMAGE_VARIANT_WIDTHS, variantFileName } from "../shared/image-variants.ts";

/** Extensions of the uploads sharp can resize (see RESIZABLE_UPLOAD in the shared module). */
const RESIZABLE_EXTS = ["png", "jpg", "webp"] as const;

/** Below 5 MB of upload a decoded image stays well under this; bigger pixel counts are refused by sharp. */
const LIMIT_INPUT_PIXELS = 40_000_000;

/** One variant, written under a temporary name then renamed, so a reader never sees half a file. */
async function writeVariant(dir: string, id: string, input: Buffer, width: number): Promise<string> {
  const name = variantFileName(id, width);
  const target = path.join(dir, name);
  const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await sharp(input, { limitInputPixels: LIMIT_INPUT_PIXELS })
      .rotate() // EXIF orientation, then drop the metadata
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 78, effort: 4 })
      .toFile(temp);
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp, { force: true });
    throw e;
  }
  return name;
}

/**
 * Every variant of an upload just stored. A file sharp cannot decode (it passed the magic-byte check, yet is
 * broken) gets none: it is served as it is, and the variant URLs redirect to it.
 */
export async function createVariants(dir: string, fileName: string, bytes: Buffer): Promise<string[]> {
  const [id, ext] = fileName.split(".");
  if (!(RESIZABLE_EXTS as readonly string[]).includes(ext)) return [];
  try {
    const made: string[] = [];
    for (const w of IMAGE_VARIANT_WIDTHS) made.push(await writeVariant(dir, id, bytes, w));
    return made;
  } catch {
    return [];
  }
}

/**
 * A variant asked for that is not on disk (an upload from before variants, or one whose making failed): made
 * now from the original when there is one sharp can read. Returns the variant's path, "original" with the
 * original's name when it cannot be made, or null when there is no such upload.
 */
export async function variantOnDemand(dir: string, id: string, width: number): Promise<{ file: string } | { original: string } | null> {
  for (const ext of [...RESIZABLE_EXTS, "gif", "bmp", "ico"]) {
    const original = `${id}.${ext}`;
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(path.join(dir, original));
    } catch {
      continue;
    }
    if (!(RESIZABLE_EXTS as readonly string[]).includes(ext)) return { original };
    try {
      return { file: path.join(dir, await writeVariant(dir, id, bytes, width)) };
    } catch {
      return { original };
    }
  }
  return null;
}
