import type { Queryable } from "@server/db/client";
import { documentTitle } from "@core/content/title";
import { collectionReferences } from "@core/content/references";
import type { User } from "@server/accounts/users";
import { findBucketByCollection, isBucketVisible, type Bucket } from "./buckets";
import { compileBucketSchema } from "./validator";

/*
 * Before a publish (docs/publishing.md): the documents a version references, directly or through what those
 * reference, that have no published version, so that the editor can publish them along (publishWithReferences,
 * publishing.ts; a release's: release-references.ts). Only reads: nothing here publishes.
 */

/** A document a publish would leave an exhibit pointing at without content: referenced, and not published. */
export interface UnpublishedReference {
  bucket: Bucket;
  contentId: string;
  title: string;
  state: "draft" | "unpublished";
}

/** How many documents a publish looks through for what it references: a bound on the walk, not on a schema. */
const REFERENCE_WALK_LIMIT = 500;

/**
 * What a document's version references, directly or through the documents it references (sub-forms of sub-forms,
 * the cases of a session), that has no published version: an exhibit would get a reference it cannot follow
 * (the delivery API leaves it as an id). Only buckets the user may open are looked into; their documents' newest
 * versions are followed, as publishing them would publish those.
 */
export function unpublishedReferences(
  db: Queryable,
  user: User,
  bucket: Pick<Bucket, "jsonSchema" | "locales">,
  data: Record<string, unknown>,
): Promise<UnpublishedReference[]> {
  return unpublishedReferencesOf(db, user, [{ bucket, data }], []);
}

/**
 * The same for several documents going live together (a release): what any of them references, except the
 * documents in `going` (their contentIds), which go live with them.
 */
export async function unpublishedReferencesOf(
  db: Queryable,
  user: User,
  roots: ReadonlyArray<{ bucket: Pick<Bucket, "jsonSchema" | "locales">; data: Record<string, unknown> }>,
  going: readonly string[],
): Promise<UnpublishedReference[]> {
  const found: UnpublishedReference[] = [];
  const seen = new Set<string>(going.map((id) => id.toLowerCase()));
  const buckets = new Map<string, Bucket | null>();
  let level = roots.flatMap(({ bucket, data }) => collectionReferences(compileBucketSchema(bucket).schema, data));
  const limit = seen.size + REFERENCE_WALK_LIMIT;
  while (level.length && seen.size < limit) {
    const byCollection = new Map<string, string[]>();
    for (const { collection, contentId } of level) {
      if (seen.has(contentId) || seen.size >= limit) continue;
      seen.add(contentId);
      byCollection.set(collection, [...(byCollection.get(collection) ?? []), contentId]);
    }
    const next: typeof level = [];
    for (const [collection, ids] of byCollection) {
      if (!buckets.has(collection)) {
        const target = await findBucketByCollection(db, collection);
        buckets.set(collection, target && isBucketVisible(target, user) ? target : null);
      }
      const target = buckets.get(collection);
      if (!target) continue;
      const { rows } = await db.query<{ contentId: string; data: Record<string, unknown>; published: boolean; unpublishedAt: Date | null }>(
        `SELECT c.content_id AS "contentId", v.data, c.published_version_id IS NOT NULL AS published, c.unpublished_at AS "unpublishedAt"
         FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
         WHERE c.bucket_id = $1 AND c.content_id = ANY ($2::uuid[])`,
        [target.id, ids],
      );
      for (const row of rows) {
        if (row.published) continue;
        found.push({
          bucket: target,
          contentId: row.contentId,
          title: documentTitle(row.data, target.jsonSchema, target.locales),
          state: row.unpublishedAt === null ? "draft" : "unpublished",
        });
        next.push(...collectionReferences(compileBucketSchema(target).schema, row.data));
      }
    }
    level = next;
  }
  return found;
}
