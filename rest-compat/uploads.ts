/** POST /api/admin/upload (spec §7): one image in the multipart field `file`; api/uploads decides the rest. */
import { z } from "zod";
import { saveUpload, UPLOAD_MAX_BYTES } from "../api/uploads/service.ts";
import { ValidationError } from "../api/shared/errors.ts";
import { assertCleanInput } from "../api/http/input-limits.ts";
import type { Router } from "./router.ts";

export const UPLOAD_LIMITS = { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 12 };

export function uploadRoutes(r: Router) {
  r.add({
    method: "POST",
    path: "/admin/upload",
    tag: "admin",
    summary: "Uploads an image (PNG, JPEG, GIF, WebP, BMP, ICO; at most 5 MB); the answer's url is relative to the API host",
    access: "admin",
    query: z.object({ business_id: z.string().regex(/^\d{1,9}$/).transform(Number).optional() }),
    multipart: { field: "file", description: "The image" },
    response: z.object({ file: z.object({ url: z.string().describe("/uploads/<name>") }) }),
    errors: [413],
    handler: async (ctx, { query }, req) => {
      if (!req.isMultipart()) throw new ValidationError("Send the image as multipart/form-data in the field 'file'", [{ path: "file", message: "Required" }]);
      const part = await req.file({ limits: UPLOAD_LIMITS });
      if (!part || part.fieldname !== "file") throw new ValidationError("Send the image in the field 'file'", [{ path: "file", message: "Required" }]);
      // toBuffer throws 413 (FST_REQ_FILE_TOO_LARGE) past the size limit.
      const bytes = await part.toBuffer();
      // The edge's text rules (api/http/input-limits.ts) for what the JSON check cannot see: the filename and
      // the other form fields that came with the file.
      assertCleanInput(part.filename, "file.filename");
      for (const field of Object.values(part.fields).flat()) {
        if (field && field.type === "field") assertCleanInput(field.value, field.fieldname);
      }
      const { url } = await saveUpload(ctx, { bytes, originalName: part.filename ?? "", businessId: query.business_id ?? null });
      return { file: { url } };
    },
  });
}
