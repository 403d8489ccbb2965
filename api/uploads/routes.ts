/**
 * GET (and HEAD) /uploads/<name>: the files of UPLOADS_DIR (api/uploads/service.ts stores them under random
 * names and never rewrites one, so they are cached for a year, `immutable`), and their WebP variants
 * `/uploads/<id>-<width>w.webp`. A variant not on disk, of an upload from before variants, is made
 * on its first request; one that cannot be made (GIF, BMP, ICO, an undecodable file) redirects to the original,
 * so a srcset never shows a broken image. The same goes for the email PNG `/uploads/<id>-email.png`
 * (./email-png.ts). Anything else is the app's 404.
 */
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";
import { IMAGE_VARIANT_WIDTHS, VARIANT_FILE } from "../shared/image-variants.ts";
import { EMAIL_PNG_FILE, uploadEmailPng } from "./email-png.ts";
import { variantOnDemand } from "./variants.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** Content types of the stored files, by extension (the upload service decided them from the bytes). */
const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  ico: "image/x-icon",
};

/** One path segment of a stored name: no separators, no leading dot. */
const SAFE_NAME = /^[\w-][\w.-]*$/;

async function sendFile(reply: FastifyReply, file: string) {
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  const ext = path.extname(file).slice(1).toLowerCase();
  reply
    .type(TYPES[ext] ?? "application/octet-stream")
    .header("cache-control", IMMUTABLE)
    .header("content-length", stat.size)
    .header("last-modified", stat.mtime.toUTCString());
  // HEAD too: Fastify's HEAD route drains the stream and keeps this content-length.
  return reply.send(fs.createReadStream(file));
}

// Any logger type: the app's is pino's, not Fastify's default.
export async function uploadFileRoutes(app: FastifyInstance<any, any, any, any, any>, { dir }: { dir: string }) {
  app.get<{ Params: { file: string } }>("/uploads/:file", async (req, reply) => {
    const name = req.params.file;
    if (!SAFE_NAME.test(name)) return reply.callNotFound();
    const sent = await sendFile(reply, path.join(dir, name));
    if (sent) return sent;
    const variant = VARIANT_FILE.exec(name);
    const emailPng = EMAIL_PNG_FILE.exec(name);
    let made: Awaited<ReturnType<typeof variantOnDemand>> = null;
    if (variant && (IMAGE_VARIANT_WIDTHS as readonly number[]).includes(Number(variant[2]))) made = await variantOnDemand(dir, variant[1], Number(variant[2]));
    else if (emailPng) made = await uploadEmailPng(dir, emailPng[1]);
    if (made && "file" in made) {
      const fresh = await sendFile(reply, made.file);
      if (fresh) return fresh;
    } else if (made) {
      return reply.header("cache-control", "public, max-age=3600").redirect(`/uploads/${made.original}`, 302);
    }
    return reply.callNotFound();
  });
}
