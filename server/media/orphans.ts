import type { Queryable } from "@server/db/client";
import type { MediaStorage } from "./storage";

/*
 * Files in the store that no media version names: what an attempt that lost its job left after putting its outputs
 * in, or a server stopped between putting an upload in and committing its row. A file arrives in files/ with a fresh
 * last change (file-system-store.ts touches it) and only ever becomes named within the save that put it there, so
 * an unnamed file older than ORPHAN_MIN_AGE_MS stays unnamed: removing it is safe on any number of servers.
 */

/** Well past the longest save or job recording that puts a file in before its row commits. */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
const BATCH = 2000;

/** Of `keys`, those no media version names (its file, rendition, stills or custom still). */
async function unnamed(db: Queryable, keys: string[]): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>(
    `WITH candidates AS (SELECT unnest($1::text[]) AS key),
     named AS (
       SELECT storage_key AS key FROM media
       UNION ALL SELECT details->>'renditionKey' FROM media WHERE details ? 'renditionKey'
       UNION ALL SELECT details->>'customStillKey' FROM media WHERE details ? 'customStillKey'
       UNION ALL SELECT jsonb_array_elements_text(details->'stillKeys') FROM media WHERE jsonb_typeof(details->'stillKeys') = 'array'
     )
     SELECT c.key FROM candidates c WHERE NOT EXISTS (SELECT 1 FROM named n WHERE n.key = c.key)`,
    [keys],
  );
  return rows.map((row) => row.key);
}

/** Removes files of the store older than `minAgeMs` that no media version names; the count removed. */
export async function sweepOrphanedFiles(db: Queryable, storage: MediaStorage, minAgeMs = ORPHAN_MIN_AGE_MS): Promise<number> {
  let removed = 0;
  let batch: string[] = [];
  const removeUnnamed = async () => {
    for (const key of await unnamed(db, batch)) {
      await storage.removeKey(key);
      removed += 1;
    }
    batch = [];
  };
  const now = Date.now();
  for await (const { name, modifiedMs } of storage.store.list("files")) {
    if (now - modifiedMs < minAgeMs) continue;
    batch.push(name);
    if (batch.length >= BATCH) await removeUnnamed();
  }
  if (batch.length) await removeUnnamed();
  return removed;
}
