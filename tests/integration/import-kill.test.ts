import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres } from "@server/db/client";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { exited, processEnv } from "@tests/support/media-server";
import { runVitrine } from "@tests/support/cli";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";

/*
 * An import cut off by kill -9 resumes (issue 34): `npm run vitrine -- import-documents` as a real process, killed
 * once it has reported progress, then `--resume RUN`: every row imported once, none skipped.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const ROWS = 10_000;

describe("an import killed midway (a real process, SIGKILL)", () => {
  it("resumes after its last whole batch: no row twice, none skipped", async () => {
    const database: TestDatabase = await createTestDatabase();
    const dir = mkdtempSync(path.join(tmpdir(), "vitrine-import-killed-"));
    cleanups.push(async () => {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const user = await createTestUser(database.db);
    const bucket = await createTestBucket(database.db, {
      jsonSchema: { type: "object", properties: { ref: { type: "string" }, title: { type: "string" } } },
    });
    await database.db.close();
    const csv = path.join(dir, "artworks.csv");
    writeFileSync(csv, ["ref,title", ...Array.from({ length: ROWS }, (_, n) => `K-${n},Werk ${n}`)].join("\n"));
    const env = { ...processEnv(database, path.join(dir, "media")), LOG_LEVEL: "silent" };
    const args = ["import-documents", "--bucket", bucket.slug, "--as", user.email, "--file", csv, "--key", "ref"];

    const child = spawn(process.execPath, ["scripts/vitrine.mjs", ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    cleanups.push(async () => {
      child.kill("SIGKILL");
      await exited(child);
    });
    let output = "";
    const runId = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const id = /^Import ([0-9a-f-]{36}) /m.exec(output)?.[1];
        if (id && output.includes("… 1000 rows")) {
          child.kill("SIGKILL");
          resolve(id);
        }
      });
      child.once("exit", () => reject(new Error(`the import ended before it was killed: ${output}`)));
    });
    await exited(child);

    const resumed = await runVitrine(env, "import-documents", "--resume", runId, "--as", user.email);
    expect(resumed.stdout, resumed.stderr).toMatch(/^Resuming import [0-9a-f-]{36} after row [1-9]\d*00\./m);
    expect(resumed.stdout).toContain(`Import ${runId} done: ${ROWS} rows:`);
    expect(resumed.code).toBe(0);

    database.db = database.databaseUrl ? openPostgres(database.databaseUrl) : await openPglite(database.dataDir);
    const { rows } = await database.db.query<{ documents: number; refs: number; versions: number }>(
      `SELECT count(*)::int AS documents, count(DISTINCT v.data->>'ref')::int AS refs,
              (SELECT count(*)::int FROM versions w JOIN contents d ON d.content_id = w.content_id WHERE d.bucket_id = $1) AS versions
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.bucket_id = $1`,
      [bucket.id],
    );
    expect(rows[0]).toEqual({ documents: ROWS, refs: ROWS, versions: ROWS });
    const run = await database.db.query<{ status: string; rowsDone: number; created: number }>(
      `SELECT status, rows_done AS "rowsDone", created FROM import_runs WHERE id = $1`,
      [runId],
    );
    expect(run.rows).toEqual([{ status: "done", rowsDone: ROWS, created: ROWS }]);
  }, 180_000);
});
