import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import type { Config } from "@server/config";
import type { Db } from "@server/db/client";
import { addBuffer, addEntry, type ManifestFile } from "@server/delivery/tar-entries";
import type { MediaStorage } from "@server/media/storage";
import { version as vitrineVersion } from "../../package.json";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupError,
  DATABASE_ENTRY,
  DATABASE_NAME,
  describeCounts,
  formatBytes,
  MANIFEST_ENTRY,
  mediaEntry,
  type BackupManifest,
} from "./archive";
import { snapshotPglite } from "./pglite-snapshot";
import { snapshotPostgres } from "./postgres-snapshot";
import type { DatabaseSnapshot } from "./snapshot-facts";

/*
 * `npm run vitrine -- backup --out F` (docs/backup.md): a snapshot of the database (pglite-snapshot.ts,
 * postgres-snapshot.ts) and the media files it names, written as one tar archive (archive.ts) to F.part, renamed to F
 * once whole. The database's file is written next to F first (a tar entry needs its size); media files stream from
 * the store into the archive a chunk at a time.
 */

export interface BackupContext {
  config: Config;
  storage: MediaStorage;
}

export interface BackupResult {
  out: string;
  bytes: number;
  manifest: BackupManifest;
}

function takeSnapshot(db: Db, config: Config, workDir: string): Promise<DatabaseSnapshot> {
  if (db.kind === "pglite") return snapshotPglite(db, path.resolve(config.DATA_DIR, "pgdata"), workDir);
  if (!config.DATABASE_URL) throw new Error("A PostgreSQL backup needs DATABASE_URL");
  return snapshotPostgres(db, config.DATABASE_URL, workDir);
}

/** The media file under `key`, streamed into the archive; false when the store no longer has it. */
async function addMediaFile(pack: tar.Pack, storage: MediaStorage, key: string, files: ManifestFile[]): Promise<boolean> {
  const stored = await storage.head(key);
  if (!stored) return false;
  let stream;
  try {
    stream = await storage.read(key);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return false; // removed since the head
    throw error;
  }
  files.push(await addEntry(pack, mediaEntry(key), stored.size, new Date(stored.modifiedMs), stream));
  return true;
}

async function writeArchive(pack: tar.Pack, snapshot: DatabaseSnapshot, storage: MediaStorage): Promise<BackupManifest> {
  const createdAt = new Date();
  const files: ManifestFile[] = [];
  const { size } = await stat(snapshot.file);
  files.push(await addEntry(pack, DATABASE_ENTRY[snapshot.kind], size, createdAt, createReadStream(snapshot.file)));
  const missingMedia: string[] = [];
  for (const key of snapshot.facts.mediaKeys) {
    if (!(await addMediaFile(pack, storage, key, files))) missingMedia.push(key);
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    vitrineVersion,
    createdAt: createdAt.toISOString(),
    database: {
      kind: snapshot.kind,
      migration: snapshot.facts.migration,
      ...(snapshot.serverVersion ? { serverVersion: snapshot.serverVersion, pgDumpVersion: snapshot.pgDumpVersion } : {}),
    },
    counts: { ...snapshot.facts.counts, mediaFiles: files.length - 1 },
    missingMedia,
    files,
  };
  await addBuffer(pack, MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), createdAt);
  pack.finalize();
  return manifest;
}

export async function backup(db: Db, context: BackupContext, out: string): Promise<BackupResult> {
  const folder = path.dirname(out);
  const isFolder = await stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isFolder) throw new BackupError(`There is no folder ${folder} to write the backup in.`);
  const partial = `${out}.part`;
  // Next to the output: where the operator made room for the backup.
  const workDir = await mkdtemp(path.join(folder, ".vitrine-backup-"));
  try {
    const snapshot = await takeSnapshot(db, context.config, workDir);
    const pack = tar.pack();
    pack.on("error", () => undefined); // reported through `writing`
    const writing = pipeline(pack, createWriteStream(partial));
    const written = writeArchive(pack, snapshot, context.storage);
    written.catch((error: unknown) => pack.destroy(error instanceof Error ? error : new Error(String(error))));
    const [, manifest] = await Promise.all([writing, written]);
    await rename(partial, out);
    return { out, bytes: (await stat(out)).size, manifest };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

export function describeBackup(result: BackupResult): string {
  const { manifest } = result;
  const databaseBytes = manifest.files[0]?.size ?? 0;
  const lines = [
    `Backup of ${DATABASE_NAME[manifest.database.kind]} written to ${result.out} (${formatBytes(result.bytes)}; the database ${formatBytes(databaseBytes)}):`,
    `${describeCounts(manifest.counts)}.`,
  ];
  if (manifest.missingMedia.length)
    lines.push(
      `${manifest.missingMedia.length} file(s) the database names were no longer in the media store: listed as missingMedia in the manifest.`,
    );
  return lines.join("\n");
}
