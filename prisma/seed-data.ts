import type { PrismaClient } from "../api/db.ts";
import type { Clock } from "../api/shared/clock.ts";

/** Demo data (filled in by the seed work). Returns true when it created data, false when already seeded. */
export async function seedDemoData(db: PrismaClient, _clock: Clock): Promise<boolean> {
  if (await db.user.findUnique({ where: { username: "admin" } })) return false;
  return false;
}
