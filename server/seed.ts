import { randomBytes, randomUUID } from "node:crypto";
import type { Db, Queryable } from "./db/client";
import type { ScreenTable } from "@core/content/screen-table";
import { createBucket, type Bucket } from "./content/buckets";
import { publishEveryNewest } from "./content/publishing";
import { saveDocument } from "./content/save";
import type { SaveRefusal } from "./content/save-rules";
import { createUser, type Author } from "./accounts/users";
import { DEMO_BUCKETS, DEMO_RELEASE, type DemoSeeding } from "./demo-content";
import { addNewestToRelease, createRelease, exhibitTimeZone, scheduleReleaseInTransaction } from "./content/release-editing";
import { instantToZonedTime, zonedTimeToInstant } from "@core/zoned-time";
import { demoImage, demoVideo, type DemoMediaDeps } from "./demo-media";

export interface SeedResult {
  adminEmail: string;
  generatedPassword: string | null;
}

type SeedOptions = { adminEmail?: string; adminPassword?: string; media: DemoMediaDeps; screens: ScreenTable };

/** A demo document the front door refused: the demo content and its schema disagree (a defect, not a user's error). */
export class DemoDocumentRefused extends Error {
  constructor(
    bucket: string,
    readonly refusal: SaveRefusal,
  ) {
    super(`A demo document of ${bucket} was refused: ${refusal.message} ${JSON.stringify(refusal.errors.byField)}`);
    this.name = "DemoDocumentRefused";
  }
}

/**
 * One demo document through the front door (server/content/save.ts), as its admin, under a chosen contentId when
 * given. `db` is the seed's transaction (PostgreSQL) or the database (PGlite): the save joins it.
 */
export async function seedDocument(
  deps: { db: Queryable; media: DemoMediaDeps; screens: ScreenTable },
  actor: Author,
  bucket: Bucket,
  document: Record<string, unknown>,
  contentId?: string,
): Promise<string> {
  const saved = await saveDocument(deps, { actor, bucket, locale: "en", newContentId: contentId, document: { payload: document } });
  if (!saved.ok) throw new DemoDocumentRefused(bucket.slug, saved);
  return saved.version.contentId;
}

const SEED_LOCK_KEY = 7_472_846_302; // any constant shared by every server (migrate.ts has the one before it)

const hasUsers = async (db: Queryable) =>
  (await db.query<{ any: boolean }>("SELECT EXISTS (SELECT 1 FROM users) AS any")).rows[0]?.any === true;

/**
 * On the first run (no users yet), creates an admin and demo buckets with a
 * few documents, so a new install shows what the product does. With `media`
 * the demo's trends get images and its cases videos (server/demo-media.ts). The demo goes live: every document is
 * published (docs/publishing.md).
 *
 * Servers starting at once on one empty PostgreSQL database seed once: there the seed is one transaction under an
 * advisory lock, so the others wait for it, then find the admin and seed nothing (and a seed cut off leaves nothing).
 */
export async function seedDemoContent(db: Db, options: SeedOptions): Promise<SeedResult | null> {
  // Nearly every start has users: one read says so, without a transaction or a lock.
  if (await hasUsers(db)) return null;
  // PGlite has one process per DATA_DIR (server/db/data-dir-lock.ts): no other server can race this one.
  if (db.kind === "pglite") return seedEmpty(db, options);
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [SEED_LOCK_KEY]);
    return (await hasUsers(tx)) ? null : seedEmpty(tx, options);
  });
}

async function seedEmpty(db: Queryable, options: SeedOptions): Promise<SeedResult> {
  const adminEmail = options.adminEmail ?? "admin@vitrine.local";
  const password = options.adminPassword ?? randomBytes(12).toString("base64url");
  const generatedPassword = options.adminPassword === undefined ? password : null;
  const admin = await createUser(db, {
    name: "Admin",
    email: adminEmail,
    password,
    permissions: ["user", "admin", "dev"],
  });
  const created = new Map<string, Bucket>();
  let position = 0;
  for (const demo of DEMO_BUCKETS) created.set(demo.bucket.slug, await createBucket(db, { ...demo.bucket, position: position++ }));
  const bucketOf = (slug: string): Bucket => {
    const bucket = created.get(slug);
    if (!bucket) throw new Error(`demo bucket ${slug} was not created`);
    return bucket;
  };
  const ids = new Map<string, string[]>();
  const seed = async (bucket: Bucket, documents: Record<string, unknown>[], chosen: readonly string[] = []) => {
    const contentIds: string[] = [];
    for (const [index, document] of documents.entries()) {
      contentIds.push(await seedDocument({ db, media: options.media, screens: options.screens }, admin, bucket, document, chosen[index]));
    }
    ids.set(bucket.slug, contentIds);
  };
  // Fixed documents first; then those that refer to them or hold media, in list order.
  for (const demo of DEMO_BUCKETS) if (Array.isArray(demo.documents)) await seed(bucketOf(demo.bucket.slug), demo.documents);
  for (const demo of DEMO_BUCKETS) {
    if (Array.isArray(demo.documents)) continue;
    const bucket = bucketOf(demo.bucket.slug);
    const owner = { bucketId: bucket.id, userId: admin.id };
    const media = options.media;
    const ownIds: string[] = [];
    const seeding: DemoSeeding = {
      ids: (slug) => ids.get(slug) ?? [],
      ownIds: (count) => {
        while (ownIds.length < count) ownIds.push(randomUUID());
        return ownIds.slice(0, count);
      },
      image: (image) => demoImage(db, media, owner, image),
      video: (video) => demoVideo(db, media, owner, video),
    };
    await seed(bucket, await demo.documents(seeding), ownIds);
  }
  await publishEveryNewest(db, admin);
  await seedDemoRelease({ db, media: options.media, screens: options.screens }, admin, bucketOf(DEMO_RELEASE.bucket));
  return { adminEmail, generatedPassword };
}

/** The demo's scheduled release (DEMO_RELEASE), with its document saved after the rest went live: a draft. */
async function seedDemoRelease(deps: Parameters<typeof seedDocument>[0], admin: Author & { name: string }, bucket: Bucket) {
  const contentId = await seedDocument(deps, admin, bucket, DEMO_RELEASE.document);
  const actor = { id: admin.id, name: admin.name };
  const release = await createRelease(deps.db, actor, { name: DEMO_RELEASE.name });
  await addNewestToRelease(deps.db, release.id, [{ bucketId: bucket.id, contentId }]);
  const zone = exhibitTimeZone();
  const day = instantToZonedTime(new Date(Date.now() + DEMO_RELEASE.daysAhead * 86_400_000), zone).slice(0, 10);
  const at = zonedTimeToInstant(`${day}T${DEMO_RELEASE.time}`, zone);
  if (at) await scheduleReleaseInTransaction(deps.db, actor, release.id, at);
}
