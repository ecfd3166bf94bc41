import { rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@server/db/client";
import { copyDirectory, packDirectory } from "./directory-archive";
import { readSnapshotFacts, type DatabaseSnapshot } from "./snapshot-facts";

/*
 * The embedded database, while the server that holds it runs. PGlite is one single-threaded Postgres: while
 * `exclusively` holds its locks, no statement runs and nothing writes to the data directory. In that window a
 * CHECKPOINT puts every committed change into the data files, the media keys and counts are read, and the
 * directory is copied (a local copy: the server pauses only for that); the copy is packed after the locks are
 * let go. PGlite's own dumpDataDir would hold the whole archive in memory.
 */

export async function snapshotPglite(db: Db, pgdataDir: string, workDir: string): Promise<DatabaseSnapshot> {
  if (!db.exclusively) throw new Error("The embedded database's backup needs PGlite's handle (db.exclusively)");
  const copy = path.join(workDir, "pgdata");
  const facts = await db.exclusively(async (query) => {
    await query("CHECKPOINT");
    const read = await readSnapshotFacts(query);
    await copyDirectory(pgdataDir, copy);
    return read;
  });
  const file = path.join(workDir, "pglite.tar.gz");
  try {
    await stat(path.join(copy, "PG_VERSION"));
    await packDirectory(copy, file);
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
  return { kind: "pglite", file, facts };
}
