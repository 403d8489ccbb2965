/**
 * The transactional outbox: what a domain change writes so that others (email, outbound webhooks, the partner
 * feed) can hear about it, in the SAME transaction as the change. A change that rolls back leaves no event; one
 * that commits has its events, even if the process dies right after.
 *
 * Ordering: each event's `sequence` is handed out in commit order. Before inserting, the writer takes one
 * transaction-scoped advisory lock (`pg_advisory_xact_lock`), which PostgreSQL releases only after the commit is
 * visible. So of two transactions writing events, the second can take its sequence values only after the first
 * has committed (or rolled back): a higher sequence never becomes visible before a lower one, and a reader paging
 * by `sequence > position` never skips an event that committed late. Rolled-back writers leave gaps, never holes
 * that fill later. The lock serialises only the event insert to commit: write events as the LAST step of a
 * transaction, after its row locks, so the lock is held for the commit alone. PGlite (one connection) runs
 * transactions one at a time anyway; the same SQL runs there.
 *
 * Rows are immutable (a trigger refuses UPDATE; this module has no update path) and kept at least
 * RETENTION_DAYS; pruneEvents deletes only older ones, and none that an active consumer has yet to read.
 */
import type { Actor } from "../context.ts";
import type { PrismaClient } from "../db.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { EventPayloads, EventType } from "./vocabulary.ts";

type Tx = Prisma.TransactionClient;

// Arbitrary constant, distinct from the migration lock (api/db.ts): the outbox's commit-order lock.
const OUTBOX_LOCK_ID = 7_283_120_412;

/** Events are kept at least this long (docs/jobs-events-mail.md, "Events"). */
const RETENTION_DAYS = 90;

/**
 * A consumer that has not acknowledged anything for this long while events wait for it is stalled: it no
 * longer holds events back from pruning (a dead consumer must not keep the table growing forever), and the
 * prune job names it.
 */
const STALLED_AFTER_DAYS = 30;

const DAY_MS = 86_400_000;

/** Who made the change: a signed-in user, a partner API token, or the platform itself (billing run, webhooks). */
export type EventActor = { type: "user" | "partner"; id: number } | { type: "system"; id: null };

export const SYSTEM_ACTOR: EventActor = { type: "system", id: null };

/** The event actor of a request's actor (anonymous requests, provider webhooks: the system). */
export function eventActorOf(actor: Actor | undefined): EventActor {
  if (actor?.kind === "user") return { type: "user", id: actor.user.id };
  if (actor?.kind === "partner") return { type: "partner", id: actor.token.id };
  return SYSTEM_ACTOR;
}

/** One event to write: its type, the business it happened in (null: platform-wide), the object's Relay id, the payload. */
export type NewEvent = {
  [T in EventType]: { type: T; businessId: number | null; objectId: string; payload: EventPayloads[T] };
}[EventType];

/**
 * Writes events inside the caller's transaction (`tx` of `db.$transaction(async (tx) => …)`), at `at` (domain
 * time, the injectable clock), by `actor`. Call it last in the transaction (see the ordering note above).
 */
export async function writeEvents(tx: Tx, meta: { at: Date; actor: EventActor }, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${OUTBOX_LOCK_ID}::bigint)`;
  const col = <T>(pick: (e: NewEvent) => T) => events.map(pick);
  await tx.$executeRaw`
    INSERT INTO events (business_id, actor_type, actor_id, object_id, type, payload, created_at)
    SELECT v.business_id, ${meta.actor.type}, ${meta.actor.id}::int, v.object_id, v.type, v.payload::jsonb, ${meta.at}::timestamp
      FROM unnest(${col((e) => e.businessId)}::int[], ${col((e) => e.objectId)}::text[], ${col((e) => e.type)}::text[],
                  ${col((e) => JSON.stringify(e.payload))}::text[]) WITH ORDINALITY AS v(business_id, object_id, type, payload, n)
     ORDER BY v.n`;
}

/** An event as readers see it. */
export interface StoredEvent {
  sequence: number;
  type: EventType;
  businessId: number | null;
  actor: EventActor;
  objectId: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

type EventRow = Prisma.EventGetPayload<object>;

function storedEvent(row: EventRow): StoredEvent {
  const actor: EventActor = row.actorType === "system" || row.actorId == null ? SYSTEM_ACTOR : { type: row.actorType as "user" | "partner", id: row.actorId };
  return {
    sequence: Number(row.sequence),
    type: row.type as EventType,
    businessId: row.businessId,
    actor,
    objectId: row.objectId,
    payload: row.payload as Record<string, unknown>,
    createdAt: row.createdAt,
  };
}

/** Events after `sequence` in sequence (= commit) order, optionally of one business (the partner feed). */
export async function readEvents(db: PrismaClient | Tx, args: { after: number; limit: number; businessId?: number }): Promise<StoredEvent[]> {
  const rows = await db.event.findMany({
    where: { sequence: { gt: BigInt(args.after) }, ...(args.businessId !== undefined ? { businessId: args.businessId } : {}) },
    orderBy: { sequence: "asc" },
    take: Math.max(1, Math.min(args.limit, 1000)),
  });
  return rows.map(storedEvent);
}

/** The last sequence `consumer` acknowledged (0 for a consumer that has read nothing yet). */
async function consumerPosition(db: PrismaClient | Tx, consumer: string): Promise<number> {
  const row = await db.eventConsumer.findUnique({ where: { name: consumer }, select: { position: true } });
  return row ? Number(row.position) : 0;
}

/**
 * The next events `consumer` has not acknowledged, oldest first. Each consumer (the email sender, webhooks, the
 * feed) keeps its own position: read, handle, then ack the last sequence handled.
 */
export async function readAfter(db: PrismaClient, consumer: string, limit: number): Promise<StoredEvent[]> {
  return readEvents(db, { after: await consumerPosition(db, consumer), limit });
}

/**
 * Records that `consumer` handled every event up to `sequence`, at `at` (pass the clock's now; it is when the
 * consumer was last seen alive, see pruneEvents). The first ack registers a consumer (ack 0 to hold every event
 * from the start). Never moves a position back (a late ack is a no-op, but still says the consumer is alive).
 */
export async function ack(db: PrismaClient | Tx, consumer: string, sequence: number, at: Date = new Date()): Promise<void> {
  await db.$executeRaw`
    INSERT INTO event_consumers (name, position, updated_at) VALUES (${consumer}, ${sequence}::bigint, ${at}::timestamp)
    ON CONFLICT (name) DO UPDATE SET position = GREATEST(event_consumers.position, EXCLUDED.position), updated_at = EXCLUDED.updated_at`;
}

/** A consumer that no longer holds events back: it has left events unread and not acknowledged for STALLED_AFTER_DAYS. */
interface StalledConsumer {
  name: string;
  position: number;
  /** Whole days since its last ack. */
  daysSinceAck: number;
}

export interface PruneReport {
  /** Events deleted. */
  deleted: number;
  /** Events past retention kept because an active consumer has not read them yet. */
  kept: number;
  stalled: StalledConsumer[];
}

/**
 * Retention, the only deletion there is: deletes events older than `olderThanDays` (never fewer than
 * RETENTION_DAYS) before `now` (the clock's), except those after the lowest position of the consumers still
 * active. A consumer holds events back unless it is caught up, or stalled: events wait for it whose oldest is
 * over STALLED_AFTER_DAYS old, and it has not acknowledged for as long. For a scheduled job.
 */
export async function pruneEvents(db: PrismaClient, now: Date, olderThanDays = RETENTION_DAYS): Promise<PruneReport> {
  const cutoff = new Date(now.getTime() - Math.max(RETENTION_DAYS, olderThanDays) * DAY_MS);
  const stalledBefore = new Date(now.getTime() - STALLED_AFTER_DAYS * DAY_MS);
  // The few registered consumers, each with the time of the oldest event it has not acknowledged (null: caught up).
  const consumers = await db.$queryRaw<{ name: string; position: bigint; updated_at: Date; oldest_unread: Date | null }[]>`
    SELECT c.name, c.position, c.updated_at,
           (SELECT e.created_at FROM events e WHERE e.seq > c.position ORDER BY e.seq LIMIT 1) AS oldest_unread
      FROM event_consumers c ORDER BY c.name`;
  const stalled: StalledConsumer[] = [];
  let holdAfter: bigint | null = null;
  for (const c of consumers) {
    if (c.oldest_unread == null) continue;
    if (new Date(c.updated_at) < stalledBefore && new Date(c.oldest_unread) < stalledBefore) {
      stalled.push({ name: c.name, position: Number(c.position), daysSinceAck: Math.floor((now.getTime() - new Date(c.updated_at).getTime()) / DAY_MS) });
      continue;
    }
    if (holdAfter === null || c.position < holdAfter) holdAfter = c.position;
  }
  const past = { createdAt: { lt: cutoff } };
  const { count: deleted } = await db.event.deleteMany({ where: holdAfter === null ? past : { ...past, sequence: { lte: holdAfter } } });
  const kept = holdAfter === null ? 0 : await db.event.count({ where: past });
  return { deleted, kept, stalled };
}
