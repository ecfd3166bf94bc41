import type { BackupManifest, DatabaseKind } from "./archive";
import type { BackupCounts } from "./snapshot-facts";

/** Where a restore puts the database: an empty data directory (PGlite) or an empty PostgreSQL database. */
export interface RestoreTarget {
  kind: DatabaseKind;
  /** Restores the database from the archive's (verified) database entry, written to a local file. */
  install(databaseFile: string, manifest: BackupManifest): Promise<void>;
  /** The restored database's counts, as the manifest states them. */
  counts(): Promise<BackupCounts>;
  /** Undoes a restore that failed before it was complete: the target is empty again. */
  discard(): Promise<void>;
  /** Lets go of the target (the data directory's claim, the connection). */
  release(): Promise<void>;
}
