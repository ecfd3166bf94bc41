import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";
import { createTestBucket } from "@tests/support/fixtures";
import { overviewStatement } from "@server/content/listing";
import { refreshPlannerStatistics } from "@server/db/statistics";

/*
 * PGlite has no autovacuum: a bucket filled while no server ran (an import, the bench's SQL seeding) has no planner
 * statistics, and the overview's search then tests every document instead of asking the trigram index (445 ms at
 * 10,000 documents). The server refreshes them at start and every minute (server/db/statistics.ts).
 */
const onPostgres = process.env.VITRINE_TEST_DB === "postgres";

let database: TestDatabase;
let bucketId: string;

async function seed(from: number, to: number) {
  await database.db.query(
    `WITH numbered AS MATERIALIZED (
       SELECT n, gen_random_uuid() AS content_id, gen_random_uuid() AS version_id, now() - n * interval '1 second' AS at,
              jsonb_build_object('title', jsonb_build_object('nl', 'Licht op het wad ' || n, 'en', 'Light on the mudflats ' || n),
                                 'description', repeat('Een breed panorama van de Waddenkust bij eb. ', 30)) AS data
       FROM generate_series($2::int, $3::int) AS n
     ), new_contents AS (
       INSERT INTO contents (content_id, bucket_id, latest_version_id, created_at, updated_at, search_text)
       SELECT content_id, $1, version_id, at, at, document_search_text(data) FROM numbered
     )
     INSERT INTO versions (version_id, content_id, data, created_at)
     SELECT version_id, content_id, data, at FROM numbered`,
    [bucketId, from, to],
  );
}

async function searchPlan(): Promise<string> {
  const { text, values } = overviewStatement(bucketId, { limit: 21, search: "wad 1234", titleKey: "title" });
  const { rows } = await database.db.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, values);
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

describe.skipIf(onPostgres)("planner statistics on PGlite", () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    bucketId = (await createTestBucket(database.db, { slug: "statistics-bucket" })).id;
    await seed(1, 4000);
  });
  afterAll(() => database.drop());

  it("a bucket filled without statistics is searched through the trigram index once they are refreshed", async () => {
    // The premise: without statistics the planner tests each document of the bucket against the search.
    expect(await searchPlan()).not.toContain("contents_search_trgm_idx");

    expect((await refreshPlannerStatistics(database.db)).sort()).toEqual(["contents", "versions"]);
    expect(await searchPlan()).toContain("contents_search_trgm_idx");
    // Fresh statistics are left alone: the minute's check costs one small query.
    expect(await refreshPlannerStatistics(database.db)).toEqual([]);
  });

  it("a table that grew by more than a fifth since its last analysis is analysed again", async () => {
    await refreshPlannerStatistics(database.db);
    await seed(4001, 4200);
    expect(await refreshPlannerStatistics(database.db)).toEqual([]);
    await seed(4201, 6000);
    expect((await refreshPlannerStatistics(database.db)).sort()).toEqual(["contents", "versions"]);
  });
});
