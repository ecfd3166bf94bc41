import { once } from "node:events";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgres, type Db } from "@server/db/client";
import { DEMO_BUCKETS } from "@server/demo-content";
import { exited, startProcess } from "@tests/support/media-server";
import { createEmptyPostgresDatabase, TEST_SESSION_SECRET } from "@tests/support/server";

/*
 * Two servers (`npm start`, real processes) started at the same moment on one empty PostgreSQL database, as a
 * deployment of several servers does (docs/operations.md): both migrate and both find no users, but exactly one
 * seeds the demo content and its admin (server/seed.ts, one transaction under an advisory lock); the other waits,
 * finds them, and starts as on any later start; when the demo's scheduled release falls due, one of the two servers
 * publishes it, once. PostgreSQL only: a second process on PGlite's DATA_DIR is refused
 * (server/db/data-dir-lock.ts, tests/integration/cli.test.ts).
 */

const onPostgres = process.env.VITRINE_TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

/** A new, empty PostgreSQL database (not the suite's migrated template), dropped after the file. */
async function emptyPostgresDatabase(): Promise<string> {
  const database = await createEmptyPostgresDatabase("vitrine_two_starts");
  cleanups.push(() => database.drop());
  return database.url;
}

function folder(prefix: string): string {
  const made = mkdtempSync(path.join(tmpdir(), prefix));
  cleanups.push(() => {
    rmSync(made, { recursive: true, force: true });
    return Promise.resolve();
  });
  return made;
}

describe.skipIf(!onPostgres)(
  "two servers started at once on an empty PostgreSQL database (TEST_DATABASE_URL; PGlite allows one process per DATA_DIR)",
  () => {
    it("both start and serve, the demo content and its admin exist once, its release is published once, and neither logs an error", async () => {
      const databaseUrl = await emptyPostgresDatabase();
      // Each server has its own DATA_DIR, as on its own machine; MEDIA_DIR is shared (docs/operations.md). No media
      // workers: the demo's jobs are not what the start races on.
      const mediaDir = folder("vitrine-two-starts-media-");
      const env = (name: string) => ({
        DATABASE_URL: databaseUrl,
        DATA_DIR: folder(`vitrine-two-starts-${name}-`),
        MEDIA_DIR: mediaDir,
        PORT: "0",
        HOST: "127.0.0.1",
        SESSION_SECRET: TEST_SESSION_SECRET,
        LOG_LEVEL: "info",
        MEDIA_WORKERS: "0",
        ADMIN_EMAIL: "first-admin@example.test",
      });
      const starts = await Promise.allSettled([startProcess(env("a"), 90_000), startProcess(env("b"), 90_000)]);
      const children: ChildProcess[] = starts.flatMap((start) => (start.status === "fulfilled" ? [start.value.child] : []));
      cleanups.push(async () => {
        for (const child of children) child.kill("SIGKILL");
        await Promise.all(children.map(exited));
      });
      const failures = starts.flatMap((start) => (start.status === "rejected" ? [String(start.reason)] : []));
      expect(failures).toEqual([]);
      const servers = starts.map((start) => (start as PromiseFulfilledResult<Awaited<ReturnType<typeof startProcess>>>).value);

      for (const server of servers) {
        const health = await fetch(`${server.url}/healthz`);
        expect(await health.json()).toMatchObject({ status: "ok", database: "ok", databaseKind: "postgres" });
        expect((await fetch(`${server.url}/login`)).status).toBe(200);
      }
      // Exactly one start made the admin (its ready message shows how to sign in); the other found it.
      const signInBlocks = servers.filter((server) => server.output().includes("with the admin account created now")).length;
      expect(signInBlocks).toBe(1);

      const db: Db = openPostgres(databaseUrl);
      cleanups.push(() => db.close());
      const users = await db.query<{ email: string; permissions: string[] }>("SELECT email, permissions FROM users");
      expect(users.rows).toEqual([{ email: "first-admin@example.test", permissions: ["user", "admin", "dev"] }]);
      const buckets = await db.query<{ slug: string; documents: number }>(
        "SELECT b.slug, (SELECT count(*)::int FROM contents c WHERE c.bucket_id = b.id) AS documents FROM buckets b ORDER BY b.position",
      );
      expect(buckets.rows.map((bucket) => bucket.slug)).toEqual(DEMO_BUCKETS.map((demo) => demo.bucket.slug));
      for (const bucket of buckets.rows) expect(bucket.documents, bucket.slug).toBeGreaterThan(0);

      // The demo's scheduled release falls due with both servers polling (server/content/release-scheduler.ts): it is
      // published once, by one of them, in one transaction.
      const [release] = (await db.query<{ id: string }>("UPDATE releases SET scheduled_at = now() WHERE state = 'scheduled' RETURNING id"))
        .rows;
      expect(release).toBeDefined();
      await expect
        .poll(async () => (await db.query<{ state: string }>("SELECT state FROM releases WHERE id = $1", [release!.id])).rows[0]?.state, {
          timeout: 30_000,
          interval: 250,
        })
        .toBe("published");
      const publishedOnce = await db.query<{ publications: number; activity: number }>(
        `SELECT (SELECT count(*)::int FROM publications WHERE release_id = $1) AS publications,
                (SELECT count(*)::int FROM admin_activity WHERE action = 'releasePublished' AND details->>'releaseId' = $1::text) AS activity`,
        [release!.id],
      );
      expect(publishedOnce.rows[0]).toEqual({ publications: 1, activity: 1 });
      // The log line comes through the child's stdout after the commit the poll above saw: wait for it, then count
      // again once both have exited and said everything.
      const publishedBy = () => servers.filter((server) => server.output().includes("scheduled release published")).length;
      await expect.poll(publishedBy, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

      for (const server of servers) server.child.kill("SIGTERM");
      await Promise.all(servers.map((server) => exited(server.child)));
      for (const { child } of servers) if (child.stdout && !child.stdout.readableEnded) await once(child.stdout, "end");
      expect(publishedBy()).toBe(1);
      for (const server of servers) {
        const errors = server
          .output()
          .split("\n")
          .filter((line) => /"level":(50|60)/.test(line) || /\b\w*Error\b/.test(line));
        expect(errors).toEqual([]);
      }
    }, 240_000);
  },
);
