import type { Queryable } from "@server/db/client";
import { isBucketVisible, listBuckets, type Bucket } from "./buckets";
import { searchCondition } from "./search";
import { compileBucketSchema } from "./validator";
import { exportedDocuments } from "./export-documents";
import type { User } from "@server/accounts/users";
import { collectionOfSchema, collectionReferences, type Referrer, type WhereUsed } from "@core/content/references";
import { documentTitle } from "@core/content/title";
import { schemaNodes } from "@core/schema/walk";
import { savedDocumentPath } from "@core/content/screens";
import { bucketName } from "@core/content/bucket-name";
import type { Locale } from "@core/locales";

/*
 * Where a document is used (the delete confirmation): the latest versions of documents, in buckets whose schema
 * has a `_ref` to the document's collection, that hold its contentId in such a field. The candidates come from
 * the overview's trigram index over a document's stored text (contents.search_text, migration 027): a contentId is a
 * string value of the data, so `ILIKE '%<contentId>%'` finds them without reading the buckets whole; each
 * candidate is then checked along its bucket's schema (the id in a reference field to this collection, not in
 * a text).
 */

/** The most referrers listed; the rest are counted. */
export const WHERE_USED_LIMIT = 50;

/** The buckets whose schema has a reference field (select, list, popup, inline) to `collection`. */
async function referringBuckets(db: Queryable, collection: string): Promise<Bucket[]> {
  return (await listBuckets(db)).filter((bucket) => {
    for (const { node } of schemaNodes(bucket.jsonSchema)) if (collectionOfSchema(node) === collection) return true;
    return false;
  });
}

/** The documents that refer to one document (the delete confirmation). */
export function findWhereUsed(
  db: Queryable,
  user: User,
  /** `locale`: the interface language, which names the buckets (core/content/bucket-name.ts). */
  target: { collection: string; contentId: string; locale: Locale },
): Promise<WhereUsed> {
  return findWhereUsedOfMany(db, user, { collection: target.collection, contentIds: [target.contentId], locale: target.locale });
}

/** Up to this many documents, each one's referrers are found through the index; a larger selection reads the referring buckets. */
const INDEXED_LOOKUPS = 25;

/**
 * The documents, outside `contentIds`, that refer to any of them (a bulk delete's confirmation: the selection goes
 * together, so references among its own documents do not count).
 */
export async function findWhereUsedOfMany(
  db: Queryable,
  user: User,
  target: { collection: string; contentIds: readonly string[]; locale: Locale },
): Promise<WhereUsed> {
  const wanted = new Set(target.contentIds.map((id) => id.toLowerCase()));
  const referrers: Referrer[] = [];
  let hidden = 0;
  let more = 0;
  for (const bucket of await referringBuckets(db, target.collection)) {
    const { schema } = compileBucketSchema(bucket);
    const visible = isBucketVisible(bucket, user);
    const seen = new Set<string>();
    for await (const row of candidates(db, bucket, wanted)) {
      if (wanted.has(row.contentId) || seen.has(row.contentId)) continue;
      const refers = collectionReferences(schema, row.data).some(
        (reference) => reference.collection === target.collection && wanted.has(reference.contentId),
      );
      if (!refers) continue;
      seen.add(row.contentId);
      if (!visible) hidden += 1;
      else if (referrers.length >= WHERE_USED_LIMIT) more += 1;
      else {
        referrers.push({
          bucketSlug: bucket.slug,
          bucketName: bucketName(bucket, target.locale),
          contentId: row.contentId,
          title: documentTitle(row.data, bucket.jsonSchema, bucket.locales),
          path: savedDocumentPath(bucket, row.contentId),
        });
      }
    }
  }
  return { referrers, hidden, more };
}

/** The bucket's documents that may refer to the wanted ones: those whose text holds an id, or (many ids) every one. */
async function* candidates(
  db: Queryable,
  bucket: Bucket,
  wanted: ReadonlySet<string>,
): AsyncGenerator<{ contentId: string; data: Record<string, unknown> }> {
  if (wanted.size > INDEXED_LOOKUPS) {
    yield* exportedDocuments(db, bucket);
    return;
  }
  for (const contentId of wanted) {
    const { rows } = await db.query<{ contentId: string; data: Record<string, unknown> }>(
      `SELECT c.content_id AS "contentId", v.data
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.bucket_id = $1 AND c.content_id <> $2::uuid AND ${searchCondition("$3")}`,
      [bucket.id, contentId, `%${contentId}%`],
    );
    yield* rows;
  }
}
