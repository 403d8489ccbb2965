import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db.ts";
import { ack, pruneEvents, readAfter, readEvents, SYSTEM_ACTOR, writeEvents, type NewEvent } from "../../api/events/outbox.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestDatabase } from "../support/database.ts";

// The outbox itself, on whichever database the suite runs (PGlite, or PostgreSQL with TEST_DATABASE_URL).
let db: Database & { drop(): Promise<void> };
const AT = new Date("2026-03-05T15:00:00Z");

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const skipped = (membershipId: number, month = "2026-04"): NewEvent => ({
  type: "membership.skipped.v1",
  businessId: 1,
  objectId: globalId("Membership", membershipId),
  payload: { membershipId, userId: 7, month, resumeDate: "2026-05-03" },
});

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

async function readAll(consumer: string): Promise<number[]> {
  const seen: number[] = [];
  for (;;) {
    const page = await readAfter(db.prisma, consumer, 2);
    if (page.length === 0) return seen;
    seen.push(...page.map((e) => e.payload.membershipId as number));
    await ack(db.prisma, consumer, page.at(-1)!.sequence);
  }
}

describe("writing events with their change", () => {
  it("commits the event with the change, and writes none for a change that rolls back", async () => {
    const user = await db.prisma.user.create({ data: { username: "outbox-writer", passwordHash: "x" } });
    await db.prisma.$transaction(async (tx) => {
      await tx.user.update({ where: { id: user.id }, data: { name: "Committed" } });
      await writeEvents(tx, { at: AT, actor: { type: "user", id: user.id } }, [skipped(101)]);
    });
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.user.update({ where: { id: user.id }, data: { name: "Rolled back" } });
        await writeEvents(tx, { at: AT, actor: { type: "user", id: user.id } }, [skipped(102)]);
        throw new Error("failure after the event was written");
      }),
    ).rejects.toThrow("failure after the event was written");

    expect((await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe("Committed");
    const events = await readEvents(db.prisma, { after: 0, limit: 100 });
    const mine = events.filter((e) => e.type === "membership.skipped.v1" && [101, 102].includes(e.payload.membershipId as number));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      type: "membership.skipped.v1",
      businessId: 1,
      actor: { type: "user", id: user.id },
      objectId: globalId("Membership", 101),
      payload: { membershipId: 101, month: "2026-04" },
      createdAt: AT,
    });
    // The same Relay id the API gives the membership.
    expect(Buffer.from(mine[0].objectId, "base64").toString()).toBe("Membership:101");
  });

  it("refuses to update an event (no update path; the database refuses too)", async () => {
    await db.prisma.$transaction((tx) => writeEvents(tx, { at: AT, actor: SYSTEM_ACTOR }, [skipped(103)]));
    const [event] = (await readEvents(db.prisma, { after: 0, limit: 1000 })).filter((e) => e.payload.membershipId === 103);
    await expect(db.prisma.$executeRaw`UPDATE events SET type = 'membership.renewed.v1' WHERE seq = ${event.sequence}`).rejects.toThrow(/immutable/);
    const again = (await readEvents(db.prisma, { after: event.sequence - 1, limit: 1 }))[0];
    expect(again.type).toBe("membership.skipped.v1");
  });
});

describe("consumers", () => {
  it("each consumer pages through every event in sequence order with its own position", async () => {
    const before = (await readEvents(db.prisma, { after: 0, limit: 1000 })).at(-1)?.sequence ?? 0;
    await ack(db.prisma, "email", before);
    await ack(db.prisma, "webhooks", before);
    for (const id of [201, 202, 203]) await db.prisma.$transaction((tx) => writeEvents(tx, { at: AT, actor: SYSTEM_ACTOR }, [skipped(id)]));

    const firstPage = await readAfter(db.prisma, "email", 2);
    expect(firstPage.map((e) => e.payload.membershipId)).toEqual([201, 202]);
    expect(firstPage[1].sequence).toBeGreaterThan(firstPage[0].sequence);
    await ack(db.prisma, "email", firstPage[1].sequence);
    expect((await readAfter(db.prisma, "email", 10)).map((e) => e.payload.membershipId)).toEqual([203]);
    // Another consumer has not moved.
    expect((await readAfter(db.prisma, "webhooks", 10)).map((e) => e.payload.membershipId)).toEqual([201, 202, 203]);
    // A late, older ack never moves a position back.
    await ack(db.prisma, "email", firstPage[0].sequence);
    expect((await readAfter(db.prisma, "email", 10)).map((e) => e.payload.membershipId)).toEqual([203]);
  });
});

describe("commit order", () => {
  it("a consumer paging while two transactions commit in reverse order of their start reads both, in commit order", async () => {
    await ack(db.prisma, "pager", (await readEvents(db.prisma, { after: 0, limit: 1000 })).at(-1)?.sequence ?? 0);
    const firstStarted = deferred();
    const secondCommitted = deferred();
    // The first transaction starts, works, and writes its event only after the second committed.
    const first = db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1`;
      firstStarted.resolve();
      await secondCommitted.promise;
      await writeEvents(tx, { at: AT, actor: SYSTEM_ACTOR }, [skipped(301)]);
    });
    await firstStarted.promise;
    if (db.kind === "postgres") {
      await db.prisma.$transaction((tx) => writeEvents(tx, { at: AT, actor: SYSTEM_ACTOR }, [skipped(302)]));
      secondCommitted.resolve();
      await first;
    } else {
      // PGlite has one connection: transactions run one after the other; the second starts once the first is waiting.
      secondCommitted.resolve();
      await first;
      await db.prisma.$transaction((tx) => writeEvents(tx, { at: AT, actor: SYSTEM_ACTOR }, [skipped(302)]));
    }
    const seen = await readAll("pager");
    expect(seen).toEqual(db.kind === "postgres" ? [302, 301] : [301, 302]);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)(
    "PostgreSQL: an event written first but committed late is never skipped by a reader that paged meanwhile",
    async () => {
      await ack(db.prisma, "late", (await readEvents(db.prisma, { after: 0, limit: 1000 })).at(-1)?.sequence ?? 0);
      const firstWrote = deferred();
      const releaseFirst = deferred();
      const first = db.prisma.$transaction(async (tx) => {
        await writeEvents(tx, { at: AT, actor: SYSTEM_ACTOR }, [skipped(401)]);
        firstWrote.resolve();
        await releaseFirst.promise;
      });
      await firstWrote.promise;
      // The second writes its event meanwhile; it cannot commit ahead of the first's event.
      let secondDone = false;
      const second = db.prisma
        .$transaction((tx) => writeEvents(tx, { at: AT, actor: SYSTEM_ACTOR }, [skipped(402)]))
        .then(() => void (secondDone = true));
      const seenWhileOpen: number[] = [];
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 40));
        const page = await readAfter(db.prisma, "late", 10);
        seenWhileOpen.push(...page.map((e) => e.payload.membershipId as number));
        if (page.length) await ack(db.prisma, "late", page.at(-1)!.sequence);
      }
      expect(secondDone).toBe(false);
      expect(seenWhileOpen).toEqual([]);
      releaseFirst.resolve();
      await Promise.all([first, second]);
      expect(await readAll("late")).toEqual([401, 402]);
    },
  );
});

describe("retention", () => {
  it("prunes only events older than 90 days", async () => {
    const old = new Date("2025-11-01T00:00:00Z"); // 124 days before AT
    const recent = new Date("2025-12-10T00:00:00Z"); // 85 days before AT
    await db.prisma.$transaction((tx) => writeEvents(tx, { at: old, actor: SYSTEM_ACTOR }, [skipped(501)]));
    await db.prisma.$transaction((tx) => writeEvents(tx, { at: recent, actor: SYSTEM_ACTOR }, [skipped(502)]));
    // Asking for less than 90 days still keeps 90.
    expect(await pruneEvents(db.prisma, AT, 30)).toBe(1);
    const left = (await readEvents(db.prisma, { after: 0, limit: 1000 })).map((e) => e.payload.membershipId);
    expect(left).not.toContain(501);
    expect(left).toContain(502);
  });
});
