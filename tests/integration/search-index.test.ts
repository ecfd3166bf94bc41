import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/server";

/*
 * The overview's search (server/services/content.ts: `document_search_text(v.data) ILIKE '%…%'`, over values only)
 * goes through the trigram index of migration 008, not through every document.
 * With sequential scans priced out, the planner must be able to answer the
 * expression from the index: without the index (or pg_trgm) it cannot.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe("search index", () => {
  it("answers the overview's ILIKE over a document's data from versions_search_trgm_idx", async () => {
    const plan = await database.db.transaction(async (tx) => {
      await tx.query("SET LOCAL enable_seqscan = off");
      const { rows } = await tx.query<{ "QUERY PLAN": string }>("EXPLAIN SELECT version_id FROM versions v WHERE document_search_text(v.data) ILIKE '%wad 4242%'");
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("versions_search_trgm_idx");
  });
});
