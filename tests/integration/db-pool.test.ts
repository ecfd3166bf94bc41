import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";
import { startBuiltServer } from "@tests/support/fixtures";

const SOCKET_DIR = "/var/run/postgresql";

/*
 * Pooled PostgreSQL clients are reused by one transaction after another: what a transaction attaches to its
 * client (the handler that keeps a lost connection from crashing the process) must go with it, or listeners pile
 * up on long-lived clients (Node warns at 11). On PGlite the same transactions simply run.
 */

let database: TestDatabase;
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(async () => {
  database = await createTestDatabase();
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await database.drop();
});

describe("transactions on pooled connections", () => {
  it("leave nothing attached to the connection after 40 transactions in a row", async () => {
    for (let i = 0; i < 40; i++) {
      const answer = await database.db.transaction((tx) => tx.query<{ n: number }>("SELECT $1::int AS n", [i]));
      expect(answer.rows[0]!.n).toBe(i);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning").map(String)).toEqual([]);
  });
});

describe.skipIf(!postgresUnderTest() || !existsSync(SOCKET_DIR))("a local PostgreSQL over its Unix socket", () => {
  it("serves the app when DATABASE_URL names the socket directory as host", async () => {
    const url = new URL(database.databaseUrl!);
    const socketUrl = `postgresql://${url.username || "postgres"}@${url.pathname}?host=${encodeURIComponent(SOCKET_DIR)}`;
    const server = await startBuiltServer({ DATA_DIR: database.dataDir, DATABASE_URL: socketUrl });
    try {
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as { database: string; databaseKind: string };
      expect(health).toMatchObject({ database: "ok", databaseKind: "postgres" });
      const { rows } = await server.db.query<{ local: boolean }>("SELECT inet_server_addr() IS NULL AS local");
      expect(rows[0]!.local).toBe(true); // no TCP address: the connection is the Unix socket
    } finally {
      await server.close();
    }
  });
});

function postgresUnderTest(): string | undefined {
  return process.env.VITRINE_TEST_DB === "postgres" ? process.env.TEST_DATABASE_URL : undefined;
}
