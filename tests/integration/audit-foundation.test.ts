import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres, type Db } from "../../server/db/client";
import { MIGRATIONS } from "../../server/db/migrate";
import { redeemInvitation } from "../../server/accounts/invitations";
import { createContent } from "../../server/content/store";
import { findUserByEmail } from "../../server/accounts/users";
import { withDatabase } from "../support/global-setup";
import { createTestBucket, signedInUser, startBuiltServer } from "../support/fixtures";
import { createTestUser, get, homeWith, signIn } from "../support/http";
import { createTestDatabase, startTestServer, type TestDatabase, type TestServer } from "../support/server";

/*
 * Audit of issue 2 (foundation): the points the other files leave open.
 * - legacy optional-parameter routes without a bucket, and the legacy form of a singleton bucket;
 * - the CLI (scripts/vitrine.mjs → server/cli.ts) as a real process: migrate on an empty database, reset-password
 *   ending the user's sessions, invitations with permissions and a lifetime, and its refusals;
 * - a server without SESSION_SECRET keeping its generated secret in DATA_DIR, so sessions survive a restart.
 */

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

async function vitrine(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/vitrine.mjs", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: "silent" },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("legacy optional-parameter routes (spec §2), the cases guards.test.ts leaves out", () => {
  let server: TestServer;
  let member: string;
  beforeAll(async () => {
    server = await startTestServer();
    await createTestBucket(server.db, { slug: "artworks", name: "Artworks" });
    const site = await createTestBucket(server.db, { slug: "site", name: "Site", singleton: true });
    await createContent(server.db, site.id, { title: "Welcome" }, null, { singleton: true });
    await createTestBucket(server.db, { slug: "vault", name: "Vault", singleton: true, private: true });
    member = (await signedInUser(server.url, server.db)).cookie;
  });
  afterAll(() => server?.stop());

  async function probe(path: string) {
    const response = await get(server.url, path, member);
    await response.body?.cancel();
    return { status: response.status, location: response.headers.get("location") };
  }

  it("without a bucket lead home, with a trailing slash too", async () => {
    for (const path of ["/dle-sessies-form", "/sessies-form", "/sessies-index", "/trend-form", "/overview/"]) {
      expect(await probe(path), path).toEqual({ status: 301, location: "/" });
    }
  });

  it("encode the bucket they carry, so a crafted one cannot point off the site", async () => {
    expect(await probe("/overview/%2F%2Fevil.example")).toEqual({ status: 301, location: "/b/%2F%2Fevil.example" });
    expect(await probe("/trend-form/%2F%2Fevil.example")).toEqual({ status: 301, location: "/trend/%2F%2Fevil.example/new" });
  });

  // Was broken (fixed by this audit in app/routes/legacy/bucket-form.tsx): it went to /b/{bucket}/new, an empty create
  // form whose save a singleton refuses (409), instead of the one document at /b/{bucket}/edit.
  it("of a singleton bucket lead to its one document at /b/{bucket}/edit; of a hidden bucket, as for any other", async () => {
    expect(await probe("/b/site/form")).toEqual({ status: 301, location: "/b/site/edit" });
    expect(await probe("/b/artworks/form")).toEqual({ status: 301, location: "/b/artworks/new" });
    expect(await probe("/b/vault/form")).toEqual({ status: 301, location: "/b/vault/new" });
  });
});

describe("the CLI (npm run vitrine -- <command>)", () => {
  let database: TestDatabase | undefined;
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await database?.drop();
    database = undefined;
    while (cleanups.length) await cleanups.pop()!();
  });

  /** The test's own database, closed so that a CLI process (or a server) can open it; `reopen` looks inside. */
  async function freshDatabase(): Promise<{ env: Record<string, string>; reopen(): Promise<Db> }> {
    database = await createTestDatabase();
    const { dataDir, databaseUrl } = database;
    await database.db.close();
    const reopen = async () => {
      database!.db = databaseUrl ? openPostgres(databaseUrl) : await openPglite(dataDir);
      return database!.db;
    };
    return { env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, reopen };
  }

  /** An empty database: a new DATA_DIR for PGlite, a database made from template0 on PostgreSQL. */
  async function emptyDatabase(): Promise<{ env: Record<string, string>; open(): Promise<Db> }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), "vitrine-audit-empty-"));
    const adminUrl = process.env.TEST_DATABASE_URL;
    let opened: Db | undefined;
    if (process.env.VITRINE_TEST_DB === "postgres" && adminUrl) {
      const name = `vitrine_audit_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE template0`);
      await admin.end();
      const databaseUrl = withDatabase(adminUrl, name);
      cleanups.push(async () => {
        await opened?.close().catch(() => undefined);
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
        rmSync(dataDir, { recursive: true, force: true });
      });
      return { env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl }, open: async () => (opened = openPostgres(databaseUrl)) };
    }
    cleanups.push(async () => {
      await opened?.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    });
    return { env: { DATA_DIR: dataDir }, open: async () => (opened = await openPglite(dataDir)) };
  }

  it("migrate creates the whole schema on an empty database, recording every migration, and a second run is a no-op", async () => {
    const { env, open } = await emptyDatabase();
    const first = await vitrine(env, "migrate");
    expect(first).toMatchObject({ code: 0, stdout: "Migrations are up to date.\n" });
    const again = await vitrine(env, "migrate");
    expect(again.code).toBe(0);
    const db = await open();
    const { rows } = await db.query<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
    expect(rows.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
    const tables = await db.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('users', 'sessions', 'invitations', 'buckets', 'contents', 'versions')",
    );
    expect(tables.rows.map((row) => row.name).sort()).toEqual(["buckets", "contents", "invitations", "sessions", "users", "versions"]);
  });

  it("reset-password ends the user's sessions; a server without SESSION_SECRET keeps sessions across a restart", async () => {
    const { env, reopen } = await freshDatabase();
    // SESSION_SECRET empty counts as unset: the server generates one and keeps it in DATA_DIR.
    const serverEnv = { ...env, SESSION_SECRET: "" };
    let db = await reopen();
    const user = await createTestUser(db, { email: "keeper@museum.example" });
    const other = await createTestUser(db, { email: "other@museum.example" });
    await db.close();

    let server = await startBuiltServer(serverEnv);
    const cookie = await signIn(server.url, user.email, user.password);
    const otherCookie = await signIn(server.url, other.email, other.password);
    expect(await homeWith(server.url, cookie)).toBe("signed in");
    await server.close();

    // A restart reads the same generated secret: the signed cookie and its session still hold.
    server = await startBuiltServer(serverEnv);
    expect(await homeWith(server.url, cookie)).toBe("signed in");
    await server.close();

    const reset = await vitrine(env, "reset-password", "--email", "keeper@museum.example", "--password", "a-brand-new-password");
    expect(reset).toMatchObject({ code: 0, stdout: "Password of keeper@museum.example reset.\n" });

    server = await startBuiltServer(serverEnv);
    try {
      expect(await homeWith(server.url, cookie)).toBe("/login");
      expect(await homeWith(server.url, otherCookie)).toBe("signed in"); // only that user's sessions
      const fresh = await signIn(server.url, user.email, "a-brand-new-password");
      expect(await homeWith(server.url, fresh)).toBe("signed in");
    } finally {
      await server.close();
    }
    await reopen();
  });

  it("create-invitation carries its permissions and lifetime; the code works once", async () => {
    const { env, reopen } = await freshDatabase();
    const invited = await vitrine(env, "create-invitation", "--permissions", "user,admin", "--days", "1");
    expect(invited.code).toBe(0);
    const match = /Invitation code: (\S+) \(valid until (\S+)\)/.exec(invited.stdout);
    expect(match).toBeTruthy();
    const days = (Date.parse(match![2]!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(0.95);
    expect(days).toBeLessThanOrEqual(1);
    const db = await reopen();
    expect(await redeemInvitation(db, match![1]!, "anyone@museum.example")).toEqual({ permissions: ["user", "admin"] });
    expect(await redeemInvitation(db, match![1]!, "anyone@museum.example")).toBeNull();
  });

  it("refuses a taken email, an unknown permission and a bad configuration, changing nothing", async () => {
    const { env, reopen } = await freshDatabase();
    expect((await vitrine(env, "create-user", "--email", "dup@museum.example", "--name", "First")).code).toBe(0);
    const taken = await vitrine(env, "create-user", "--email", "DUP@museum.example", "--name", "Second");
    expect(taken.code).toBe(1);
    expect(taken.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

    const unknown = await vitrine(env, "create-user", "--email", "x@museum.example", "--name", "X", "--permissions", "user,root");
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining("Unknown permission(s): root") });

    const badConfig = await vitrine({ ...env, DEFAULT_LOCALE: "fr" }, "migrate");
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toContain("Invalid configuration:");
    expect(badConfig.stderr).toMatch(/- DEFAULT_LOCALE: /);

    const db = await reopen();
    expect((await findUserByEmail(db, "dup@museum.example"))?.name).toBe("First");
    expect(await findUserByEmail(db, "x@museum.example")).toBeNull();
  });
});
