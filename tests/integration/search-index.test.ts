import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";
import { createTestBucket, seedDocuments } from "@tests/support/fixtures";
import { createContent, saveVersion, VersionConflictError } from "@server/content/store";
import { listOverview, overviewStatement } from "@server/content/listing";
import { COMMON_SEARCH_MATCHES, searchCondition } from "@server/content/search";
import { likePattern } from "@server/db/like-pattern";
import { listSessions, sessionsStatement } from "@screens/shared/sessions.server";
import { documentPage, documentPageStatement, type PageCursor } from "@server/delivery/store";

/*
 * The overview's search (`searchCondition`: as `c.search_text ILIKE '%…%'` would, over values only) reads the text stored with each document's
 * contents row (migration 027) through its trigram index, not through every document. The text is written by the
 * statement that makes a version the latest, so it always belongs to the latest version.
 */
let database: TestDatabase;
let bucketId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  bucketId = (await createTestBucket(database.db, { slug: "search-index-bucket" })).id;
});
afterAll(() => database.drop());

/** The stored text's words, sorted: jsonb keeps its keys in its own order. */
async function storedWords(contentId: string): Promise<string[]> {
  const { rows } = await database.db.query<{ text: string }>("SELECT search_text AS text FROM contents WHERE content_id = $1", [contentId]);
  return rows[0]!.text.split(" ").sort();
}

describe("search index", () => {
  it("answers the search condition from contents_search_trgm_idx: the condition is the index's expression", async () => {
    const plan = await database.db.transaction(async (tx) => {
      await tx.query("SET LOCAL enable_seqscan = off");
      const { rows } = await tx.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT c.content_id FROM contents c WHERE ${searchCondition("$1")}`,
        [likePattern("Wad 4242")],
      );
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("contents_search_trgm_idx");
  });

  it("matches as ILIKE does: any case, the wildcards literal", async () => {
    const { contentId } = await createContent(database.db, bucketId, { title: "Zonsondergang bij Scheveningen", code: "50%_off" }, null);
    const matches = async (text: string) => {
      const { rows } = await database.db.query(`SELECT 1 FROM contents c WHERE c.content_id = $1 AND ${searchCondition("$2")}`, [
        contentId,
        likePattern(text),
      ]);
      return rows.length === 1;
    };
    expect(await matches("BIJ scheveningen")).toBe(true);
    expect(await matches("50%_OFF")).toBe(true);
    expect(await matches("50%_of")).toBe(true);
    expect(await matches("5_%")).toBe(false);
    expect(await matches("bij  Scheveningen")).toBe(false);
  });

  it("stores the values of the latest version: a create, a save, and not a save that lost to another", async () => {
    const created = await createContent(
      database.db,
      bucketId,
      { title: { nl: "Zeegezicht", en: "Seascape" }, year: 1881, tags: ["Mesdag"] },
      null,
    );
    expect(await storedWords(created.contentId)).toEqual(["1881", "mesdag", "seascape", "zeegezicht"]);

    const saved = await saveVersion(database.db, {
      bucketId,
      contentId: created.contentId,
      baseVersionId: created.versionId,
      data: { title: { nl: "Panorama" } },
      userId: null,
    });
    expect(await storedWords(created.contentId)).toEqual(["panorama"]);

    // A save from the older version is refused, and the text stays the winner's.
    await expect(
      saveVersion(database.db, {
        bucketId,
        contentId: created.contentId,
        baseVersionId: created.versionId,
        data: { title: { nl: "Verloren" } },
        userId: null,
      }),
    ).rejects.toBeInstanceOf(VersionConflictError);
    expect(await storedWords(created.contentId)).toEqual(["panorama"]);
    expect(saved.versionId).not.toBe(created.versionId);
  });

  it("searches a bucket of thousands through the index on every call, beside many small buckets", async () => {
    // Planned through a join on the bucket, or by a generic plan, the bucket's size is guessed as the average of all
    // buckets': the planner then filtered each of the 2,000 documents (13 ms on PostgreSQL, 40 ms on PGlite) where
    // the index answers in under 1 ms. PGlite switched to the generic plan at the sixth search.
    for (let small = 0; small < 20; small++) {
      const bucket = await createTestBucket(database.db, { slug: `search-plan-small-${small}` });
      await seedDocuments(database.db, bucket.id, 5, "jsonb_build_object('title', 'Klein ' || n)");
    }
    const large = await createTestBucket(database.db, { slug: "search-plan-large" });
    await seedDocuments(
      database.db,
      large.id,
      2000,
      "jsonb_build_object('title', 'Licht op het wad ' || n, 'maker', 'Hendrik Willem Mesdag')",
    );
    await database.db.query("ANALYZE contents, versions");

    const options = { limit: 20, search: "Wad 1234", titleKey: "title" };
    for (let call = 0; call < 8; call++) {
      const { rows } = await listOverview(database.db, large.id, options);
      expect(rows.map((row) => row.title)).toEqual(["Licht op het wad 1234"]);
    }
    const { text, values } = overviewStatement(large.id, options);
    const { rows: plan } = await database.db.query<{ "QUERY PLAN": string }>(`EXPLAIN ${text}`, values);
    expect(plan.map((row) => row["QUERY PLAN"]).join("\n")).toContain("contents_search_trgm_idx");
    const { rows: generic } = await database.db.query<{ statement: string }>(
      "SELECT statement FROM pg_prepared_statements WHERE generic_plans > 0 AND statement LIKE '%search_key(%' AND statement NOT LIKE '%pg_prepared_statements%'",
    );
    expect(generic).toEqual([]);
  });

  it("finds a word most documents hold by walking the newest, not by testing every match the index hands over", async () => {
    // The index would hand over all 3,000 to be tested and sorted for a page of 21 (1.35 s at 100,000 on PGlite).
    const bucket = await commonWordBucket("search-common-word");
    for (const [search, offset, first] of [
      ["MESDAG", 0, 1],
      ["mesdag", 40, 41],
      ["Zeegezicht 12", 0, 12],
    ] as const) {
      const options = { limit: 21, offset, search, titleKey: "title" };
      const { rows } = await listOverview(database.db, bucket.id, options);
      const expected = search === "Zeegezicht 12" ? TWELVES.slice(0, 21) : Array.from({ length: 21 }, (_, i) => first + i);
      expect(
        rows.map((row) => row.title),
        `${search} from ${offset}`,
      ).toEqual(expected.map((n) => `Zeegezicht ${n}`));
    }
    for (const search of ["Mesdag", "Zeegezicht 12"]) {
      expect(await contentsRowsRead(overviewStatement(bucket.id, { limit: 21, search, titleKey: "title" })), search).toBeLessThanOrEqual(
        COMMON_SEARCH_MATCHES,
      );
    }
  });

  it("finds a word most documents hold the same way in the session overview, newest first or in the stored order", async () => {
    const bucket = await commonWordBucket("search-common-sessions");
    // The eleven oldest are placed, the oldest first; the rest follow unplaced, newest first.
    await database.db.query(
      "UPDATE contents SET position = 3001 - substring(search_text from 'zeegezicht (\\d+)')::int WHERE bucket_id = $1 AND substring(search_text from 'zeegezicht (\\d+)')::int > 2989",
      [bucket.id],
    );
    const placed = [3000, 2999, 2998, 2997, 2996, 2995, 2994, 2993, 2992, 2991, 2990];
    const cases = [
      { search: "MESDAG", ordered: false, offset: 0, expected: Array.from({ length: 21 }, (_, i) => 1 + i) },
      { search: "mesdag", ordered: false, offset: 40, expected: Array.from({ length: 21 }, (_, i) => 41 + i) },
      { search: "Mesdag", ordered: true, offset: 0, expected: [...placed, ...Array.from({ length: 10 }, (_, i) => 1 + i)] },
      { search: "Zeegezicht 12", ordered: false, offset: 0, expected: TWELVES.slice(0, 21) },
      { search: "Zeegezicht 299", ordered: true, offset: 0, expected: [2999, 2998, 2997, 2996, 2995, 2994, 2993, 2992, 2991, 2990, 299] },
    ];
    for (const { search, ordered, offset, expected } of cases) {
      const { rows, total } = await listSessions(database.db, bucket.id, { limit: 21, offset, search, ordered });
      expect(
        rows.map((row) => row.data.title),
        `${search} from ${offset}${ordered ? ", ordered" : ""}`,
      ).toEqual(expected.map((n) => `Zeegezicht ${n}`));
      expect(total).toBeNull();
    }
    for (const search of ["Mesdag", "Zeegezicht 12"]) {
      for (const ordered of [false, true]) {
        const read = await contentsRowsRead(sessionsStatement(bucket.id, { limit: 21, offset: 0, search, ordered }));
        expect(read, `${search}${ordered ? ", ordered" : ""}`).toBeLessThanOrEqual(COMMON_SEARCH_MATCHES);
      }
    }
  });

  it("finds a word most documents hold the same way in the delivery API's pages in time order, page after page", async () => {
    const bucket = await commonWordBucket("search-common-delivery");
    const newestFirst = { by: "updatedAt", order: "desc" } as const;
    const oldestFirst = { by: "createdAt", order: "asc" } as const;
    const cases = [
      { sort: newestFirst, search: "MESDAG", pages: [range(1, 20), range(21, 40)] },
      { sort: oldestFirst, search: "mesdag", pages: [range(3000, 2981), range(2980, 2961)] },
      { sort: newestFirst, search: "Zeegezicht 12", pages: [TWELVES.slice(0, 20), TWELVES.slice(20, 40)] },
      { sort: oldestFirst, search: "Zeegezicht 12", pages: [TWELVES.toReversed().slice(0, 20), TWELVES.toReversed().slice(20, 40)] },
      { sort: oldestFirst, search: "Zeegezicht 300", pages: [[3000, 300]] },
    ];
    for (const { sort, search, pages } of cases) {
      let after: PageCursor | null = null;
      for (const [index, expected] of pages.entries()) {
        const { documents, more } = await documentPage(database.db, bucket.id, { sort, limit: 20, after, updatedSince: null, search });
        expect(
          documents.map((document) => document.data.title),
          `${search} by ${sort.by}, page ${index + 1}`,
        ).toEqual(expected.map((n) => `Zeegezicht ${n}`));
        expect(more).toBe(expected.length === 20);
        const last = documents.at(-1)!;
        after = { value: last.sortValue, contentId: last.contentId };
      }
    }
    // A common word and a rarer one: testing each document in the page's order suits only the first, the index only the second.
    for (const search of ["Mesdag", "Zeegezicht 12"]) {
      for (const sort of [
        newestFirst,
        oldestFirst,
        { by: "updatedAt", order: "asc" } as const,
        { by: "createdAt", order: "desc" } as const,
      ]) {
        const statement = documentPageStatement(bucket.id, { sort, limit: 20, after: null, updatedSince: null, search });
        expect(await contentsRowsRead(statement), `${search} by ${sort.by} ${sort.order}`).toBeLessThanOrEqual(COMMON_SEARCH_MATCHES);
      }
    }
  });
});

describe("pages in creation order", () => {
  it("are read from contents_bucket_created_idx, not by sorting the bucket (the delivery API's sort=createdAt, the bundle)", async () => {
    const bucket = await commonWordBucket("created-order");
    for (const order of ["asc", "desc"] as const) {
      const first = await documentPage(database.db, bucket.id, {
        sort: { by: "createdAt", order },
        limit: 20,
        after: null,
        updatedSince: null,
        search: null,
      });
      const last = first.documents.at(-1)!;
      const query = {
        sort: { by: "createdAt", order } as const,
        limit: 20,
        after: { value: last.sortValue, contentId: last.contentId },
        updatedSince: null,
        search: null,
      };
      const second = await documentPage(database.db, bucket.id, query);
      expect(second.documents.map((document) => document.data.title)).toEqual(
        (order === "asc" ? range(2980, 2961) : range(21, 40)).map((n) => `Zeegezicht ${n}`),
      );
      // Without the index every page read all 3,000 contents rows to sort them (540 ms a page at 100,000 on PGlite).
      expect(await contentsRowsRead(documentPageStatement(bucket.id, query)), order).toBeLessThanOrEqual(21);
    }
  });
});

/** The documents "Zeegezicht 12" finds, newest first: 12, 120–129, 1200–1299. */
const TWELVES = [12, ...range(120, 129), ...range(1200, 1299)];

/** from, from ± 1, … to. */
function range(from: number, to: number): number[] {
  const step = from <= to ? 1 : -1;
  return Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => from + i * step);
}

/**
 * A bucket of 3,000 published documents that all name their maker, "Zeegezicht n" a second older than n - 1 (updated,
 * published and created alike): a word most documents hold, and titles whose numbers say where they belong in time order.
 */
async function commonWordBucket(slug: string): Promise<{ id: string }> {
  const bucket = await createTestBucket(database.db, { slug });
  await seedDocuments(database.db, bucket.id, 3000, "jsonb_build_object('title', 'Zeegezicht ' || n, 'maker', 'Hendrik Willem Mesdag')");
  await database.db.query(
    `UPDATE contents SET updated_at = now() - (substring(search_text from 'zeegezicht (\\d+)')::int * interval '1 second'), created_at = now() - (substring(search_text from 'zeegezicht (\\d+)')::int * interval '1 second')
     WHERE bucket_id = $1`,
    [bucket.id],
  );
  // Published as saved (the delivery API's pages read published versions, and published_at as their updatedAt).
  await database.db.query(
    `UPDATE contents SET published_version_id = latest_version_id, published_at = updated_at, published_search_text = search_text WHERE bucket_id = $1`,
    [bucket.id],
  );
  await database.db.query("ANALYZE contents, versions");
  return bucket;
}

/**
 * The most rows any one scan of contents read, running the statement (EXPLAIN ANALYZE): those it answered and those
 * its filter or its index's recheck turned away.
 */
async function contentsRowsRead({ text, values }: { text: string; values: unknown[] }): Promise<number> {
  const { rows: plan } = await database.db.query<{ "QUERY PLAN": string }>(`EXPLAIN ANALYZE ${text}`, values);
  const scans: number[] = [];
  let scanIndent = -1;
  for (const { "QUERY PLAN": line } of plan) {
    const indent = line.search(/\S/);
    if (/ on contents\b/.test(line)) {
      scans.push(line.includes("(never executed)") ? 0 : Number(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(line)?.[1] ?? Number.NaN));
      scanIndent = indent;
    } else if (scanIndent >= 0 && indent > scanIndent && !line.includes("->")) {
      const removed = /Rows Removed by (?:Filter|Index Recheck): (\d+)/.exec(line);
      if (removed) scans[scans.length - 1]! += Number(removed[1]);
    } else scanIndent = -1;
  }
  expect(scans.length).toBeGreaterThan(0);
  expect(scans.every(Number.isFinite)).toBe(true);
  return Math.max(...scans);
}
