import { createWriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Config } from "@server/config";
import type { MediaStorage } from "@server/media/storage";
import {
  BackupError,
  DATABASE_ENTRY,
  DATABASE_NAME,
  describeCounts,
  formatBytes,
  mediaKeyOf,
  parseManifest,
  type BackupManifest,
  type DatabaseKind,
} from "./archive";
import { pgliteTarget } from "./pglite-target";
import { postgresTarget } from "./postgres-target";
import { firstEntryName, readArchive, verifyEntries } from "./read-archive";
import type { RestoreTarget } from "./restore-target";
import type { BackupCounts } from "./snapshot-facts";

/*
 * `npm run vitrine -- restore --from F` (docs/backup.md): into an empty data directory or database, never through
 * a running server. The archive is read once: the database entry into a local file, each media file into the
 * configured store (whichever kind the backup came from). Only once manifest.json, the last entry, confirms every
 * entry's SHA-256 is the database restored; a failure before the end removes the media files put in so far.
 */

export interface RestoreResult {
  from: string;
  bytes: number;
  manifest: BackupManifest;
  /** Media files put into the store, and those it had already (the same keys: stored files never change). */
  placed: number;
  alreadyStored: number;
}

const otherKind = (kind: DatabaseKind): DatabaseKind => (kind === "pglite" ? "postgres" : "pglite");

function refuseOtherKind(configured: DatabaseKind, from: string): never {
  const setting = configured === "pglite" ? "set DATABASE_URL to an empty PostgreSQL database" : "unset DATABASE_URL";
  throw new BackupError(
    `${from} is a backup of ${DATABASE_NAME[otherKind(configured)]}, but this Vitrine is configured for ${DATABASE_NAME[configured]}: ${setting} to restore it.`,
  );
}

/** Writes each entry where it goes; what it did, for the clean-up of a failed restore. */
class EntrySink {
  databaseFile: string | undefined;
  readonly placed: string[] = [];
  alreadyStored = 0;

  constructor(
    private readonly storage: MediaStorage,
    private readonly kind: DatabaseKind,
    private readonly from: string,
  ) {}

  async take(name: string, body: Readable, index: number): Promise<void> {
    if (index === 0) return this.takeDatabase(name, body);
    const key = mediaKeyOf(name);
    if (!key) throw new BackupError(`The backup ${this.from} holds an unexpected entry (${name}): it is damaged.`);
    const temporary = this.storage.temporaryPath(path.extname(key).slice(1));
    await pipeline(body, createWriteStream(temporary));
    if (await this.storage.head(key)) {
      await this.storage.remove(temporary);
      this.alreadyStored += 1;
      return;
    }
    await this.storage.commit(temporary, key);
    this.placed.push(key);
  }

  private async takeDatabase(name: string, body: Readable): Promise<void> {
    if (name === DATABASE_ENTRY[otherKind(this.kind)]) refuseOtherKind(this.kind, this.from);
    if (name !== DATABASE_ENTRY[this.kind])
      throw new BackupError(`${this.from} is not a Vitrine backup (it does not begin with a database).`);
    this.databaseFile = this.storage.temporaryPath("database");
    await pipeline(body, createWriteStream(this.databaseFile));
  }

  async removePlaced(): Promise<void> {
    for (const key of this.placed) await this.storage.removeKey(key).catch(() => undefined);
  }
}

async function restoreInto(target: RestoreTarget, storage: MediaStorage, from: string): Promise<Omit<RestoreResult, "bytes">> {
  const sink = new EntrySink(storage, target.kind, from);
  try {
    const { entries, manifestText } = await readArchive(from, (name, body, index) => sink.take(name, body, index));
    const manifest = parseManifest(manifestText, from);
    if (manifest.database.kind !== target.kind) refuseOtherKind(target.kind, from);
    verifyEntries(entries, manifest.files, from);
    // The archive's first entry is its database (take refuses anything else), so an archive with entries has one.
    if (!sink.databaseFile) throw new BackupError(`${from} holds no database: it is not a Vitrine backup.`);
    await target.install(sink.databaseFile, manifest);
    return { from, manifest, placed: sink.placed.length, alreadyStored: sink.alreadyStored };
  } catch (error) {
    await sink.removePlaced();
    await target.discard();
    const message = error instanceof Error ? error.message : String(error);
    throw new BackupError(`${message}${/[.!?]$/.test(message) ? "" : "."} Nothing was restored.`, { cause: error });
  }
}

function differences(restored: BackupCounts, stated: BackupCounts): string[] {
  return (Object.keys(stated) as Array<keyof BackupCounts>)
    .filter((name) => name in restored && restored[name] !== stated[name])
    .map((name) => `${name}: ${restored[name]} restored, ${stated[name]} backed up`);
}

export async function restore(config: Config, storage: MediaStorage, from: string): Promise<RestoreResult> {
  const size = await stat(from).then(
    (info) => (info.isFile() ? info.size : null),
    () => null,
  );
  if (size === null) throw new BackupError(`There is no backup file at ${from}.`);
  const configured: DatabaseKind = config.DATABASE_URL ? "postgres" : "pglite";
  // Before the target is looked at: a PostgreSQL backup for an embedded database's target needs another setting.
  if ((await firstEntryName(from)) === DATABASE_ENTRY[otherKind(configured)]) refuseOtherKind(configured, from);
  const target = config.DATABASE_URL ? await postgresTarget(config.DATABASE_URL) : await pgliteTarget(config.DATA_DIR);
  try {
    const result = await restoreInto(target, storage, from);
    const differ = differences(await target.counts(), result.manifest.counts);
    if (differ.length)
      throw new BackupError(
        `The restored database does not hold what the manifest states (${differ.join("; ")}); it was left as restored.`,
      );
    return { ...result, bytes: size };
  } finally {
    await target.release();
  }
}

export function describeRestore(result: RestoreResult): string {
  const { manifest } = result;
  const migration = manifest.database.migration ? `, migration ${manifest.database.migration.version}` : "";
  const lines = [
    `Restored ${result.from} (${formatBytes(result.bytes)}; made ${manifest.createdAt} by Vitrine ${manifest.vitrineVersion}${migration}) into ${DATABASE_NAME[manifest.database.kind]}:`,
    `${describeCounts(manifest.counts)}; ${result.placed} files put into the media store${result.alreadyStored ? `, ${result.alreadyStored} it had already` : ""}.`,
  ];
  if (manifest.missingMedia.length)
    lines.push(`${manifest.missingMedia.length} file(s) were already missing when the backup was made (missingMedia in its manifest).`);
  lines.push("Start the server (it applies newer migrations), or run `npm run vitrine -- migrate`.");
  return lines.join("\n");
}
