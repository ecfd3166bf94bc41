import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";
import { createTestBucket } from "@tests/support/fixtures";
import { documentCountSql } from "@server/content/document-counts";
import { createContent, deleteContent } from "@server/content/store";
import { listOverview, overviewStatement } from "@server/content/listing";
import type { Queryable } from "@server/db/client";

/*
 * A bucket's document count is kept with every create and delete (migration 028), in one slot per database
 * connection, so that concurrent creates in one bucket do not queue on a shared row until each other's commit.
 * The overview's statement reads it once per page, and uses it to read nothing for a page past the last.
 */
const onPostgres = process.env.VITRINE_TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function documentCount(db: Queryable, bucketId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`SELECT ${documentCountSql("$1::uuid")} AS count`, [bucketId]);
  return rows[0]!.count;
}

async function storedDocuments(bucketId: string): Promise<number> {
  const { rows } = await database.db.query<{ count: number }>("SELECT count(*)::int AS count FROM contents WHERE bucket_id = $1", [
    bucketId,
  ]);
  return rows[0]!.count;
}

describe("a bucket's document count", () => {
  it("counts every create and delete, made at once over several connections", async () => {
    const bucket = await createTestBucket(database.db);
    expect(await documentCount(database.db, bucket.id)).toBe(0);
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, n) => createContent(database.db, bucket.id, { title: `Document ${n}` }, null)),
    );
    await Promise.all(created.slice(0, 5).map((document) => deleteContent(database.db, bucket.id, document.contentId, document.versionId)));

    expect(await storedDocuments(bucket.id)).toBe(19);
    expect(await documentCount(database.db, bucket.id)).toBe(19);
    expect((await listOverview(database.db, bucket.id, { limit: 5, titleKey: "title" })).total).toBe(19);
  });

  it("is the bucket's own: another bucket's creates do not change it", async () => {
    const [counted, other] = [await createTestBucket(database.db), await createTestBucket(database.db)];
    await createContent(database.db, counted.id, { title: "Counted" }, null);
    await Promise.all([1, 2, 3].map((n) => createContent(database.db, other.id, { title: `Other ${n}` }, null)));
    expect(await documentCount(database.db, counted.id)).toBe(1);
    expect(await documentCount(database.db, other.id)).toBe(3);
  });

  it.runIf(onPostgres)("lets a create proceed while another connection's create in the same bucket is not committed yet", async () => {
    const bucket = await createTestBucket(database.db);
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstCreated!: (slot: number) => void;
    const firstSlot = new Promise<number>((resolve) => (firstCreated = resolve));
    const first = database.db.transaction(async (tx) => {
      await createContent(tx, bucket.id, { title: "First, committed last" }, null);
      firstCreated(await slotOf(tx));
      await firstMayCommit;
    });
    try {
      const slot = await firstSlot;
      // Another connection of the pool, on another count slot (connections whose pids share a remainder share one):
      // a connection on the first one's slot is held while the next is tried, so the pool hands out a new one.
      const createOnOtherSlot = (): Promise<string> =>
        database.db.transaction(async (tx) => {
          if ((await slotOf(tx)) === slot) return createOnOtherSlot();
          // Before slots, this waited on the bucket's row until the first commit: the lock timeout ends it instead.
          await tx.query("SET LOCAL lock_timeout = '3s'");
          await createContent(tx, bucket.id, { title: "Second, committed first" }, null);
          return "created";
        });
      const second = await createOnOtherSlot();
      expect(second).toBe("created");
      expect(await documentCount(database.db, bucket.id)).toBe(1);
    } finally {
      releaseFirst();
      await first;
    }
    expect(await documentCount(database.db, bucket.id)).toBe(2);
  });
});

describe("the overview's statement", () => {
  it("computes the count once per page, not once per document on it", async () => {
    const bucket = await createTestBucket(database.db);
    await Promise.all([1, 2, 3].map((n) => createContent(database.db, bucket.id, { title: `Listed ${n}` }, null)));
    const { text, values } = overviewStatement(bucket.id, { limit: 50, titleKey: "title" });
    const { rows } = await database.db.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${text}`, values);
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    expect(plan).toMatch(/InitPlan[\s\S]*bucket_document_counts/);
    // Every read of the count runs once (a per-document SubPlan would run once per row); the scheduled-release check
    // is a SubPlan of its own, hashed over the few scheduled releases.
    const countReads = [...plan.matchAll(/on bucket_document_counts\b.*\bloops=(\d+)/g)].map((match) => match[1]);
    expect(countReads.length).toBeGreaterThan(0);
    expect(
      countReads.every((loops) => loops === "1"),
      plan,
    ).toBe(true);
  });

  it("is planned once when prepared: its page size and offset are in its text, so the generic plan knows the rows it reads", async () => {
    const bucket = await createTestBucket(database.db);
    await createContent(database.db, bucket.id, { title: "Planned" }, null);
    const { text } = overviewStatement(bucket.id, { limit: 21, titleKey: "title" });
    const plans = await database.db.transaction(async (tx) => {
      await tx.query(`PREPARE overview_page(uuid, text) AS ${text}`);
      try {
        for (let run = 0; run < 8; run++) await tx.query(`EXECUTE overview_page('${bucket.id}', 'title')`);
        const { rows } = await tx.query<{ generic: number; custom: number }>(
          "SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = 'overview_page'",
        );
        return rows[0]!;
      } finally {
        await tx.query("DEALLOCATE overview_page");
      }
    });
    // Postgres tries five custom plans before it weighs the generic one; with LIMIT $n it never took it.
    expect(plans.generic).toBeGreaterThan(0);
  });

  it("reads nothing for a page past the last: OFFSET would walk the whole bucket", async () => {
    const bucket = await createTestBucket(database.db);
    await Promise.all([1, 2, 3].map((n) => createContent(database.db, bucket.id, { title: `Listed ${n}` }, null)));
    const past = overviewStatement(bucket.id, { limit: 50, offset: 50, titleKey: "title" });
    const { rows } = await database.db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${past.text}`,
      past.values,
    );
    const scan = rows.map((row) => row["QUERY PLAN"]).find((line) => / on contents c\b/.test(line));
    expect(scan).toContain("never executed");
    expect(await listOverview(database.db, bucket.id, { limit: 50, offset: 50, titleKey: "title" })).toEqual({ rows: [], total: 3 });
    expect((await listOverview(database.db, bucket.id, { limit: 2, offset: 2, titleKey: "title" })).rows).toHaveLength(1);
  });

  it("skips to a later page through contents alone, reading the versions of that page only", async () => {
    const bucket = await createTestBucket(database.db);
    for (const n of [1, 2, 3]) await createContent(database.db, bucket.id, { title: `Listed ${n}` }, null);
    const later = overviewStatement(bucket.id, { limit: 1, offset: 2, titleKey: "title" });
    const { rows } = await database.db.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${later.text}`, later.values);
    const plan = rows[0]!["QUERY PLAN"];
    // Beneath a Limit, the versions would be read for every skipped document as well (and their titles taken).
    expect(limitsAbove(plan, "versions")).toEqual([]);
    expect(limitsAbove(plan, "contents")).toEqual(["Limit"]);
    const all = await listOverview(database.db, bucket.id, { limit: 3, titleKey: "title" });
    expect((await listOverview(database.db, bucket.id, { limit: 1, offset: 2, titleKey: "title" })).rows).toEqual(all.rows.slice(2));
  });
});

async function slotOf(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ slot: number }>("SELECT pg_backend_pid() % 64 AS slot");
  return rows[0]!.slot;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** The Limit nodes above each scan of `relation` in an EXPLAIN (FORMAT JSON) answer. */
function limitsAbove(explained: unknown, relation: string): string[] {
  const found: string[] = [];
  const walk = (node: PlanNode, limits: string[]) => {
    const here = node["Node Type"] === "Limit" ? [...limits, "Limit"] : limits;
    if (node["Relation Name"] === relation) found.push(...here);
    for (const child of node.Plans ?? []) walk(child, here);
  };
  const [root] = (typeof explained === "string" ? JSON.parse(explained) : explained) as Array<{ Plan: PlanNode }>;
  walk(root!.Plan, []);
  return found;
}
