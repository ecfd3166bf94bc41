import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "@server/app";
import { createTestBucket } from "@tests/support/fixtures";
import { startBuiltServer } from "@tests/support/fixtures";
import { createTestUser, get, postForm, signIn } from "@tests/support/http";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";
import { exited } from "@tests/support/media-server";

/*
 * Behind PgBouncer (Debian's, 1.18) in transaction pooling, as docs/operations.md describes: one server connection
 * serves every transaction of the app's four, so a named prepared statement made by one pooled client is met by the
 * others (it exists already, or not on the connection they get). With DATABASE_PREPARED_STATEMENTS=false the app
 * sends none and every request is answered.
 */

const PGBOUNCER = "/usr/sbin/pgbouncer";
const adminUrl = process.env.VITRINE_TEST_DB === "postgres" ? process.env.TEST_DATABASE_URL : undefined;

let folder: string;
let bouncer: ChildProcess;
let bouncerUrl: URL;
let database: TestDatabase;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startPgBouncer(target: URL): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  // PgBouncer will not run as root: -u hands it to the postgres user, who must read its files.
  chmodSync(folder, 0o755);
  writeFileSync(path.join(folder, "users.txt"), `"${decodeURIComponent(target.username) || "postgres"}" ""\n`, { mode: 0o644 });
  const ini = [
    "[databases]",
    `* = host=${target.hostname} port=${target.port || 5432}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${path.join(folder, "users.txt")}`,
    "pool_mode = transaction",
    "default_pool_size = 1",
    "max_client_conn = 100",
    "ignore_startup_parameters = extra_float_digits,options",
  ].join("\n");
  writeFileSync(path.join(folder, "pgbouncer.ini"), `${ini}\n`, { mode: 0o644 });
  const args = process.getuid?.() === 0 ? ["-u", "postgres", path.join(folder, "pgbouncer.ini")] : [path.join(folder, "pgbouncer.ini")];
  const child = spawn(PGBOUNCER, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PgBouncer did not start:\n${output}`)), 20_000);
    const check = () => {
      if (output.includes("process up")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", check);
    child.stderr.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`PgBouncer exited (${code}):\n${output}`));
    });
  });
  return { child, port };
}

beforeAll(async () => {
  if (!adminUrl) return;
  folder = mkdtempSync(path.join(tmpdir(), "vitrine-pgbouncer-"));
  database = await createTestDatabase();
  const direct = new URL(database.databaseUrl!);
  const started = await startPgBouncer(direct);
  bouncer = started.child;
  bouncerUrl = new URL(direct);
  bouncerUrl.hostname = "127.0.0.1";
  bouncerUrl.port = String(started.port);
});
afterAll(async () => {
  if (!adminUrl) return;
  bouncer.kill("SIGTERM");
  await exited(bouncer);
  await database.drop();
  rmSync(folder, { recursive: true, force: true });
});

/** Twenty pages read at once by one editor, and a save: the statuses that came back. */
async function underLoad(server: RunningServer): Promise<number[]> {
  const user = await createTestUser(server.db, { permissions: ["user", "admin"] });
  const cookie = await signIn(server.url, user.email, user.password);
  const pages = await Promise.all(Array.from({ length: 20 }, (_, i) => get(server.url, i % 2 ? "/" : "/b/pooled", cookie)));
  const save = await postForm(server.url, "/b/pooled/new", { title: "Through the pooler" }, cookie);
  return [...pages.map((page) => page.status), save.status];
}

describe.skipIf(!adminUrl || !existsSync(PGBOUNCER))(
  "behind PgBouncer in transaction pooling (TEST_DATABASE_URL, Debian's pgbouncer)",
  () => {
    it("answers every request with DATABASE_PREPARED_STATEMENTS=false and a pool of four connections", async () => {
      const env = { DATA_DIR: database.dataDir, DATABASE_URL: bouncerUrl.toString(), DATABASE_POOL_SIZE: "4" };
      const server = await startBuiltServer({ ...env, DATABASE_PREPARED_STATEMENTS: "false" });
      try {
        await createTestBucket(server.db, { slug: "pooled", jsonSchema: { type: "object", properties: { title: { type: "string" } } } });
        const statuses = await underLoad(server);
        expect(
          statuses.slice(0, -1).every((status) => status === 200),
          String(statuses),
        ).toBe(true);
        expect(statuses.at(-1)).toBe(302);
        const saved = await server.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM contents c JOIN buckets b ON b.id = c.bucket_id WHERE b.slug = 'pooled'",
        );
        expect(saved.rows[0]!.n).toBe(1);
      } finally {
        await server.close();
      }
    });

    it("fails there with named prepared statements (the default), which is why the setting exists", async () => {
      const server = await startBuiltServer({ DATA_DIR: database.dataDir, DATABASE_URL: bouncerUrl.toString(), DATABASE_POOL_SIZE: "4" });
      try {
        const statuses = await underLoad(server);
        expect(
          statuses.some((status) => status >= 500),
          String(statuses),
        ).toBe(true);
      } finally {
        await server.close();
      }
    });
  },
);
