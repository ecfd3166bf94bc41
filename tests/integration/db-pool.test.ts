import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/server";

/*
 * Pooled PostgreSQL clients are reused by one transaction after another: what a transaction attaches to its
 * client (the handler that keeps a lost connection from crashing the process) must go with it, or listeners pile
 * up on long-lived clients (Node warns at 11). On PGlite the same transactions simply run.
 */

let database: TestDatabase;
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);

beforeAll(async () => {
  database = await createTestDatabase();
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await database.drop();
});

describe("transactions on pooled connections", () => {
  it("leave nothing attached to the connection after 40 transactions in a row", async () => {
    for (let i = 0; i < 40; i++) {
      const answer = await database.db.transaction((tx) => tx.query<{ n: number }>("SELECT $1::int AS n", [i]));
      expect(answer.rows[0]!.n).toBe(i);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning").map(String)).toEqual([]);
  });
});
