import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { openPglite, openPostgres, type Db } from "../../server/db/client";
import { verifyPassword } from "../../server/security/password";
import { redeemInvitation } from "../../server/accounts/invitations";
import { findUserByEmail } from "../../server/accounts/users";
import { createTestDatabase, type TestDatabase } from "../support/server";

/*
 * `npm run vitrine -- <command>` (scripts/vitrine.mjs → server/cli.ts) and
 * `npm start` refusing a bad configuration, as real processes on the test's
 * own database. PGlite is one process's database: the test closes its handle
 * before the CLI opens the directory, and reopens it to look.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

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

describe("the CLI", () => {
  it("creates a user with a generated password that signs in, then resets it", async () => {
    const { env, reopen } = await freshDatabase();
    const created = await vitrine(env, "create-user", "--email", "curator@museum.example", "--name", "Curator", "--permissions", "user,admin");
    expect(created.code).toBe(0);
    const password = /Password: (\S+)/.exec(created.stdout)?.[1];
    expect(password).toBeTruthy();
    expect(created.stdout).toContain("Created curator@museum.example (user, admin).");

    let db = await reopen();
    const user = await findUserByEmail(db, "curator@museum.example");
    expect(user?.permissions).toEqual(["user", "admin"]);
    expect(await verifyPassword(password!, user!.passwordHash)).toBe(true);
    await db.close();

    const reset = await vitrine(env, "reset-password", "--email", "curator@museum.example", "--password", "a-new-password-1");
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain("Password of curator@museum.example reset.");
    db = await reopen();
    const { passwordHash } = (await findUserByEmail(db, "curator@museum.example"))!;
    expect(await verifyPassword("a-new-password-1", passwordHash)).toBe(true);
    expect(await verifyPassword(password!, passwordHash)).toBe(false);
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
    expect(await redeemInvitation(db, code![1]!, "guest@museum.example")).toEqual({ permissions: ["user"] });
    expect(await redeemInvitation(db, code![1]!, "guest@museum.example")).toBeNull(); // single use
    await db.close();

    const migrated = await vitrine(env, "migrate");
    expect(migrated).toMatchObject({ code: 0, stdout: "Migrations are up to date.\n" });
    await reopen();
  });

  it("says what went wrong: an unknown user, a missing option, an unknown command", async () => {
    const { env, reopen } = await freshDatabase();
    expect(await vitrine(env, "reset-password", "--email", "nobody@museum.example")).toMatchObject({ code: 1, stderr: expect.stringContaining("No user with email nobody@museum.example") });
    expect(await vitrine(env, "create-user", "--email", "x@museum.example")).toMatchObject({ code: 1, stderr: expect.stringMatching(/name/) });
    expect(await vitrine(env, "frobnicate")).toMatchObject({ code: 1, stderr: expect.stringContaining("Unknown command: frobnicate") });
    await reopen();
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
