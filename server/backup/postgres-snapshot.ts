import path from "node:path";
import type { Db } from "@server/db/client";
import { connectionOf, requireToolVersion, runTool } from "./pg-tools";
import { onlyRow, readSnapshotFacts, type DatabaseSnapshot } from "./snapshot-facts";

/*
 * PostgreSQL, while any number of servers write: one REPEATABLE READ, READ ONLY transaction exports its snapshot,
 * reads the media keys and counts in it, and stays open while pg_dump dumps that same snapshot (--snapshot). The
 * dump and the list of files the archive carries are then one state, whatever was saved meanwhile.
 */

export async function serverMajorVersion(db: Db): Promise<{ version: string; major: number }> {
  const { rows } = await db.query<{ version: string; num: string }>(
    "SELECT current_setting('server_version') AS version, current_setting('server_version_num') AS num",
  );
  const { version, num } = onlyRow(rows);
  return { version, major: Math.floor(Number(num) / 10_000) };
}

export async function snapshotPostgres(db: Db, databaseUrl: string, workDir: string): Promise<DatabaseSnapshot> {
  const server = await serverMajorVersion(db);
  const pgDumpVersion = await requireToolVersion("pg_dump", server.major, "the PostgreSQL server");
  const file = path.join(workDir, "postgres.dump");
  const { dbname, env } = connectionOf(databaseUrl);
  const facts = await db.transaction(async (tx) => {
    await tx.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    const snapshot = onlyRow((await tx.query<{ id: string }>("SELECT pg_export_snapshot() AS id")).rows).id;
    const read = await readSnapshotFacts(<T>(sql: string, params?: unknown[]) => tx.query<T>(sql, params));
    await runTool("pg_dump", ["--format=custom", `--snapshot=${snapshot}`, "--no-password", `--file=${file}`, `--dbname=${dbname}`], env);
    return read;
  });
  return { kind: "postgres", file, facts, serverVersion: server.version, pgDumpVersion };
}
