import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../../../db.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { crashPoint } from "../../../shared/crash-points.ts";
import type { Clock } from "../../../shared/clock.ts";
import { IdempotencyKeyReused } from "../provider.ts";
import { SandboxCardError } from "./cards.ts";

/**
 * Where the sandbox keeps its Stripe-shaped objects (the sandbox_objects table), and its idempotency keys: a key
 * is claimed with a lease before its work runs, so one key's work is done once, across server processes and
 * crashes. Every statement on sandbox_objects is here, save the balances' and payouts' reads and settlement
 * (balances.ts, which derives them from the objects); what the objects mean is intents.ts's.
 */

/**
 * How long an idempotency claim holds its key: far longer than the work it guards (a few statements, under a
 * second even on a loaded machine, and waiters give up after 10 s), so only a request that died loses it.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** The database, or the transaction a keyed piece of work runs in. */
export type Store = Pick<Prisma.TransactionClient, "sandboxObject">;

/** Our claim expired and another request recorded the key's object first. */
class LostClaim extends Error {}

/** A new object id, Stripe-style with a sandbox mark: `pi_sbx_…`. */
export const rid = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString("base64url")}`;

/** The sandbox_objects row that records which object an idempotency key created. */
const idempotencyRecordId = (key: string) => `idem_${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;

/** JSON with every object's keys in order (and undefined left out): the same parameters always read the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What a keyed request asked for, as one string: Stripe refuses a key used again with other parameters. */
const fingerprintOf = (params: object) => createHash("sha256").update(canonical(params)).digest("hex").slice(0, 32);

/** Stripe's answer to a key reused with other parameters. */
function reusedWithOtherParameters(): IdempotencyKeyReused {
  return new IdempotencyKeyReused("Keys for idempotent requests can only be used with the same parameters they were first used with.");
}

/** An object made by a batch under its idempotency key (see createOnce). */
export interface KeyedObject {
  key: string;
  /** The request's parameters (its idempotency key aside). */
  params: object;
  id: string;
  data: object;
}

export class SandboxStore {
  private readonly db: PrismaClient;
  private readonly clock: Clock;

  constructor(db: PrismaClient, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  async load<T>(id: string, kind: string, db: Store = this.db): Promise<T | null> {
    const row = await db.sandboxObject.findUnique({ where: { id } });
    return row && row.kind === kind ? (row.data as T) : null;
  }

  /** The objects of one kind among these ids, by id. */
  async loadMany<T>(ids: string[], kind: string): Promise<Map<string, T>> {
    const rows = await this.db.$queryRaw<{ id: string; data: T }[]>`
      SELECT id, data FROM sandbox_objects WHERE id = ANY(${ids}::text[]) AND kind = ${kind}::text`;
    return new Map(rows.map((row) => [row.id, row.data]));
  }

  async save(id: string, kind: string, data: object, db: Store = this.db): Promise<void> {
    await db.sandboxObject.upsert({ where: { id }, create: { id, kind, data }, update: { data } });
  }

  /**
   * Same idempotency key → same object, as Stripe's Idempotency-Key header guarantees. The key is claimed with a
   * lease before the work is done, so concurrent requests with one key (two server processes) run it once: the
   * others wait for the first one's result. A claim whose request died (a crash, a kill) expires after
   * IDEMPOTENCY_LEASE_MS and the next request with the key takes it over. The work and the record of its result
   * commit in one transaction, and only while the claim is still the worker's own, so the key's work is done once
   * even when a slow request outlives its lease. The key keeps the fingerprint of the request's parameters (`params`,
   * its key aside): used again with others it is refused (`idempotency_error`), as Stripe refuses it.
   */
  async idempotent<T>(key: string, params: object, create: (db: Store) => Promise<{ id: string; value: T }>, reload: (id: string) => Promise<T>): Promise<T> {
    const idemId = idempotencyRecordId(key);
    const fingerprint = fingerprintOf(params);
    const claim = await this.claim(idemId);
    if ("objectId" in claim) {
      // A key recorded before keys kept their parameters has no fingerprint: it answers as it always did.
      if (claim.fingerprint && claim.fingerprint !== fingerprint) throw reusedWithOtherParameters();
      return reload(claim.objectId);
    }
    crashPoint("sandbox:claimed");
    try {
      return await this.db.$transaction(async (tx) => {
        const { id, value } = await create(tx);
        const recorded = await tx.$executeRaw`
          UPDATE sandbox_objects SET data = jsonb_build_object('objectId', ${id}::text, 'fingerprint', ${fingerprint}::text), updated_at = ${this.clock.now()}::timestamp
           WHERE id = ${idemId} AND kind = 'idempotency' AND data->>'objectId' IS NULL AND data->>'leaseUntil' = ${claim.leaseUntil}`;
        if (recorded !== 1) throw new LostClaim();
        return value;
      });
    } catch (e) {
      // Our lease ran out and another request did the work: answer with its object.
      if (e instanceof LostClaim) return this.idempotent(key, params, create, reload);
      // Failed work does not hold the key: a retry runs it again, as with Stripe.
      await this.db.$executeRaw`
        DELETE FROM sandbox_objects
         WHERE id = ${idemId} AND kind = 'idempotency' AND data->>'objectId' IS NULL AND data->>'leaseUntil' = ${claim.leaseUntil}`.catch(() => {});
      throw e;
    }
  }

  /**
   * A batch's objects of one kind, each created only if its key is new: the keys' records (already naming their
   * objects, so no lease is needed) and the objects are inserted in one transaction, and a concurrent request with
   * one of these keys waits for it, then answers with our object. Returns the keys this call recorded; the others
   * were recorded earlier and keep their first object.
   */
  async createOnce(kind: string, objects: KeyedObject[]): Promise<Set<string>> {
    const at = this.clock.now();
    const idemIds = objects.map((o) => idempotencyRecordId(o.key));
    const won = await this.db.$transaction(async (tx) => {
      const claimed = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO sandbox_objects (id, kind, data, updated_at)
        SELECT v.id, 'idempotency', jsonb_build_object('objectId', v.object_id, 'fingerprint', v.fingerprint), ${at}::timestamp
          FROM unnest(${idemIds}::text[], ${objects.map((o) => o.id)}::text[], ${objects.map((o) => fingerprintOf(o.params))}::text[]) AS v(id, object_id, fingerprint)
        ON CONFLICT (id) DO NOTHING
        RETURNING id`;
      const won = new Set(claimed.map((c) => c.id));
      const created = objects.filter((_, i) => won.has(idemIds[i]));
      if (created.length) {
        await tx.$executeRaw`
          INSERT INTO sandbox_objects (id, kind, data, updated_at)
          SELECT v.id, ${kind}::text, v.data::jsonb, ${at}::timestamp
            FROM unnest(${created.map((o) => o.id)}::text[], ${created.map((o) => JSON.stringify(o.data))}::text[]) AS v(id, data)`;
      }
      return won;
    });
    return new Set(objects.filter((_, i) => won.has(idemIds[i])).map((o) => o.key));
  }

  /**
   * Takes the key's claim (a new one, or an expired one), or waits up to 10 s for the request holding it: returns
   * the lease taken, or the object that request made.
   */
  private async claim(idemId: string): Promise<{ leaseUntil: string } | { objectId: string; fingerprint: string | null }> {
    const lease = () => new Date(this.clock.now().getTime() + IDEMPOTENCY_LEASE_MS).toISOString();
    for (let waited = 0; ; waited += 50) {
      const leaseUntil = lease();
      const inserted = await this.db.$executeRaw`
        INSERT INTO sandbox_objects (id, kind, data, updated_at)
        VALUES (${idemId}, 'idempotency', jsonb_build_object('objectId', NULL, 'leaseUntil', ${leaseUntil}::text), ${this.clock.now()}::timestamp)
        ON CONFLICT (id) DO NOTHING`;
      if (inserted === 1) return { leaseUntil };
      const held = await this.load<{ objectId: string | null; leaseUntil?: string; fingerprint?: string }>(idemId, "idempotency");
      if (held?.objectId) return { objectId: held.objectId, fingerprint: held.fingerprint ?? null };
      if (held && (!held.leaseUntil || new Date(held.leaseUntil) <= this.clock.now())) {
        // The request holding it died: take it over (of several retries, one wins).
        const taken = await this.db.$executeRaw`
          UPDATE sandbox_objects SET data = jsonb_build_object('objectId', NULL, 'leaseUntil', ${leaseUntil}::text), updated_at = ${this.clock.now()}::timestamp
           WHERE id = ${idemId} AND kind = 'idempotency' AND data->>'objectId' IS NULL
             AND data->>'leaseUntil' IS NOT DISTINCT FROM ${held.leaseUntil ?? null}::text`;
        if (taken === 1) return { leaseUntil };
        continue;
      }
      if (!held) continue; // released by a failed request: claim it anew
      if (waited >= 10_000) {
        throw new SandboxCardError("idempotency_key_in_use", "Another request with this idempotency key is still in progress.");
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
