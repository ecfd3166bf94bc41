import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { openPglite, openPostgres, type Db } from "@server/db/client";
import type { RunningServer, StartOptions } from "@server/app";
import { withDatabase } from "./global-setup";

export const TEST_SESSION_SECRET = "test-secret-that-is-at-least-32-characters-long";

export interface TestDatabase {
  db: Db;
  dataDir: string;
  databaseUrl?: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file: PGlite copied from the template, or a PostgreSQL clone of it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "vitrine-test-"));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (process.env.VITRINE_TEST_DB === "postgres" && adminUrl) {
    const name = `vitrine_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject("pgTemplate")}`);
    await admin.end();
    const databaseUrl = withDatabase(adminUrl, name);
    const db = openPostgres(databaseUrl);
    return {
      db,
      dataDir,
      databaseUrl,
      async drop() {
        await db.close().catch(() => undefined);
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  cpSync(inject("pgliteTemplate"), path.join(dataDir, "pgdata"), { recursive: true });
  const db = await openPglite(dataDir);
  return {
    db,
    dataDir,
    async drop() {
      await db.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A new, empty PostgreSQL database beside TEST_DATABASE_URL (not the suite's migrated template: what a first start,
 * or a restore, meets): its URL and how to drop it.
 */
export async function createEmptyPostgresDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export interface TestServer extends RunningServer {
  database: TestDatabase;
  /** Stops the server and drops its database. */
  stop(): Promise<void>;
}

type BuiltServer = {
  startServer(options: StartOptions): Promise<RunningServer>;
  loadConfig(env: NodeJS.ProcessEnv): RunningServer["config"];
};

/** The production build (npm test builds it first), served in-process over real HTTP on a free port. */
export async function startTestServer(
  options: { env?: Record<string, string>; db?: Db; seed?: boolean; logger?: StartOptions["logger"]; build?: StartOptions["build"] } = {},
): Promise<TestServer> {
  const database = await createTestDatabase();
  const built = (await import(/* @vite-ignore */ path.resolve(process.env.VITRINE_BUILD_DIR ?? "build", "server/index.js"))) as BuiltServer;
  const config = built.loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: database.dataDir,
    SESSION_SECRET: TEST_SESSION_SECRET,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    // A request a test left unanswered holds the server's stop this long at most, not the 30 s of a real server.
    SHUTDOWN_GRACE_MS: "5000",
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...options.env,
  });
  const server = await built.startServer({
    config,
    db: options.db ?? database.db,
    seed: options.seed ?? false,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.build ? { build: options.build } : {}),
  });
  return {
    ...server,
    database,
    async stop() {
      await server.close();
      await database.drop();
    },
  };
}
