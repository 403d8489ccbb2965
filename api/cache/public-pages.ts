/**
 * Cache of anonymous public business page reads: the GraphQL response cache (api/graphql/yoga.ts) and the
 * REST page route (rest-compat/pages.ts) keep their entries here, tagged by business, and one function,
 * `publicPageChanged`, drops them. Every domain write that changes what a public page shows calls it after
 * its commit, whichever adapter made the write.
 *
 * Each server process keeps its entries in memory (an LRU with a lifetime of PUBLIC_CACHE_TTL_SECONDS). With
 * REDIS_URL the processes tell each other about changes over Redis pub/sub: an edit made through any process
 * drops the entries of every process within the delivery time of one message. While a process is not
 * subscribed (starting, Redis unreachable) it serves nothing from its cache, and it empties its cache when
 * the subscription comes back, so a missed message cannot leave a stale page behind. Without Redis, an edit
 * reaches the other processes when their entries expire. The lifetime also bounds how stale a page's member
 * count may be (memberships change without any page edit).
 *
 * An entry computed while a change was being made is not stored: a read that started before the change's
 * commit may have seen the old rows (see `GuardedStore`).
 */
import { createHash, randomUUID } from "node:crypto";
import { createInMemoryCache, type Cache } from "@graphql-yoga/plugin-response-cache";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { Redis } from "ioredis";
import type { ExecutionResult } from "graphql";
import type { Log } from "../shared/log.ts";

/** Entries kept per process (GraphQL responses and REST pages together); the oldest go first. */
const MAX_ENTRIES = 5000;
/** Redis channel of the change messages, one per database (hashed: no credentials in Redis). */
const channelFor = (database: string) => `membership:public-page-changed:${createHash("sha256").update(database).digest("base64url").slice(0, 16)}`;
/** How long a write waits for Redis to take its change message before it gives up (logged). */
const PUBLISH_TIMEOUT_MS = 1000;

/** The tag of a business's entries: the entity the GraphQL response cache records for its Business node. */
const businessEntity = (businessId: number) => ({ typename: "Business", id: encodeGlobalID("Business", String(businessId)) });

/** A serialised public page with its entity tag. */
export interface CachedPage {
  body: string;
  etag: string;
}

/** A strong ETag of a response body (same body, same tag, in every process). */
function etagOf(body: string): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

/**
 * The in-memory store with a generation guard against the read/write race: a miss notes the generation
 * (number of changes seen so far); the result computed after that miss is stored only if no change came in
 * meanwhile. The envelop response cache calls get on every request and set after a miss.
 */
class GuardedStore implements Cache {
  private inner: Cache;
  private generation = 0;
  private readonly missedAt = new Map<string, number>();

  private readonly usable: () => boolean;
  private readonly max: number;

  constructor(usable: () => boolean, max: number) {
    this.usable = usable;
    this.max = max;
    this.inner = createInMemoryCache({ max });
  }

  get(id: string) {
    if (!this.usable()) return null;
    const hit = this.inner.get(id) as ExecutionResult | null | undefined;
    if (hit == null && !this.missedAt.has(id)) {
      if (this.missedAt.size >= this.max) this.missedAt.clear();
      this.missedAt.set(id, this.generation);
    }
    return hit ?? null;
  }

  set(id: string, result: ExecutionResult, entities: Iterable<{ typename: string; id?: string | number }>, ttl: number) {
    const since = this.missedAt.get(id);
    this.missedAt.delete(id);
    if (since !== this.generation || !this.usable()) return;
    // The in-memory store answers synchronously (its type allows a promise, for other stores).
    void this.inner.set(id, result, entities, ttl);
  }

  invalidate(entities: Iterable<{ typename: string; id?: string | number }>) {
    this.generation++;
    void this.inner.invalidate(entities);
  }

  clear() {
    this.generation++;
    this.inner = createInMemoryCache({ max: this.max });
  }
}

/** A change message between processes: one business's pages, or every public page (businessId null). */
interface ChangeMessage {
  from: string;
  businessId: number | null;
}

export interface PublicPageCacheOptions {
  /** Lifetime of an entry in ms; 0 = caching off (every read computes, nothing is stored). */
  ttlMs: number;
  /** Redis shared by the processes; unset = this process only. */
  redisUrl?: string;
  /** The database the processes share (its URL or data folder): processes tell each other only within it. */
  database: string;
  log: Log;
}

export class PublicPageCache {
  readonly ttlMs: number;
  /** The store the GraphQL response cache plugin reads and writes. */
  readonly store: GuardedStore;
  private readonly instanceId = randomUUID();
  private readonly channel: string;
  private readonly log: Log;
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  /** Without Redis always true; with Redis, true while this process receives change messages. */
  private subscribed: boolean;
  private closed = false;

  constructor(opts: PublicPageCacheOptions) {
    this.ttlMs = opts.ttlMs;
    this.log = opts.log;
    this.channel = channelFor(opts.database);
    this.subscribed = !opts.redisUrl;
    this.store = new GuardedStore(() => this.enabled, MAX_ENTRIES);
    if (opts.redisUrl && opts.ttlMs > 0) this.connect(opts.redisUrl);
  }

  /** Whether entries may be served and stored now. */
  get enabled(): boolean {
    return this.ttlMs > 0 && this.subscribed && !this.closed;
  }

  private connect(url: string) {
    // Fail fast instead of queueing: a write never waits on Redis beyond PUBLISH_TIMEOUT_MS.
    this.publisher = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    this.subscriber = new Redis(url, { autoResubscribe: false, maxRetriesPerRequest: null });
    this.publisher.on("error", (e: Error) => this.log.warn({ err: e.message }, "public page cache: Redis publisher error"));
    this.subscriber.on("error", (e: Error) => this.log.warn({ err: e.message }, "public page cache: Redis subscriber error"));
    this.subscriber.on("ready", () => {
      this.subscriber!.subscribe(this.channel).then(
        () => {
          // Messages sent while this process was not listening are lost: start empty.
          this.store.clear();
          this.subscribed = true;
        },
        (e: Error) => this.log.warn({ err: e.message }, "public page cache: Redis subscribe failed"),
      );
    });
    this.subscriber.on("close", () => {
      if (this.subscribed) this.log.warn("public page cache: Redis connection lost; serving uncached until it is back");
      this.subscribed = false;
    });
    this.subscriber.on("message", (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      try {
        const msg = JSON.parse(raw) as ChangeMessage;
        if (msg.from !== this.instanceId) this.dropLocal(msg.businessId);
      } catch {
        this.store.clear();
      }
    });
  }

  /** Resolves once the cache serves entries (with Redis: subscribed and able to publish), or after `timeoutMs`. */
  async ready(timeoutMs = 5000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    const up = () => this.enabled && (!this.publisher || this.publisher.status === "ready");
    while (!up() && this.ttlMs > 0 && !this.closed && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return up();
  }

  private dropLocal(businessId: number | null) {
    if (businessId == null) this.store.clear();
    else this.store.invalidate([businessEntity(businessId)]);
  }

  /** Drops one business's cached pages (or all, for null) here and, with Redis, in every other process. */
  async changed(businessId: number | null): Promise<void> {
    this.dropLocal(businessId);
    if (!this.publisher) return;
    const message: ChangeMessage = { from: this.instanceId, businessId };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.publisher.publish(this.channel, JSON.stringify(message)),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("timed out")), PUBLISH_TIMEOUT_MS))),
      ]);
    } catch (e) {
      // The write itself has committed; the other processes' entries expire within the lifetime.
      this.log.warn({ err: (e as Error).message, businessId }, "public page cache: could not tell the other processes about a change");
    } finally {
      clearTimeout(timer);
    }
  }

  /** A cached REST page by key, or null. */
  getPage(key: string): CachedPage | null {
    const hit = this.store.get(`rest:${key}`) as { data?: CachedPage } | null;
    return hit?.data ?? null;
  }

  /** Stores a REST page under `key`, tagged with its business (dropped by `changed(businessId)`). */
  setPage(key: string, businessId: number, page: CachedPage): void {
    this.store.set(`rest:${key}`, { data: page as unknown as Record<string, unknown> }, [businessEntity(businessId)], this.ttlMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    // Nothing to flush: a pending change message is best effort (see changed), so no QUIT round trip.
    this.publisher?.disconnect();
    this.subscriber?.disconnect();
  }
}

/**
 * A public page has changed: the business's cached pages, or every cached public page when `businessId`
 * is null (the home page, which businesses without a page of their own show; a new business). Call it
 * after the write has committed.
 */
export async function publicPageChanged(ctx: { publicCache?: PublicPageCache }, businessId: number | null): Promise<void> {
  await ctx.publicCache?.changed(businessId);
}

/**
 * A public page as a serialised body with its ETag, from the cache when present; `load` computes it on a
 * miss and names the business it belongs to.
 */
export async function cachedPublicPage(
  ctx: { publicCache?: PublicPageCache },
  key: string,
  load: () => Promise<{ businessId: number; value: unknown }>,
): Promise<CachedPage> {
  const hit = ctx.publicCache?.getPage(key);
  if (hit) return hit;
  const { businessId, value } = await load();
  const body = JSON.stringify(value);
  const page = { body, etag: etagOf(body) };
  ctx.publicCache?.setPage(key, businessId, page);
  return page;
}
