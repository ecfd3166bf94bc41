import type { ManifestFile } from "@server/delivery/tar-entries";
import type { BackupCounts, Migration } from "./snapshot-facts";

/*
 * A backup is one tar archive: the database first (database/pglite.tar.gz: the embedded database's data directory,
 * as PGlite's dumpDataDir lays it out; or database/postgres.dump: pg_dump's custom format), then media/<key> for
 * every stored file the database names, then manifest.json, last: what was backed up and every other entry's size
 * and SHA-256 (docs/backup.md).
 */

export const BACKUP_FORMAT = "vitrine-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = "manifest.json";
const MEDIA_PREFIX = "media/";

export type DatabaseKind = "pglite" | "postgres";

export const DATABASE_ENTRY: Record<DatabaseKind, string> = {
  pglite: "database/pglite.tar.gz",
  postgres: "database/postgres.dump",
};

export const DATABASE_NAME: Record<DatabaseKind, string> = {
  pglite: "the embedded database (PGlite)",
  postgres: "PostgreSQL",
};

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: typeof BACKUP_FORMAT_VERSION;
  vitrineVersion: string;
  createdAt: string;
  database: {
    kind: DatabaseKind;
    /** The newest migration the backed-up database had applied. */
    migration: Migration | null;
    /** PostgreSQL only: the server's version (server_version), and pg_dump's major version (pg_restore needs as new). */
    serverVersion?: string;
    pgDumpVersion?: number;
  };
  counts: BackupCounts & { mediaFiles: number };
  /** Files the database names that the media store no longer had when the backup was made: not in the archive. */
  missingMedia: string[];
  /** Every entry but manifest.json itself, in archive order. */
  files: ManifestFile[];
}

/** Generated storage keys (`<uuid>.<ext>`, server/media/storage.ts newKey): anything else in an archive is refused. */
const STORAGE_KEY = /^[0-9a-f-]{36}(\.[a-z0-9]{1,10})?$/;

export const mediaEntry = (key: string): string => `${MEDIA_PREFIX}${key}`;

/** The storage key of a media entry; null for any other entry; throws on a name that is no storage key. */
export function mediaKeyOf(entry: string): string | null {
  if (!entry.startsWith(MEDIA_PREFIX)) return null;
  const key = entry.slice(MEDIA_PREFIX.length);
  if (!STORAGE_KEY.test(key)) throw new BackupError(`The backup holds an entry that is no media file: ${entry}.`);
  return key;
}

/** A refusal the operator can act on: the CLI prints its message alone, without a stack trace. */
export class BackupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "BackupError";
  }
}

/** The manifest, checked for what a restore relies on. */
export function parseManifest(text: string, source: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    throw new BackupError(`The manifest of ${source} is not valid JSON: the backup is damaged.`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${source} is not a Vitrine backup (its manifest.json is another format).`);
  if (manifest.formatVersion !== BACKUP_FORMAT_VERSION)
    throw new BackupError(
      `${source} is a backup of format version ${String(manifest.formatVersion)}; this Vitrine reads version ${BACKUP_FORMAT_VERSION}: restore it with a newer Vitrine.`,
    );
  const kind = manifest.database?.kind;
  if ((kind !== "pglite" && kind !== "postgres") || !Array.isArray(manifest.files) || !manifest.counts)
    throw new BackupError(`The manifest of ${source} is incomplete: the backup is damaged.`);
  return manifest as BackupManifest;
}

/** Binary units for the summaries. */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

export function describeCounts(counts: BackupCounts & { mediaFiles: number }): string {
  return (
    `${counts.users} users, ${counts.buckets} buckets, ${counts.documents} documents, ${counts.versions} versions, ` +
    `${counts.media} media versions (${counts.mediaFiles} files)`
  );
}
