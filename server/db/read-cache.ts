import type { Db } from "./client";
import { BoundedMap } from "@core/bounded-map";

/**
 * What every request reads, kept per process on PGlite: the session's user and the buckets. Only PGlite: one
 * process owns its data directory (server/db/data-dir-lock.ts, the CLI's commands run in that process), so every
 * change reaches this process's database, whose triggers (migration 026) send a notice that empties the topic
 * before the changing statement's promise settles. On PostgreSQL another server's change would arrive late, if at
 * all: there nothing is cached.
 */
export type ReadCacheTopic = "sessions" | "buckets";

export const READ_CACHE_CHANNEL = "vitrine_read_cache";

/** A bound on each topic (sessions are many): past it the topic starts again from empty. */
const MAX_ENTRIES_PER_TOPIC = 10_000;

interface TopicState {
  /** Counts the changes: a value read before a change must not be kept after it. */
  generation: number;
  entries: Map<string, unknown>;
}

export class ReadCache {
  readonly #topics = new Map<ReadCacheTopic, TopicState>();
  /** Once no notices come (the server stopped listening), every read goes to the database. */
  #listening = true;

  #topic(topic: ReadCacheTopic): TopicState {
    let state = this.#topics.get(topic);
    if (!state) {
      state = { generation: 0, entries: new BoundedMap(MAX_ENTRIES_PER_TOPIC) };
      this.#topics.set(topic, state);
    }
    return state;
  }

  /**
   * The cached value of `key`, else `load()`'s, kept unless it is null or a change came while it was read.
   * `usable` refuses a cached value that has run out (a session past its expiry): it is read again.
   * Values are frozen: every request shares them.
   */
  async read<T>(
    topic: ReadCacheTopic,
    key: string,
    load: () => Promise<T | null>,
    usable: (value: T) => boolean = () => true,
  ): Promise<T | null> {
    if (!this.#listening) return load();
    const state = this.#topic(topic);
    const cached = state.entries.get(key) as T | undefined;
    if (cached !== undefined) {
      if (usable(cached)) return cached;
      state.entries.delete(key);
    }
    const generation = state.generation;
    const value = await load();
    if (value === null || state.generation !== generation) return value;
    state.entries.set(key, deepFreeze(value));
    return value;
  }

  /** Forgets the topic, and whatever of it is being read now. */
  invalidate(topic: ReadCacheTopic): void {
    const state = this.#topic(topic);
    state.generation += 1;
    state.entries.clear();
  }

  invalidateAll(): void {
    for (const topic of this.#topics.keys()) this.invalidate(topic);
  }

  stopListening(): void {
    this.#listening = false;
    this.invalidateAll();
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const TOPICS = new Set<string>(["sessions", "buckets"] satisfies ReadCacheTopic[]);

/**
 * The database with a read cache that its notices keep true (PGlite), and how to stop listening; the database as
 * it is on PostgreSQL.
 */
export async function withReadCache(db: Db): Promise<{ db: Db; stop(): Promise<void> }> {
  if (db.kind !== "pglite" || !db.listen) return { db, stop: () => Promise.resolve() };
  const cache = new ReadCache();
  const unlisten = await db.listen(READ_CACHE_CHANNEL, (topic) => {
    if (TOPICS.has(topic)) cache.invalidate(topic as ReadCacheTopic);
    else cache.invalidateAll();
  });
  return {
    db: { ...db, readCache: cache },
    async stop() {
      cache.stopListening();
      await unlisten().catch(() => undefined);
    },
  };
}
