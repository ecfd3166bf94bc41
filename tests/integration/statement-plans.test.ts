import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "@tests/support/server";
import { createTestBucket, seedDocuments, signedInUser } from "@tests/support/fixtures";
import { get, postJson } from "@tests/support/http";

/*
 * PGlite prepares every statement (server/db/pglite-statements.ts) so that Postgres plans it once. It does so only
 * when the statement's generic plan is as good as one made for the values: a statement whose plan depends on its
 * parameters (LIMIT $n was one) is planned anew on every call, and in PGlite planning can cost more than running.
 * This walks the editor's main pages and JSON calls a dozen times and reads what Postgres did.
 */
const onPglite = process.env.VITRINE_TEST_DB !== "postgres";
const ROUNDS = 12;
// Enough documents that a plan which cannot see how many rows a page reads looks worse than one made for the values.
const SEEDED = 20_000;

let server: TestServer;

describe.runIf(onPglite)("the statements of every request, prepared by PGlite", () => {
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.stop());

  it("are planned once, not on every call", async () => {
    const { cookie } = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
    const bucket = await createTestBucket(server.db, { slug: "statement-plans" });
    await seedDocuments(server.db, bucket.id, SEEDED, "jsonb_build_object('title', 'Seeded ' || n)");
    await server.db.query("ANALYZE contents, versions");
    const saved = await postJson(server.url, `/api/v1/buckets/${bucket.slug}/save`, { content: { title: "Planned" } }, cookie);
    expect(saved.status).toBe(201);
    const { contentId } = (await saved.json()) as { contentId: string };
    const paths = [
      "/",
      `/b/${bucket.slug}`,
      `/b/${bucket.slug}?q=planned`,
      `/b/${bucket.slug}/new`,
      `/b/${bucket.slug}/${contentId}/latest`,
      `/b/${bucket.slug}/${contentId}/history`,
      `/api/v1/buckets/${bucket.slug}/content/${contentId}/latest`,
      "/settings/buckets",
      "/settings/users",
    ];
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of paths) {
        const response = await get(server.url, path, cookie);
        expect(response.status, path).toBe(200);
        await response.arrayBuffer();
      }
      expect(
        (await postJson(server.url, `/api/v1/buckets/${bucket.slug}/save`, { content: { title: `Round ${round}` } }, cookie)).status,
      ).toBe(201);
    }
    // A search is the exception: its best plan depends on the pattern (server/content/search.ts).
    const { rows } = await server.db.query<{ statement: string; custom: number }>(
      `SELECT statement, custom_plans::int AS custom FROM pg_prepared_statements
       WHERE generic_plans = 0 AND custom_plans >= $1 AND statement NOT LIKE '%search_key(%'`,
      [ROUNDS],
    );
    expect(rows.map((row) => row.statement.replace(/\s+/g, " ").slice(0, 200))).toEqual([]);
  });
});
