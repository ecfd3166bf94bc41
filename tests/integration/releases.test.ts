import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import type { Bucket } from "@server/content/buckets";
import { openPostgres, type Db } from "@server/db/client";
import { createContent, deleteContent, saveVersion } from "@server/content/store";
import { publishDocument } from "@server/content/publishing";
import { publicationOf } from "@server/content/publication-state";
import {
  getRelease,
  listReleases,
  releasesOfDocument,
  ReleaseNotEditableError,
  ReleaseNotFoundError,
  ReleaseNotPublishedError,
  ReleaseScheduleError,
} from "@server/content/releases";
import {
  addToRelease,
  createRelease,
  removeFromRelease,
  renameRelease,
  scheduleRelease,
  unscheduleRelease,
} from "@server/content/release-editing";
import { publishRelease, rollbackRelease } from "@server/content/release-rollout";
import { listOverview } from "@server/content/listing";
import type { PublicationState } from "@core/content/publication";
import { ReleaseScheduler } from "@server/content/release-scheduler";
import { createWebhook } from "@server/webhooks/store";
import { deliveryBody } from "@server/webhooks/dispatcher";
import { createTestBucket, signedInUser } from "@tests/support/fixtures";
import { deliver, deliveryClient, type Doc } from "@tests/support/delivery";
import { TEST_PUBLISHER } from "@tests/support/publishing";
import { startTestServer, type TestServer } from "@tests/support/server";

/*
 * Releases (docs/publishing.md, Releases; issue 31): a named set of documents at chosen versions, published together
 * in one transaction, now or at a scheduled time (exactly once with several servers), and rolled back in one.
 */

let server: TestServer;
let works: Bucket;
let token: string;
const unique = Date.now().toString(36);
const CURATOR = { id: null, name: "Curator" };
const silent = pino({ level: "silent" });

const read = (path: string) => deliver(server.url, `/api/v1/delivery${path}`, token);
const documentPath = (contentId: string) => `/buckets/${works.slug}/documents/${contentId}`;
const titleServed = async (contentId: string): Promise<string | null> => {
  const response = await read(documentPath(contentId));
  return response.status === 200 ? (((await response.json()) as Doc).data.title as string) : null;
};

const newDocument = (title: string) => createContent(server.db, works.id, { title }, null);
const saveOver = (version: { contentId: string; versionId: string }, title: string) =>
  saveVersion(server.db, {
    bucketId: works.id,
    contentId: version.contentId,
    baseVersionId: version.versionId,
    data: { title },
    userId: null,
  });

beforeAll(async () => {
  server = await startTestServer();
  works = await createTestBucket(server.db, {
    slug: `rworks-${unique}`,
    collectionName: `rworks-${unique}`,
    jsonSchema: { type: "object", properties: { title: { type: "string" } } },
  });
  ({ token } = await deliveryClient(server.db, { read: [works.slug] }));
});
afterAll(() => server.stop());

describe("a release", () => {
  it("publishes every document at its chosen version in one transaction; the delivery API serves them after", async () => {
    const admin = await signedInUser(server.url, server.db, { permissions: ["user", "admin"] });
    const hook = await createWebhook(server.db, admin.user, {
      url: "https://example.test/releases",
      secret: "a-secret-of-the-webhook",
      events: ["document.published", "release.published", "release.rolled_back"],
      bucketSlugs: [works.slug],
    });
    const live = await newDocument("Live, old text");
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: live.contentId });
    const liveNewer = await saveOver(live, "Live, new text");
    const pinned = await newDocument("Pinned, first");
    await saveOver(pinned, "Pinned, second (not in the release)");
    const draft = await newDocument("Never published");

    const release = await createRelease(server.db, CURATOR, { name: "  Opening night  " });
    expect(release).toMatchObject({ name: "Opening night", state: "open", itemCount: 0, createdBy: "Curator" });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: live.contentId });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: pinned.contentId, versionId: pinned.versionId });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: draft.contentId });
    const shown = await getRelease(server.db, release.id);
    expect(shown.items.map((item) => [item.title, item.versionId, item.releaseVersionId, item.document.state])).toEqual([
      ["Live, new text", null, liveNewer.versionId, "changed"],
      ["Pinned, first", pinned.versionId, pinned.versionId, "draft"],
      ["Never published", null, draft.versionId, "draft"],
    ]);
    expect((await releasesOfDocument(server.db, draft.contentId)).map((r) => r.id)).toEqual([release.id]);
    expect(await titleServed(draft.contentId)).toBeNull();

    const outcome = await publishRelease(server.db, CURATOR, release.id);
    expect(outcome.changed).toBe(3);
    expect(outcome.release).toMatchObject({ state: "published", publishedBy: "Curator", itemCount: 3 });
    expect(await titleServed(live.contentId)).toBe("Live, new text");
    expect(await titleServed(pinned.contentId)).toBe("Pinned, first");
    expect(await titleServed(draft.contentId)).toBe("Never published");

    // One transaction: the publications share the release's id and commit time.
    const { rows } = await server.db.query<{ n: number; times: number }>(
      `SELECT count(*)::int AS n, count(DISTINCT (SELECT xmin::text FROM contents WHERE content_id = p.content_id))::int AS times
       FROM publications p WHERE release_id = $1`,
      [release.id],
    );
    expect(rows[0]).toEqual({ n: 3, times: 1 });
    const items = (await getRelease(server.db, release.id)).items;
    expect(items.map((item) => [item.previousVersionId, item.publishedVersionId])).toEqual([
      [live.versionId, liveNewer.versionId],
      [null, pinned.versionId],
      [null, draft.versionId],
    ]);
    // Each document's own event, and one of the release.
    const deliveries = await server.db.query<{ event: string; contentId: string | null; releaseId: string | null }>(
      `SELECT event, content_id AS "contentId", release_id AS "releaseId" FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq`,
      [hook.id],
    );
    expect(deliveries.rows.filter((row) => row.event === "document.published").map((row) => row.contentId)).toEqual(
      expect.arrayContaining([live.contentId, pinned.contentId, draft.contentId]),
    );
    expect(deliveries.rows.filter((row) => row.event === "release.published")).toEqual([
      { event: "release.published", contentId: null, releaseId: release.id },
    ]);
    const body = JSON.parse(
      deliveryBody({
        id: "d",
        event: "release.published",
        bucketSlug: null,
        contentId: release.id,
        versionId: null,
        releaseId: release.id,
        occurredAt: new Date(0),
      }),
    ) as Record<string, unknown>;
    expect(body).toEqual({ event: "release.published", releaseId: release.id, occurredAt: new Date(0).toISOString(), deliveryId: "d" });
    const activity = await server.db.query<{ action: string; subject: string }>(
      `SELECT action, subject FROM admin_activity WHERE details->>'releaseId' = $1 ORDER BY created_at`,
      [release.id],
    );
    expect(activity.rows).toEqual([{ action: "releasePublished", subject: "Opening night" }]);
  });

  it("leaves nothing published when one document fails midway (the whole transaction rolls back)", async () => {
    const first = await newDocument("First of a failing release");
    const second = await newDocument("Second, whose publish fails");
    const third = await newDocument("Third of a failing release");
    const release = await createRelease(server.db, CURATOR, { name: "Fails midway" });
    for (const doc of [first, second, third])
      await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: doc.contentId });
    // The second document's row refuses the change, as a document removed under the release would.
    await server.db.exec(`
      CREATE FUNCTION refuse_publish_${unique}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'document gone'; END $$;
      CREATE TRIGGER refuse_${unique} BEFORE UPDATE OF published_version_id ON contents
        FOR EACH ROW WHEN (NEW.content_id = '${second.contentId}') EXECUTE FUNCTION refuse_publish_${unique}();`);
    try {
      await expect(publishRelease(server.db, CURATOR, release.id)).rejects.toThrow(/document gone/);
    } finally {
      await server.db.exec(`DROP TRIGGER refuse_${unique} ON contents; DROP FUNCTION refuse_publish_${unique}();`);
    }
    for (const doc of [first, second, third]) {
      expect((await publicationOf(server.db, works.id, doc.contentId))?.state).toBe("draft");
      expect(await titleServed(doc.contentId)).toBeNull();
    }
    const { rows } = await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM publications WHERE release_id = $1`, [
      release.id,
    ]);
    expect(rows[0]!.n).toBe(0);
    expect((await getRelease(server.db, release.id)).state).toBe("open");
    // Published afterwards, every document goes live.
    await publishRelease(server.db, CURATOR, release.id);
    expect(await titleServed(second.contentId)).toBe("Second, whose publish fails");
  });

  it("loses a deleted document (its item goes with it) and still publishes the others", async () => {
    const kept = await newDocument("Kept");
    const gone = await newDocument("Deleted before publishing");
    const release = await createRelease(server.db, CURATOR, { name: "With a deleted document" });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: kept.contentId });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: gone.contentId });
    await deleteContent(server.db, works.id, gone.contentId, gone.versionId);
    expect((await getRelease(server.db, release.id)).items.map((item) => item.contentId)).toEqual([kept.contentId]);
    expect((await publishRelease(server.db, CURATOR, release.id)).changed).toBe(1);
  });

  it("is editable while open or scheduled, and refused once published", async () => {
    const doc = await newDocument("In a release");
    const other = await newDocument("Another");
    const release = await createRelease(server.db, CURATOR, { name: "Editable" });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: doc.contentId });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: other.contentId });
    expect(await removeFromRelease(server.db, CURATOR, release.id, other.contentId)).toBe(true);
    expect(await removeFromRelease(server.db, CURATOR, release.id, other.contentId)).toBe(false);
    expect((await renameRelease(server.db, CURATOR, release.id, "Renamed")).name).toBe("Renamed");
    const at = new Date(Date.now() + 86_400_000);
    expect(await scheduleRelease(server.db, CURATOR, release.id, at)).toMatchObject({ state: "scheduled", scheduledAt: at });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: other.contentId });
    expect((await unscheduleRelease(server.db, CURATOR, release.id)).state).toBe("open");
    await expect(scheduleRelease(server.db, CURATOR, release.id, new Date(Date.now() - 1000))).rejects.toBeInstanceOf(ReleaseScheduleError);
    await expect(
      addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: doc.contentId, versionId: other.versionId }),
    ).rejects.toThrow(/No version/);
    await expect(rollbackRelease(server.db, CURATOR, release.id)).rejects.toBeInstanceOf(ReleaseNotPublishedError);
    await publishRelease(server.db, CURATOR, release.id);

    const refused = [
      () => addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: doc.contentId }),
      () => removeFromRelease(server.db, CURATOR, release.id, doc.contentId),
      () => renameRelease(server.db, CURATOR, release.id, "Too late"),
      () => scheduleRelease(server.db, CURATOR, release.id, at),
      () => unscheduleRelease(server.db, CURATOR, release.id),
      () => publishRelease(server.db, CURATOR, release.id),
    ];
    for (const attempt of refused) await expect(attempt()).rejects.toBeInstanceOf(ReleaseNotEditableError);
    const after = await getRelease(server.db, release.id);
    expect(after).toMatchObject({ name: "Renamed", state: "published", itemCount: 2 });
    await expect(getRelease(server.db, "00000000-0000-4000-8000-000000000000")).rejects.toBeInstanceOf(ReleaseNotFoundError);
    await expect(getRelease(server.db, "not-an-id")).rejects.toBeInstanceOf(ReleaseNotFoundError);
    expect((await listReleases(server.db, { states: ["published"] })).map((r) => r.id)).toContain(release.id);
    expect((await listReleases(server.db, { states: ["open"] })).map((r) => r.id)).not.toContain(release.id);
  });
});

describe("rollback", () => {
  it("restores each document's previous published version, and takes off the one that had none, in one step", async () => {
    const hadOne = await newDocument("Before the release");
    await publishDocument(server.db, TEST_PUBLISHER, { bucket: works, contentId: hadOne.contentId });
    await saveOver(hadOne, "In the release");
    const hadNone = await newDocument("New in the release");
    const release = await createRelease(server.db, CURATOR, { name: "To roll back" });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: hadOne.contentId });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: hadNone.contentId });
    await publishRelease(server.db, CURATOR, release.id);
    expect(await titleServed(hadOne.contentId)).toBe("In the release");
    expect(await titleServed(hadNone.contentId)).toBe("New in the release");

    const outcome = await rollbackRelease(server.db, CURATOR, release.id);
    expect(outcome).toMatchObject({ changed: 2, release: { state: "rolled_back", rolledBackBy: "Curator" } });
    expect(await titleServed(hadOne.contentId)).toBe("Before the release");
    expect(await titleServed(hadNone.contentId)).toBeNull();
    expect(await publicationOf(server.db, works.id, hadOne.contentId)).toMatchObject({
      state: "changed",
      publishedVersionId: hadOne.versionId,
    });
    expect((await publicationOf(server.db, works.id, hadNone.contentId))?.state).toBe("unpublished");
    await expect(rollbackRelease(server.db, CURATOR, release.id)).rejects.toBeInstanceOf(ReleaseNotPublishedError);
    await expect(addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: hadOne.contentId })).rejects.toBeInstanceOf(
      ReleaseNotEditableError,
    );
    const { rows } = await server.db.query<{ action: string }>(
      `SELECT action FROM admin_activity WHERE details->>'releaseId' = $1 ORDER BY created_at`,
      [release.id],
    );
    expect(rows.map((row) => row.action)).toEqual(["releasePublished", "releaseRolledBack"]);
  });
});

describe("a scheduled release", () => {
  it("is published by the poller when its time comes (a clock the test sets), in the name of who scheduled it", async () => {
    const doc = await newDocument("Opens at ten");
    const release = await createRelease(server.db, CURATOR, { name: "At ten" });
    await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: doc.contentId });
    const at = new Date(Date.now() + 7 * 86_400_000);
    expect((await publicationOf(server.db, works.id, doc.contentId))?.state).toBe("draft");
    await scheduleRelease(server.db, { id: null, name: "Scheduler" }, release.id, at);
    // Scheduled, in the document's own state and in the overview's filter; no longer a draft there.
    expect((await publicationOf(server.db, works.id, doc.contentId))?.state).toBe("scheduled");
    const listed = (state: PublicationState) =>
      listOverview(server.db, works.id, { limit: 500, titleKey: "title", state }).then(({ rows }) => rows.map((row) => row.contentId));
    expect(await listed("scheduled")).toEqual([doc.contentId]);
    expect(await listed("draft")).not.toContain(doc.contentId);
    let clock = new Date(at.getTime() - 1000);
    const poller = new ReleaseScheduler({ db: server.db, logger: silent, now: () => clock });
    expect(await poller.runOnce()).not.toContain(release.id);
    expect(await titleServed(doc.contentId)).toBeNull();
    clock = at;
    expect(await poller.runOnce()).toContain(release.id);
    expect(await titleServed(doc.contentId)).toBe("Opens at ten");
    expect(await getRelease(server.db, release.id)).toMatchObject({ state: "published", publishedBy: "Scheduler", scheduledAt: at });
    expect((await publicationOf(server.db, works.id, doc.contentId))?.state).toBe("published");
    expect(await listed("scheduled")).not.toContain(doc.contentId);
    expect(await poller.runOnce()).not.toContain(release.id);
    await poller.stop();
  });

  it("is published exactly once when two pollers (two servers' connections) look at once", async () => {
    const docs = await Promise.all([newDocument("Twice looked at, one"), newDocument("Twice looked at, two")]);
    const release = await createRelease(server.db, CURATOR, { name: "Two servers" });
    for (const doc of docs) await addToRelease(server.db, CURATOR, release.id, { bucketId: works.id, contentId: doc.contentId });
    const at = new Date(Date.now() + 8 * 86_400_000);
    await scheduleRelease(server.db, CURATOR, release.id, at);
    // PostgreSQL: a second pool on the same database, as a second server has; PGlite has one process, one handle.
    const second: Db = server.database.databaseUrl ? openPostgres(server.database.databaseUrl) : server.db;
    try {
      const now = () => new Date(at.getTime() + 1);
      const pollers = [server.db, second, server.db, second].map((db) => new ReleaseScheduler({ db, logger: silent, now }));
      const published = await Promise.all(pollers.map((poller) => poller.runOnce()));
      expect(published.flat().filter((id) => id === release.id)).toHaveLength(1);
      await Promise.all(pollers.map((poller) => poller.stop()));
    } finally {
      if (second !== server.db) await second.close();
    }
    const { rows } = await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM publications WHERE release_id = $1`, [
      release.id,
    ]);
    expect(rows[0]!.n).toBe(2);
    const activity = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM admin_activity WHERE details->>'releaseId' = $1 AND action = 'releasePublished'`,
      [release.id],
    );
    expect(activity.rows[0]!.n).toBe(1);
  });
});

describe("a release of 1,000 documents", () => {
  it("publishes in under 2 s on PGlite", async () => {
    const bulk = await createTestBucket(server.db, {
      slug: `bulk-${unique}`,
      collectionName: `bulk-${unique}`,
      jsonSchema: { type: "object", properties: { title: { type: "string" } } },
    });
    const release = await createRelease(server.db, CURATOR, { name: "A thousand" });
    await server.db.transaction(async (tx) => {
      for (let i = 0; i < 1000; i++) {
        const doc = await createContent(tx, bulk.id, { title: `Work ${i}` }, null);
        await tx.query(`INSERT INTO release_items (release_id, content_id, bucket_id) VALUES ($1, $2, $3)`, [
          release.id,
          doc.contentId,
          bulk.id,
        ]);
      }
    });
    const started = performance.now();
    const outcome = await publishRelease(server.db, CURATOR, release.id);
    const ms = performance.now() - started;
    console.log(`releases: publishing 1,000 documents took ${Math.round(ms)} ms on ${server.db.kind}`);
    expect(outcome.changed).toBe(1000);
    const { rows } = await server.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM contents WHERE bucket_id = $1 AND published_version_id = latest_version_id`,
      [bulk.id],
    );
    expect(rows[0]!.n).toBe(1000);
    if (server.db.kind === "pglite") expect(ms).toBeLessThan(2000);
    const rollbackStarted = performance.now();
    await rollbackRelease(server.db, CURATOR, release.id);
    console.log(`releases: rolling back 1,000 documents took ${Math.round(performance.now() - rollbackStarted)} ms on ${server.db.kind}`);
  }, 120_000);
});
