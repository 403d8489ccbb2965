import { createHash, randomBytes } from "node:crypto";

/** Bearer tokens are random and opaque; the database keeps only their SHA-256. */
export const SESSION_TOKEN_PREFIX = "mps_";
export const PARTNER_TOKEN_PREFIX = "mpt_";

export function newToken(prefix: string): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function bearerFrom(authorization: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
  return m ? m[1] : null;
}
