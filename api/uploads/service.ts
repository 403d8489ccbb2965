/**
 * Image uploads of the page editor (spec §2 logo and gallery, §5 "logo accepts images"): the type is read
 * from the file's first bytes, never from its name or the client's content type; files are stored under
 * UPLOADS_DIR with a random name and served at /uploads/<name> (api/uploads/routes.ts), with resized WebP
 * variants beside PNG, JPEG and WebP files (api/uploads/variants.ts) for the web app's srcset, and a PNG for email
 * (api/uploads/email-png.ts).
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { ServiceContext } from "../context.ts";
import { assertCan, businessesWhere, requireUser } from "../auth/policy.ts";
import { ForbiddenError, ValidationError } from "../shared/errors.ts";
import { createEmailPng } from "./email-png.ts";
import { createVariants } from "./variants.ts";

export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

const NOT_AN_IMAGE = "Only images can be uploaded (PNG, JPEG, GIF, WebP, BMP or ICO).";

interface ImageType {
  contentType: string;
  ext: string;
  matches(b: Buffer): boolean;
}

const starts = (b: Buffer, bytes: number[], at = 0) => b.length >= at + bytes.length && bytes.every((x, i) => b[at + i] === x);

/** Raster formats browsers show in <img>. SVG is refused: it is a document that can carry script. */
const IMAGE_TYPES: ImageType[] = [
  { contentType: "image/png", ext: "png", matches: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { contentType: "image/jpeg", ext: "jpg", matches: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  { contentType: "image/gif", ext: "gif", matches: (b) => starts(b, [0x47, 0x49, 0x46, 0x38]) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61 },
  { contentType: "image/webp", ext: "webp", matches: (b) => starts(b, [0x52, 0x49, 0x46, 0x46]) && starts(b, [0x57, 0x45, 0x42, 0x50], 8) },
  { contentType: "image/bmp", ext: "bmp", matches: (b) => starts(b, [0x42, 0x4d]) && b.length >= 26 },
  { contentType: "image/x-icon", ext: "ico", matches: (b) => starts(b, [0x00, 0x00, 0x01, 0x00]) && b.length >= 22 && b.readUInt16LE(4) > 0 },
];

/** The image type of a file by its magic bytes, or null. */
export function sniffImage(bytes: Buffer): { contentType: string; ext: string } | null {
  const t = IMAGE_TYPES.find((type) => type.matches(bytes));
  return t ? { contentType: t.contentType, ext: t.ext } : null;
}

/**
 * Who may upload: editors of `businessId` when one is named; otherwise administrators and anyone who may
 * edit some business's page.
 */
async function assertMayUpload(ctx: ServiceContext, businessId: number | null) {
  requireUser(ctx);
  if (businessId != null) return assertCan(ctx, businessId, "editContent");
  const editable = await ctx.db.business.count({ where: businessesWhere(ctx, "editContent") });
  if (!editable && !(ctx.actor.kind === "user" && ctx.actor.user.isAdmin)) throw new ForbiddenError();
}

export async function saveUpload(ctx: ServiceContext, input: { bytes: Buffer; originalName: string; businessId?: number | null }) {
  await assertMayUpload(ctx, input.businessId ?? null);
  if (input.bytes.length === 0) throw new ValidationError("The file is empty", [{ path: "file", message: "The file is empty" }]);
  if (input.bytes.length > UPLOAD_MAX_BYTES) {
    throw new ValidationError("The file is too large (at most 5 MB)", [{ path: "file", message: "Too large" }]);
  }
  const type = sniffImage(input.bytes);
  if (!type) throw new ValidationError(NOT_AN_IMAGE, [{ path: "file", message: NOT_AN_IMAGE }]);
  const fileName = `${randomBytes(16).toString("hex")}.${type.ext}`;
  await fs.mkdir(ctx.config.uploadsDir, { recursive: true });
  await fs.writeFile(path.join(ctx.config.uploadsDir, fileName), input.bytes, { flag: "wx" });
  const stored = path.join(ctx.config.uploadsDir, fileName);
  const upload = await ctx.db.upload
    .create({
    data: {
      fileName,
      originalName: input.originalName.slice(0, 255),
      contentType: type.contentType,
      sizeBytes: input.bytes.length,
      businessId: input.businessId ?? null,
      uploadedById: requireUser(ctx).user.id,
    },
  })
    .catch(async (e) => {
      await fs.rm(stored, { force: true });
      throw e;
    });
  await createVariants(ctx.config.uploadsDir, fileName, input.bytes);
  await createEmailPng(ctx.config.uploadsDir, fileName, input.bytes);
  return { upload, url: `/uploads/${fileName}` };
}
