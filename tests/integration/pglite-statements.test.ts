import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgliteStatements } from "@server/db/pglite-statements";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";

/*
 * On PGlite every statement is prepared once per SQL text and then only bound and run (server/db/pglite-statements.ts):
 * Postgres parses and plans it once instead of on every call.
 */
const onPostgres = process.env.VITRINE_TEST_DB === "postgres";

const preparedCount = async (db: { query: TestDatabase["db"]["query"] }, sql: string) =>
  (await db.query<{ count: number }>("SELECT count(*)::int AS count FROM pg_prepared_statements WHERE statement = $1", [sql])).rows[0]!
    .count;

describe.skipIf(onPostgres)("statements on the embedded database", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it("prepares a statement once and runs it again after an error, answering the same types as before", async () => {
    const { db } = database;
    await db.exec(
      "CREATE TABLE statement_probe (id int PRIMARY KEY, doc jsonb NOT NULL, tags text[], at timestamptz NOT NULL DEFAULT now())",
    );
    const insert = "INSERT INTO statement_probe (id, doc, tags) VALUES ($1, $2, $3) RETURNING id, doc, tags, at";
    const first = await db.query<{ id: number; doc: unknown; tags: string[]; at: Date }>(insert, [
      1,
      { title: "Één", n: [1, 2] },
      ["a", "b,c"],
    ]);
    expect(first.rows).toEqual([{ id: 1, doc: { title: "Één", n: [1, 2] }, tags: ["a", "b,c"], at: expect.any(Date) }]);
    expect(first.rowCount).toBe(1);

    await expect(db.query(insert, [1, {}, null])).rejects.toMatchObject({ code: "23505" });
    const third = await db.query<{ id: number; tags: string[] | null }>(insert, [2, {}, null]);
    expect(third.rows).toEqual([expect.objectContaining({ id: 2, tags: null })]);
    expect(await preparedCount(db, insert)).toBe(1);

    const update = "UPDATE statement_probe SET doc = $2 WHERE id = $1";
    expect(await db.query(update, [2, { x: 1 }])).toMatchObject({ rows: [], rowCount: 1 });
    await db.transaction(async (tx) => {
      expect(await tx.query(update, [1, { x: 2 }])).toMatchObject({ rowCount: 1 });
    });
    expect(await preparedCount(db, update)).toBe(1);
    expect((await db.query<{ doc: unknown }>("SELECT doc FROM statement_probe ORDER BY id")).rows).toEqual([
      { doc: { x: 2 } },
      { doc: { x: 1 } },
    ]);
  });

  it("answers a table's new shape after the table changed under a prepared statement", async () => {
    const { db } = database;
    await db.exec("CREATE TABLE shape_probe (id int PRIMARY KEY); INSERT INTO shape_probe VALUES (1)");
    const select = "SELECT * FROM shape_probe WHERE id = $1";
    expect((await db.query(select, [1])).rows).toEqual([{ id: 1 }]);
    await db.exec("ALTER TABLE shape_probe ADD COLUMN label text NOT NULL DEFAULT 'new'");
    expect((await db.query(select, [1])).rows).toEqual([{ id: 1, label: "new" }]);
  });

  it("keeps at most its capacity of statements, closing the least recently used", async () => {
    const pglite = await PGlite.create();
    try {
      const statements = new PgliteStatements(pglite, 2);
      await statements.run("SELECT 1 AS one");
      await statements.run("SELECT 2 AS two");
      await statements.run("SELECT 1 AS one");
      await statements.run("SELECT 3 AS three");
      expect(statements.size).toBe(2);
      const { rows } = await pglite.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements ORDER BY statement");
      expect(rows.map((row) => row.statement)).toEqual(["SELECT 1 AS one", "SELECT 3 AS three"]);
      expect((await statements.run<{ two: number }>("SELECT 2 AS two")).rows).toEqual([{ two: 2 }]);
    } finally {
      await pglite.close();
    }
  });
});
