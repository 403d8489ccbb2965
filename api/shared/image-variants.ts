/**
 * Resized WebP copies of an uploaded image, named after the upload: `/uploads/<id>.png` has
 * `/uploads/<id>-320w.webp` and so on. The server makes them at upload (api/uploads/variants.ts) and, for files
 * uploaded before variants existed, on the first request of one; the web app lists them in `srcset`, with the
 * original as `src`. Shared by both so that neither names a width the other does not know.
 */

/** Widths made of each upload: logos (64 px shown, up to 2.5x) up to a wide gallery photo at 2x. */
export const IMAGE_VARIANT_WIDTHS = [160, 320, 640, 960, 1280] as const;

/** An upload the server can resize (sharp reads these; GIF keeps its animation, BMP and ICO stay as they are). */
const RESIZABLE_UPLOAD = /^\/uploads\/([0-9a-f]{32})\.(png|jpg|webp)$/;

/** `<id>-<width>w.webp`, the file name of a variant. */
export const VARIANT_FILE = /^([0-9a-f]{32})-(\d{2,4})w\.webp$/;

export const variantFileName = (id: string, width: number) => `${id}-${width}w.webp`;

/** The variants of an upload URL as a srcset value, or null when the URL is not a resizable upload (demo files, other hosts). */
export function uploadSrcSet(url: string): string | null {
  const m = RESIZABLE_UPLOAD.exec(url);
  if (!m) return null;
  return IMAGE_VARIANT_WIDTHS.map((w) => `/uploads/${variantFileName(m[1], w)} ${w}w`).join(", ");
}
