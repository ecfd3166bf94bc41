import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite, openPostgres } from "@server/db/client";
import { createTestBucket } from "@tests/support/fixtures";
import { createTestUser, postJson, signIn } from "@tests/support/http";
import { exited, processEnv, startProcess } from "@tests/support/media-server";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";

/*
 * An acknowledged save survives kill -9 of the server: what the server answered 201 for is in the database when it
 * is opened again, whatever the embedded database keeps in its own memory (server/db/pglite-statements.ts).
 */
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe("a server killed right after answering saves (a real process, SIGKILL)", () => {
  it("keeps every document it acknowledged", async () => {
    const database: TestDatabase = await createTestDatabase();
    const mediaDir = mkdtempSync(path.join(tmpdir(), "vitrine-save-killed-"));
    cleanups.push(async () => {
      await database.drop();
      rmSync(mediaDir, { recursive: true, force: true });
    });
    const user = await createTestUser(database.db);
    const bucket = await createTestBucket(database.db);
    await database.db.close();

    const { child, url } = await startProcess(processEnv(database, mediaDir));
    let server: ChildProcess | null = child;
    cleanups.push(async () => {
      server?.kill("SIGKILL");
      if (server) await exited(server);
    });
    const cookie = await signIn(url, user.email, user.password);
    const saved: Array<{ contentId: string; title: string }> = [];
    for (let index = 0; index < 5; index += 1) {
      const title = `Saved before the kill ${index}`;
      const response = await postJson(url, `/api/v1/buckets/${bucket.slug}/save`, { content: { title } }, cookie);
      expect(response.status, await response.clone().text()).toBe(201);
      saved.push({ contentId: ((await response.json()) as { contentId: string }).contentId, title });
    }
    child.kill("SIGKILL");
    await exited(child);
    server = null;

    database.db = database.databaseUrl ? openPostgres(database.databaseUrl) : await openPglite(database.dataDir);
    const { rows } = await database.db.query<{ contentId: string; title: string }>(
      `SELECT c.content_id AS "contentId", v.data->>'title' AS title
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.bucket_id = $1 ORDER BY v.data->>'title'`,
      [bucket.id],
    );
    expect(rows).toEqual(saved);
  });
});
