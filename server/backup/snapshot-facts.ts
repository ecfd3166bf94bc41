import type { Queryable } from "@server/db/client";

/*
 * What a backup reads from the database in the same snapshot as its dump: the media files that snapshot names (so
 * the archive holds exactly those), the counts the manifest states and the schema's version. A restore reads the
 * counts again from the restored database and compares.
 */

export interface BackupCounts {
  users: number;
  buckets: number;
  documents: number;
  versions: number;
  /** Media rows (one per media version). */
  media: number;
}

export interface Migration {
  version: number;
  name: string;
}

export interface SnapshotFacts {
  counts: BackupCounts;
  migration: Migration | null;
  /** Every stored file a media version names: its file, rendition, stills and custom still (as server/media/orphans.ts). */
  mediaKeys: string[];
}

/** A database's state written to a local file (the archive's database entry), with what was read in that state. */
export interface DatabaseSnapshot {
  kind: "pglite" | "postgres";
  file: string;
  facts: SnapshotFacts;
  /** PostgreSQL only: the server's version, and the major version of the pg_dump that wrote the file. */
  serverVersion?: string;
  pgDumpVersion?: number;
}

type Query = Queryable["query"];

const MEDIA_KEYS_SQL = `SELECT DISTINCT key FROM (
    SELECT storage_key AS key FROM media
    UNION ALL SELECT details->>'renditionKey' FROM media WHERE details ? 'renditionKey'
    UNION ALL SELECT details->>'customStillKey' FROM media WHERE details ? 'customStillKey'
    UNION ALL SELECT jsonb_array_elements_text(details->'stillKeys') FROM media WHERE jsonb_typeof(details->'stillKeys') = 'array'
  ) named
  WHERE key IS NOT NULL AND key <> ''
  ORDER BY key`;

const COUNTS_SQL = `SELECT
    (SELECT count(*) FROM users)::int AS users,
    (SELECT count(*) FROM buckets)::int AS buckets,
    (SELECT count(*) FROM contents)::int AS documents,
    (SELECT count(*) FROM versions)::int AS versions,
    (SELECT count(*) FROM media)::int AS media`;

/** The one row a statement such as `SELECT count(*) …` answers. */
export function onlyRow<T>(rows: T[]): T {
  const [row] = rows;
  if (!row) throw new Error("The database answered no row");
  return row;
}

export async function readCounts(query: Query): Promise<BackupCounts> {
  return onlyRow((await query<BackupCounts>(COUNTS_SQL)).rows);
}

export async function readSnapshotFacts(query: Query): Promise<SnapshotFacts> {
  const { rows: keys } = await query<{ key: string }>(MEDIA_KEYS_SQL);
  const { rows: migrations } = await query<Migration>("SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1");
  return { counts: await readCounts(query), migration: migrations[0] ?? null, mediaKeys: keys.map((row) => row.key) };
}
