import { openPostgres } from "@server/db/client";
import { BackupError, type BackupManifest } from "./archive";
import { connectionOf, requireToolVersion, runTool } from "./pg-tools";
import { serverMajorVersion } from "./postgres-snapshot";
import type { RestoreTarget } from "./restore-target";
import { onlyRow, readCounts } from "./snapshot-facts";

/*
 * PostgreSQL's target: a database without tables (CREATE DATABASE, nothing else), filled by pg_restore in one
 * transaction, so that a restore that fails leaves it as empty as it was.
 */

const TABLES_SQL = `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND (s.nspname = 'public' OR c.relname = 'schema_migrations')
    AND s.nspname NOT IN ('pg_catalog', 'information_schema')`;

export async function postgresTarget(databaseUrl: string): Promise<RestoreTarget> {
  const db = openPostgres(databaseUrl, { poolSize: 1 });
  try {
    const tables = onlyRow((await db.query<{ n: number }>(TABLES_SQL)).rows).n;
    if (tables > 0)
      throw new BackupError(
        `The database of DATABASE_URL is not empty (it has ${tables} tables): a restore goes into an empty database. Create a new one (CREATE DATABASE …), point DATABASE_URL at it and try again.`,
      );
    await requireToolVersion("pg_restore", (await serverMajorVersion(db)).major, "the PostgreSQL server");
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    kind: "postgres",
    async install(databaseFile: string, manifest: BackupManifest) {
      if (manifest.database.pgDumpVersion)
        await requireToolVersion("pg_restore", manifest.database.pgDumpVersion, "the pg_dump that made the backup");
      const { dbname, env } = connectionOf(databaseUrl);
      await runTool(
        "pg_restore",
        ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", "--no-password", `--dbname=${dbname}`, databaseFile],
        env,
      );
    },
    counts: () => readCounts(<T>(sql: string, params?: unknown[]) => db.query<T>(sql, params)),
    // pg_restore ran in one transaction: a failed one left nothing.
    discard: () => Promise.resolve(),
    release: () => db.close(),
  };
}
