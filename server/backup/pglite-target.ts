import { existsSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { openPglite } from "@server/db/client";
import { claimDataDir, DataDirInUseError, type DataDirLock } from "@server/db/data-dir-lock";
import { BackupError } from "./archive";
import { unpackDirectory } from "./directory-archive";
import type { RestoreTarget } from "./restore-target";
import { readCounts } from "./snapshot-facts";

/*
 * The embedded database's target: DATA_DIR/pgdata absent or empty, claimed for the whole restore (as a server
 * claims it, data-dir-lock.ts), so that no server starts on it halfway.
 */

async function isEmpty(directory: string): Promise<boolean> {
  try {
    return (await readdir(directory)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

async function claim(dataDir: string, pgdata: string): Promise<DataDirLock> {
  try {
    return await claimDataDir(dataDir, pgdata);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    throw new BackupError(
      `Another Vitrine process${error.holderPid ? ` (pid ${error.holderPid})` : ""} is using ${dataDir}: a restore needs a data directory no process uses. Stop it first.`,
    );
  }
}

export async function pgliteTarget(configuredDataDir: string): Promise<RestoreTarget> {
  const dataDir = path.resolve(configuredDataDir);
  const pgdata = path.join(dataDir, "pgdata");
  if (!(await isEmpty(pgdata)))
    throw new BackupError(
      `${pgdata} is not empty: a restore goes into an empty data directory. Set DATA_DIR to a new folder (or move this one away) and try again.`,
    );
  const created = !existsSync(pgdata);
  await mkdir(pgdata, { recursive: true, mode: 0o700 });
  let lock: DataDirLock | null;
  try {
    lock = await claim(dataDir, pgdata);
  } catch (error) {
    if (created) await rm(pgdata, { recursive: true, force: true });
    throw error;
  }
  const letGo = async () => {
    await lock?.release();
    lock = null;
  };
  return {
    kind: "pglite",
    async install(databaseFile) {
      await unpackDirectory(databaseFile, pgdata);
      if (!existsSync(path.join(pgdata, "PG_VERSION")))
        throw new BackupError("The backup's database entry holds no PGlite data directory (no PG_VERSION): it is damaged.");
    },
    async counts() {
      await letGo(); // the database claims the directory itself
      const db = await openPglite(dataDir);
      try {
        return await readCounts(<T>(sql: string, params?: unknown[]) => db.query<T>(sql, params));
      } finally {
        await db.close();
      }
    },
    async discard() {
      if (created) await rm(pgdata, { recursive: true, force: true });
      else for (const name of await readdir(pgdata)) await rm(path.join(pgdata, name), { recursive: true, force: true });
    },
    release: letGo,
  };
}
