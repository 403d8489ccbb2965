import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db.ts";
import { ack, pruneEvents, readAfter, readEvents, SYSTEM_ACTOR, writeEvents, type NewEvent } from "../../api/events/outbox.ts";
import { eventsPruneJob } from "../../api/jobs/events-prune-job.ts";
import { FixedClock } from "../../api/shared/clock.ts";
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
  const DAY = 86_400_000;
  const daysBefore = (days: number) => new Date(AT.getTime() - days * DAY);
  const write = async (at: Date, ...ids: number[]) => {
    await db.prisma.$transaction((tx) => writeEvents(tx, { at, actor: SYSTEM_ACTOR }, ids.map((id) => skipped(id))));
    const all = await readEvents(db.prisma, { after: 0, limit: 10_000 });
    return ids.map((id) => all.find((e) => e.payload.membershipId === id)!.sequence);
  };
  const left = async () => (await readEvents(db.prisma, { after: 0, limit: 10_000 })).map((e) => e.payload.membershipId);

  beforeAll(async () => {
    // The consumers of the tests above are not this section's.
    await db.prisma.eventConsumer.deleteMany();
  });

  it("prunes only events older than 90 days", async () => {
    await write(daysBefore(124), 501);
    await write(daysBefore(85), 502);
    // Asking for less than 90 days still keeps 90.
    expect(await pruneEvents(db.prisma, AT, 30)).toEqual({ deleted: 1, kept: 0, stalled: [] });
    expect(await left()).not.toContain(501);
    expect(await left()).toContain(502);
  });

  it("keeps events past 90 days that an active consumer has not read, and prunes them once it has", async () => {
    const [first] = await write(daysBefore(120), 601, 602);
    // The mail sender read everything before them, yesterday.
    await ack(db.prisma, "mail", first - 1, daysBefore(1));
    expect(await pruneEvents(db.prisma, AT)).toEqual({ deleted: 0, kept: 2, stalled: [] });
    expect(await left()).toEqual(expect.arrayContaining([601, 602]));

    await ack(db.prisma, "mail", first, AT);
    expect(await pruneEvents(db.prisma, AT)).toEqual({ deleted: 1, kept: 1, stalled: [] });
    expect(await left()).not.toContain(601);
    expect(await left()).toContain(602);
  });

  it("a consumer that has not acknowledged for 30 days is stalled: it holds nothing back, and the prune job names it", async () => {
    const [old] = await write(daysBefore(100), 701);
    const newest = (await readEvents(db.prisma, { after: 0, limit: 10_000 })).at(-1)!.sequence;
    await ack(db.prisma, "mail", newest, AT);
    // The partner feed stopped 31 days ago, before event 701; the archive is caught up and quiet for 40 days.
    await ack(db.prisma, "feed", old - 1, daysBefore(31));
    await ack(db.prisma, "archive", newest, daysBefore(40));
    const job = eventsPruneJob({ db: db.prisma, clock: new FixedClock(AT.toISOString()) });
    expect(await job.run({} as never, new AbortController().signal)).toEqual({ deleted: 2, kept: 0, "stalled:feed": 31 });
    expect(await left()).not.toContain(701);
    expect(await left()).not.toContain(602);

    // Within 30 days it still holds its events, however old they are (the silent archive is now behind: stalled).
    const [held] = await write(daysBefore(95), 702);
    await ack(db.prisma, "mail", held, AT);
    await ack(db.prisma, "feed", held - 1, daysBefore(29));
    expect(await pruneEvents(db.prisma, AT)).toEqual({ deleted: 0, kept: 1, stalled: [{ name: "archive", position: held - 1, daysSinceAck: 40 }] });
    expect(await left()).toContain(702);
  });
});
