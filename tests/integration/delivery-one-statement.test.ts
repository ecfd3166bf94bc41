import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiClient } from "@server/accounts/api-clients";
import type { Bucket } from "@server/content/buckets";
import { createPublished } from "@tests/support/publishing";
import { authenticateWithDocument } from "@server/delivery/read";
import { countingStatements, createTestBucket } from "@tests/support/fixtures";
import { deliveryClient } from "@tests/support/delivery";
import { createTestUser } from "@tests/support/http";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";

/*
 * A single-document call reads its client, the client's scope, the bucket and the document (or only its state) in
 * one statement (server/delivery/read.ts authenticateWithDocument): one round trip on PostgreSQL. Nothing of a
 * bucket outside the client's scope is read, and last_used_at is written at most once a minute, not per request.
 */

let database: TestDatabase;
let shown: Bucket;
let hidden: Bucket;
let shownDoc: string;
let hiddenDoc: string;
const unique = Date.now().toString(36);

beforeAll(async () => {
  database = await createTestDatabase();
  shown = await createTestBucket(database.db, { slug: `shown-${unique}`, collectionName: `shown-${unique}` });
  hidden = await createTestBucket(database.db, { slug: `hidden-${unique}`, collectionName: `hidden-${unique}`, private: true });
  shownDoc = (await createPublished(database.db, shown.id, { title: "Shown" }, null)).contentId;
  hiddenDoc = (await createPublished(database.db, hidden.id, { title: "Hidden" }, null)).contentId;
});
afterAll(() => database.drop());

describe("the single-document lookup", () => {
  it("finds the client, the bucket and the document in one statement, data or state only", async () => {
    const { token, client } = await deliveryClient(database.db, { read: [shown.slug] });
    // The first use notes last_used_at (a second statement, once a minute); the one after is one statement.
    await authenticateWithDocument(database.db, token, shown.slug, shownDoc, true);
    const probe = countingStatements(database.db);
    const full = await authenticateWithDocument(probe.db, token, shown.slug, shownDoc, true);
    expect(probe.statements).toHaveLength(1);
    expect(full?.client.id).toBe(client.id);
    expect(full?.found.bucket).toMatchObject({ id: shown.id, slug: shown.slug, locales: shown.locales, jsonSchema: shown.jsonSchema });
    expect(full?.found.document).toMatchObject({ contentId: shownDoc, data: { title: "Shown" } });

    const state = await authenticateWithDocument(probe.db, token, shown.slug, shownDoc, false);
    expect(probe.statements).toHaveLength(2);
    expect(state?.found.document).toMatchObject({ contentId: shownDoc });
    expect(state?.found.document).not.toHaveProperty("data");
  });

  it("reads nothing of a bucket outside the client's scope", async () => {
    const { token } = await deliveryClient(database.db, { read: [shown.slug] });
    const found = await authenticateWithDocument(database.db, token, hidden.slug, hiddenDoc, true);
    expect(found?.found).toEqual({ bucket: null, document: null });
  });

  it("answers null for a wrong secret, a malformed token and a revoked client", async () => {
    const { token, client } = await deliveryClient(database.db, { read: [shown.slug] });
    const [id, secret = ""] = token.split(".");
    const wrong = `${id}.${secret.startsWith("A") ? "B" : "A"}${secret.slice(1)}`;
    expect(await authenticateWithDocument(database.db, wrong, shown.slug, shownDoc, true)).toBeNull();
    expect(await authenticateWithDocument(database.db, "not-a-token", shown.slug, shownDoc, true)).toBeNull();
    const admin = await createTestUser(database.db, { name: "Revoker", permissions: ["user", "admin"] });
    await revokeApiClient(database.db, admin, client.id);
    expect(await authenticateWithDocument(database.db, token, shown.slug, shownDoc, true)).toBeNull();
  });

  it("writes last_used_at once for many requests at once, not per request", async () => {
    const { token, client } = await deliveryClient(database.db, { read: [shown.slug] });
    const probe = countingStatements(database.db);
    await Promise.all(Array.from({ length: 10 }, () => authenticateWithDocument(probe.db, token, shown.slug, shownDoc, false)));
    await authenticateWithDocument(probe.db, token, shown.slug, shownDoc, false);
    // One while it is being written; on PostgreSQL a read that overtook the write may see the old value too.
    expect(probe.statements.filter((sql) => sql.includes("UPDATE api_clients")).length).toBeLessThanOrEqual(2);
    const { rows } = await database.db.query<{ lastUsedAt: Date | null }>(
      `SELECT last_used_at AS "lastUsedAt" FROM api_clients WHERE id = $1`,
      [client.id],
    );
    expect(rows[0]?.lastUsedAt).toBeInstanceOf(Date);
  });
});
