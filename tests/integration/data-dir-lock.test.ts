import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { openPglite, type Db } from "@server/db/client";
import { findUserByEmail } from "@server/accounts/users";
import { migrate } from "@server/db/migrate";
import { claimDataDir, DataDirInUseError, sendCommand } from "@server/db/data-dir-lock";
import { mkdirSync, writeFileSync } from "node:fs";
import { startBuiltServer } from "@tests/support/fixtures";
import { signIn } from "@tests/support/http";
import { exited, startProcess } from "@tests/support/media-server";
import { runVitrine } from "@tests/support/cli";

/*
 * PGlite is one process's database. A second process on the same DATA_DIR must never lose data: the CLI runs its
 * command inside the server that holds the directory, a second server refuses to start, and a killed holder
 * frees the directory at once. Embedded database only: PostgreSQL serves any number of processes.
 */
const onPostgres = process.env.VITRINE_TEST_DB === "postgres";
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A new DATA_DIR holding a copy of the suite's migrated database (PGlite's initdb costs seconds), or nothing. */
function dataDir(contents: "migrated database" | "nothing" = "migrated database"): string {
  const dir = mkdtempSync(path.join(tmpdir(), "vitrine-lock-"));
  if (contents === "migrated database") cpSync(inject("pgliteTemplate"), path.join(dir, "pgdata"), { recursive: true });
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
    return Promise.resolve();
  });
  return dir;
}

async function openAfterwards(dir: string): Promise<Db> {
  const db = await openPglite(dir);
  cleanups.push(() => db.close());
  return db;
}

describe.skipIf(onPostgres)("a second process on the embedded database", () => {
  it("runs CLI commands inside the running server: the user exists at once and signs in", async () => {
    const dir = dataDir();
    const server = await startBuiltServer({ DATA_DIR: dir });
    cleanups.push(() => server.close());

    const created = await runVitrine(
      { DATA_DIR: dir },
      "create-user",
      "--email",
      "live@museum.example",
      "--name",
      "Live",
      "--password",
      "a-live-password-1",
    );
    expect(created).toMatchObject({ code: 0, stdout: "Created live@museum.example (user).\n" });
    expect(await findUserByEmail(server.db, "live@museum.example")).toMatchObject({ name: "Live" });
    expect(await signIn(server.url, "live@museum.example", "a-live-password-1")).toBeTruthy();

    const reset = await runVitrine({ DATA_DIR: dir }, "reset-password", "--email", "live@museum.example");
    expect(reset.code).toBe(0);
    const password = /New password: (\S+)/.exec(reset.stdout)?.[1];
    expect(password).toBeTruthy();
    expect(await signIn(server.url, "live@museum.example", password ?? "")).toBeTruthy();

    // A failing command reports through the same channel, as a message with no stack trace.
    const unknown = await runVitrine({ DATA_DIR: dir }, "reset-password", "--email", "nobody@museum.example");
    expect(unknown).toMatchObject({ code: 1, stderr: "No user with email nobody@museum.example\n" });

    // Nothing was written to a second copy: after the server stops, the directory holds the user.
    await server.close();
    cleanups.pop();
    expect(await findUserByEmail(await openAfterwards(dir), "live@museum.example")).toMatchObject({ name: "Live" });
  });

  it("refuses to start a second server on the same data directory, and the first keeps serving", async () => {
    const dir = dataDir();
    const server = await startBuiltServer({ DATA_DIR: dir });
    cleanups.push(() => server.close());
    const second = startProcess({ DATA_DIR: dir });
    const failure = await second.then(
      () => expect.unreachable("the second server started"),
      (error: unknown) => (error as Error).message,
    );
    expect(failure).toMatch(/the server exited \(1\)/);
    expect(failure).toContain(`Another Vitrine process (pid ${process.pid}) is using the embedded database in ${dir}.`);
    expect(failure).toContain("Stop it first, or use PostgreSQL (DATABASE_URL)");
    expect(failure).not.toMatch(/\n\s+at /);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it("a CLI command refuses, changing nothing, while another process that takes no commands holds the directory", async () => {
    const dir = dataDir();
    const holder = await openAfterwards(dir); // this test process: it holds the directory but is no server
    await migrate(holder);
    const refused = await runVitrine({ DATA_DIR: dir }, "create-user", "--email", "lost@museum.example", "--name", "Lost");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Another Vitrine process (pid ${process.pid}) is using the embedded database in ${dir}.`);
    expect(await findUserByEmail(holder, "lost@museum.example")).toBeNull();
  });

  it("a server killed with SIGKILL frees the directory at once: the next start needs no clean-up", async () => {
    const dir = dataDir();
    const first = await startProcess({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "warn" });
    first.child.kill("SIGKILL");
    await exited(first.child);
    const server = await startBuiltServer({ DATA_DIR: dir });
    cleanups.push(() => server.close());
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

describe.skipIf(onPostgres)("the command channel", () => {
  it("runs a command only for a caller holding the holder's token (kept in DATA_DIR, readable by its owner only)", async () => {
    const dir = dataDir("nothing");
    const pgdata = path.join(dir, "pgdata");
    mkdirSync(pgdata);
    const lock = await claimDataDir(dir, pgdata);
    cleanups.push(() => lock.release());
    const ran: string[][] = [];
    lock.setCommandHandler((argv, print) => {
      ran.push(argv);
      print("stdout", "done\n");
      return Promise.resolve(0);
    });
    const output: string[] = [];
    expect(await sendCommand(dir, pgdata, ["migrate"], (_stream, text) => output.push(text))).toBe(0);
    expect(output).toEqual(["done\n"]);

    writeFileSync(path.join(dir, "command-token"), "a-guessed-token");
    const refused: string[] = [];
    const result = await sendCommand(dir, pgdata, ["create-user"], (_stream, text) => refused.push(text));
    expect(result).toBeInstanceOf(DataDirInUseError);
    expect(refused.join("")).toContain("did not carry this server's token");
    expect(ran).toEqual([["migrate"]]);
  });
});
