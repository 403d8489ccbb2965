/**
 * PNG renditions of logos, for email. Gmail and Outlook show no SVG (the demo logos are SVG) and WebP poorly, so
 * every email draws the business's logo from a PNG on this server:
 *
 * - an upload `/uploads/<id>.png|jpg|webp` has `/uploads/<id>-email.png` beside it, made at upload and, for an
 *   upload from before, when the first email or request needs it (GIF, BMP and ICO uploads are used as they are);
 * - a demo logo `/demo/<name>.svg` of the web build has `/demo/<name>.png`, drawn by sharp (librsvg) when first
 *   needed and kept in memory: a handful of files, regenerated when the process restarts on a new build.
 *
 * Both paths answer with `Cross-Origin-Resource-Policy: cross-origin` (server/app.ts, PUBLIC_IMAGES): the Sent mail
 * viewer's sandboxed frame (an opaque origin) and webmail load them from other origins.
 */
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { Config } from "../config.ts";
import { absoluteUrl } from "../shared/public-urls.ts";

/** An image as an email shows it: its absolute address and display size in CSS pixels (width null: unknown). */
export interface EmailImage {
  src: string;
  width: number | null;
  height: number;
}

/** The logo's box in the email, in CSS pixels (the layout's header); the PNG has up to twice the pixels, for sharp screens. */
const DISPLAY = { width: 200, height: 48 } as const;
const PIXELS = { width: DISPLAY.width * 2, height: DISPLAY.height * 2 } as const;

/** As for the WebP variants: a 5 MB upload decodes well under this; bigger pixel counts are refused by sharp. */
const LIMIT_INPUT_PIXELS = 40_000_000;

/** Uploads sharp reads (as ./variants.ts resizes); the id is the upload service's random name. */
const EMAIL_SOURCE_UPLOAD = /^\/uploads\/([0-9a-f]{32})\.(png|jpg|webp)$/;
/** `<id>-email.png`, the rendition's file name beside the upload. */
export const EMAIL_PNG_FILE = /^([0-9a-f]{32})-email\.png$/;
const emailPngName = (id: string) => `${id}-email.png`;

/** A demo logo of the web build, and the name of its PNG under /demo. */
const DEMO_SVG = /^\/demo\/([a-z0-9-]+)\.svg$/;
export const DEMO_PNG_FILE = /^([a-z0-9-]+)\.png$/;

interface Png {
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * `input` as a PNG that fits PIXELS, keeping its aspect. A raster image is never enlarged; an SVG is drawn at the
 * density that fills the box (librsvg's 72 dpi would draw a 120 px logo small, and enlarging it afterwards blurs).
 */
async function renderPng(input: Buffer, vector: boolean): Promise<Png> {
  let density: number | undefined;
  if (vector) {
    const { width = 0, height = 0 } = await sharp(input).metadata();
    if (width > 0 && height > 0) density = Math.min(2400, Math.max(1, 72 * Math.min(PIXELS.width / width, PIXELS.height / height)));
  }
  const { data, info } = await sharp(input, { limitInputPixels: LIMIT_INPUT_PIXELS, density })
    .rotate() // EXIF orientation, then drop the metadata
    .resize({ ...PIXELS, fit: "inside", withoutEnlargement: !vector })
    .png({ compressionLevel: 9 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}

/** Writes under a temporary name then renames, so a reader never sees half a file. */
async function writeAtomically(target: string, bytes: Buffer) {
  const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp, { force: true });
    throw e;
  }
}

/** The email PNG of an upload just stored (the upload service); none for a type or file sharp cannot read. */
export async function createEmailPng(dir: string, fileName: string, bytes: Buffer): Promise<void> {
  const m = EMAIL_SOURCE_UPLOAD.exec(`/uploads/${fileName}`);
  if (!m) return;
  try {
    await writeAtomically(path.join(dir, emailPngName(m[1])), (await renderPng(bytes, false)).bytes);
  } catch {
    // A file that passed the magic-byte check yet is broken: emails use the original, as the web app does.
  }
}

/**
 * The email PNG of upload `id`, made from the original when it is not on disk yet. Returns its path and pixel size,
 * "original" with the original's name when none can be made from it, or null when there is no such upload.
 */
export async function uploadEmailPng(dir: string, id: string): Promise<{ file: string; width: number; height: number } | { original: string } | null> {
  const file = path.join(dir, emailPngName(id));
  const existing = await sharp(file)
    .metadata()
    .catch(() => null);
  if (existing?.width && existing.height) return { file, width: existing.width, height: existing.height };
  for (const ext of ["png", "jpg", "webp", "gif", "bmp", "ico"]) {
    const original = `${id}.${ext}`;
    const bytes = await fs.readFile(path.join(dir, original)).catch(() => null);
    if (!bytes) continue;
    if (!EMAIL_SOURCE_UPLOAD.test(`/uploads/${original}`)) return { original };
    try {
      const png = await renderPng(bytes, false);
      await writeAtomically(file, png.bytes);
      return { file, width: png.width, height: png.height };
    } catch {
      return { original };
    }
  }
  return null;
}

/** Demo PNGs by their SVG's path: only files that exist get an entry, so the map is as small as the demo folder. */
const demoPngs = new Map<string, Promise<Png | null>>();

/** The PNG of the web build's `demo/<name>.svg` (`dist` is WEB_DIST_DIR), or null when there is none or it cannot be drawn. */
export function demoLogoPng(dist: string, name: string): Promise<Png | null> {
  const svg = path.join(dist, "demo", `${name}.svg`);
  let png = demoPngs.get(svg);
  if (!png) {
    png = fs
      .readFile(svg)
      .then((bytes) => renderPng(bytes, true))
      .catch(() => null);
    demoPngs.set(svg, png);
    // Not kept when it failed (no file, or one sharp could not draw): the next email or request tries again.
    void png.then((p) => {
      if (!p) demoPngs.delete(svg);
    });
  }
  return png;
}

/** The display size of a `width`×`height` image in the DISPLAY box, aspect kept (a small logo fills it, as before). */
function displaySize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(DISPLAY.width / width, DISPLAY.height / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * How an email shows the logo at `logoUrl` (a page's logo: an upload, a demo file or another site's address): its
 * PNG rendition with width and height when there is one, else the address itself, 48 px high (its width left to the client).
 * Null when there is no logo. Never fails: a rendition that cannot be made leaves the original.
 */
export async function emailLogo(config: Pick<Config, "uploadsDir" | "webDistDir" | "publicScheme" | "publicHost">, logoUrl: string): Promise<EmailImage | null> {
  const origin = `${config.publicScheme}://${config.publicHost}`;
  const upload = EMAIL_SOURCE_UPLOAD.exec(logoUrl);
  const demo = DEMO_SVG.exec(logoUrl);
  try {
    if (upload) {
      const png = await uploadEmailPng(config.uploadsDir, upload[1]);
      if (png && "file" in png) return { src: `${origin}/uploads/${emailPngName(upload[1])}`, ...displaySize(png.width, png.height) };
    } else if (demo) {
      const png = await demoLogoPng(config.webDistDir, demo[1]);
      if (png) return { src: `${origin}/demo/${demo[1]}.png`, ...displaySize(png.width, png.height) };
    }
  } catch {
    // Reading or writing the rendition failed (a full disk): the original below.
  }
  const src = absoluteUrl(logoUrl, origin);
  return src ? { src, width: null, height: DISPLAY.height } : null;
}
