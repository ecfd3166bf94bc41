import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { openPglite, openPostgres, type Db } from "@server/db/client";
import { MIGRATIONS } from "@server/db/migrate";
import { verifyPassword } from "@server/security/password";
import { redeemInvitation } from "@server/accounts/invitations";
import { findUserByEmail } from "@server/accounts/users";
import { startBuiltServer } from "@tests/support/fixtures";
import { withDatabase } from "@tests/support/global-setup";
import { createTestUser, homeWith, signIn } from "@tests/support/http";
import { createTestDatabase, TEST_SESSION_SECRET, type TestDatabase } from "@tests/support/server";
import { runVitrine } from "@tests/support/cli";

/*
 * `npm run vitrine -- <command>` (scripts/vitrine.mjs → server/cli.ts) and
 * `npm start` refusing a bad configuration, as real processes on the test's
 * own database. PGlite is one process's database: the test closes its handle
 * before the CLI opens the directory, and reopens it to look.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

let database: TestDatabase | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await database?.drop();
  database = undefined;
  while (cleanups.length) await cleanups.pop()!();
});

async function freshDatabase(): Promise<{ env: Record<string, string>; reopen: () => Promise<Db> }> {
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
async function emptyDatabase(): Promise<{ env: Record<string, string>; open: () => Promise<Db> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "vitrine-cli-empty-"));
  const adminUrl = process.env.TEST_DATABASE_URL;
  let opened: Db | undefined;
  if (process.env.VITRINE_TEST_DB === "postgres" && adminUrl) {
    const name = `vitrine_cli_${randomBytes(6).toString("hex")}`;
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
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
      open: () => {
        opened = openPostgres(databaseUrl);
        return Promise.resolve(opened);
      },
    };
  }
  // PGlite's first open of a directory (its initdb) costs seconds: the suite's empty database is copied instead.
  cpSync(inject("pgliteEmptyTemplate"), path.join(dataDir, "pgdata"), { recursive: true });
  cleanups.push(async () => {
    await opened?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { env: { DATA_DIR: dataDir }, open: async () => (opened = await openPglite(dataDir)) };
}

const vitrine = runVitrine;

// Each command is a node process opening the database: seconds apiece on a busy machine.
const PROCESS_TESTS = { timeout: 90_000 };

describe("the CLI", PROCESS_TESTS, () => {
  it("creates a user with a generated password that signs in, then resets it, answering the user's request to the admins", async () => {
    const { env, reopen } = await freshDatabase();
    const created = await vitrine(
      env,
      "create-user",
      "--email",
      "curator@museum.example",
      "--name",
      "Curator",
      "--permissions",
      "user,admin",
    );
    expect(created.code).toBe(0);
    const password = /Password: (\S+)/.exec(created.stdout)?.[1];
    expect(password).toBeTruthy();
    expect(created.stdout).toContain("Created curator@museum.example (user, admin).");

    let db = await reopen();
    const user = await findUserByEmail(db, "curator@museum.example");
    expect(user?.permissions).toEqual(["user", "admin"]);
    expect(await verifyPassword(password!, user!.passwordHash)).toBe(true);
    // A request for the admins (made without mail) is answered by the CLI's reset as by the admin's screen.
    await db.query("INSERT INTO password_reset_requests (user_id) VALUES ($1)", [user!.id]);
    await db.close();

    const reset = await vitrine(env, "reset-password", "--email", "curator@museum.example", "--password", "a-new-password-1");
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain("Password of curator@museum.example reset.");
    db = await reopen();
    const { passwordHash } = (await findUserByEmail(db, "curator@museum.example"))!;
    expect(await verifyPassword("a-new-password-1", passwordHash)).toBe(true);
    expect(await verifyPassword(password!, passwordHash)).toBe(false);
    const { rows } = await db.query("SELECT 1 FROM password_reset_requests WHERE closed_at IS NULL");
    expect(rows).toEqual([]);
  });

  it("makes a single-use invitation code and runs migrations", async () => {
    const { env, reopen } = await freshDatabase();
    const invited = await vitrine(env, "create-invitation", "--email", "guest@museum.example");
    expect(invited.code).toBe(0);
    const code = /Invitation code: (\S+) \(valid until (\S+)\)/.exec(invited.stdout);
    expect(code).toBeTruthy();
    const validDays = (Date.parse(code![2]!) - Date.now()) / 86_400_000;
    expect(validDays).toBeGreaterThan(6.9);
    expect(validDays).toBeLessThanOrEqual(7);
    const db = await reopen();
    expect(await redeemInvitation(db, code![1]!, "guest@museum.example")).toMatchObject({ permissions: ["user"], buckets: null });
    expect(await redeemInvitation(db, code![1]!, "guest@museum.example")).toBeNull(); // single use
    await db.close();

    const migrated = await vitrine(env, "migrate");
    expect(migrated).toMatchObject({ code: 0, stdout: "Migrations are up to date.\n" });
    await reopen();
  });

  it("says what went wrong: an unknown user, a missing option, an unknown command", async () => {
    const { env, reopen } = await freshDatabase();
    expect(await vitrine(env, "reset-password", "--email", "nobody@museum.example")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No user with email nobody@museum.example"),
    });
    expect(await vitrine(env, "create-user", "--email", "x@museum.example")).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/name/),
    });
    expect(await vitrine(env, "frobnicate")).toMatchObject({ code: 1, stderr: expect.stringContaining("Unknown command: frobnicate") });
    await reopen();
  });
});

describe("the CLI on its own databases", PROCESS_TESTS, () => {
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
    // SESSION_SECRET empty counts as unset: the server generates one and keeps it in DATA_DIR. A server on
    // PostgreSQL must be given one (checkServerConfig): there the restart holds with it.
    const serverEnv = { ...env, SESSION_SECRET: env.DATABASE_URL ? TEST_SESSION_SECRET : "" };
    const db = await reopen();
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
    expect(await redeemInvitation(db, match![1]!, "anyone@museum.example")).toMatchObject({
      permissions: ["user", "admin"],
      buckets: null,
    });
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

describe("npm start with a bad configuration", () => {
  it("stops at once with a message naming the variable, before opening anything", async () => {
    try {
      await run(process.execPath, ["scripts/start.mjs", "--no-build"], {
        cwd: ROOT,
        env: { ...process.env, PORT: "not-a-port", DEFAULT_LOCALE: "fr", DATA_DIR: "/nonexistent/never-created" },
        timeout: 30_000,
      });
      expect.unreachable("the server started");
    } catch (error) {
      const failed = error as { code: number; stderr: string };
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain("Invalid configuration:");
      expect(failed.stderr).toMatch(/- PORT: /);
      expect(failed.stderr).toMatch(/- DEFAULT_LOCALE: must be one of en, nl/);
      expect(failed.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
  });
});
