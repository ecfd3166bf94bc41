import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, findSessionUser } from "@server/accounts/sessions";
import type { Bucket } from "@server/content/buckets";
import { createContent, saveVersion, type ContentVersion } from "@server/content/store";
import type { Db } from "@server/db/client";
import { countingStatements, createTestBucket } from "@tests/support/fixtures";
import { createTestUser } from "@tests/support/http";
import { createTestDatabase, type TestDatabase } from "@tests/support/server";

/*
 * A signed-in JSON read of one document (GET /api/v1/buckets/{slug}/content/{contentId}/{versionId|latest}) reads
 * the session, its user, the bucket and the document in one statement where no read cache serves the session
 * (PostgreSQL): one round trip. The document is only ever the one of the named bucket.
 */

let database: TestDatabase;
let bucket: Bucket;
let other: Bucket;
let token: string;
let first: ContentVersion;
let second: ContentVersion;
let elsewhere: ContentVersion;
const unique = Date.now().toString(36);

beforeAll(async () => {
  database = await createTestDatabase();
  bucket = await createTestBucket(database.db, { slug: `named-${unique}`, collectionName: `named-${unique}` });
  other = await createTestBucket(database.db, { slug: `other-${unique}`, collectionName: `other-${unique}` });
  const user = await createTestUser(database.db);
  token = await createSession(database.db, user.id);
  first = await createContent(database.db, bucket.id, { title: "First" }, user.id);
  second = await saveVersion(database.db, {
    bucketId: bucket.id,
    contentId: first.contentId,
    baseVersionId: first.versionId,
    data: { title: "Second" },
    userId: user.id,
  });
  elsewhere = await createContent(database.db, other.id, { title: "Elsewhere" }, user.id);
});
afterAll(() => database.drop());

const lookup = (db: Db, slug: string, contentId: string, versionId: string | null) =>
  findSessionUser(db, token, { bucketSlug: slug, navigation: false, document: { contentId, versionId } });

describe("the session lookup with the document a JSON read names", () => {
  it("reads the latest version with the session and the bucket in one statement", async () => {
    const probe = countingStatements(database.db);
    const found = await lookup(probe.db, bucket.slug, first.contentId, null);
    expect(probe.statements).toHaveLength(1);
    expect(found?.bucket?.bucket.id).toBe(bucket.id);
    expect(found?.document).toMatchObject({
      contentId: first.contentId,
      versionId: second.versionId,
      baseVersionId: first.versionId,
      data: { title: "Second" },
    });
    expect(found?.document?.createdAt).toEqual(second.createdAt);
  });

  it("reads a named version, and nothing for a version of another document or an unknown one", async () => {
    expect((await lookup(database.db, bucket.slug, first.contentId, first.versionId))?.document).toMatchObject({
      versionId: first.versionId,
      data: { title: "First" },
    });
    expect((await lookup(database.db, bucket.slug, first.contentId, elsewhere.versionId))?.document).toBeNull();
    expect((await lookup(database.db, bucket.slug, first.contentId, crypto.randomUUID()))?.document).toBeNull();
    expect((await lookup(database.db, bucket.slug, crypto.randomUUID(), null))?.document).toBeNull();
  });

  it("never reads a document of another bucket, nor one for an unknown slug", async () => {
    expect((await lookup(database.db, bucket.slug, elsewhere.contentId, null))?.document).toBeNull();
    const unknown = await lookup(database.db, `missing-${unique}`, first.contentId, null);
    expect(unknown?.bucket).toBeNull();
    expect(unknown?.document).toBeNull();
  });

  it("reads the document through a renamed bucket's old slug", async () => {
    await database.db.query("INSERT INTO bucket_slug_redirects (old_slug, bucket_id) VALUES ($1, $2)", [`former-${unique}`, bucket.id]);
    const found = await lookup(database.db, `former-${unique}`, first.contentId, null);
    expect(found?.bucket).toMatchObject({ renamedFrom: `former-${unique}` });
    expect(found?.document).toMatchObject({ versionId: second.versionId });
  });

  it("reads nothing without a live session", async () => {
    expect(
      await findSessionUser(database.db, "not-a-session", {
        bucketSlug: bucket.slug,
        navigation: false,
        document: { contentId: first.contentId, versionId: null },
      }),
    ).toBeNull();
  });
});
