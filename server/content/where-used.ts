import type { Queryable } from "@server/db/client";
import { isBucketVisible, listBuckets, type Bucket } from "./buckets";
import { searchCondition } from "./search";
import { compileBucketSchema } from "./validator";
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

export async function findWhereUsed(
  db: Queryable,
  user: User,
  /** `locale`: the interface language, which names the buckets (core/content/bucket-name.ts). */
  target: { collection: string; contentId: string; locale: Locale },
): Promise<WhereUsed> {
  const contentId = target.contentId.toLowerCase();
  const referrers: Referrer[] = [];
  let hidden = 0;
  let more = 0;
  for (const bucket of await referringBuckets(db, target.collection)) {
    const { rows } = await db.query<{ contentId: string; data: Record<string, unknown> }>(
      `SELECT c.content_id AS "contentId", v.data
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.bucket_id = $1 AND c.content_id <> $2::uuid AND ${searchCondition("$3")}`,
      [bucket.id, contentId, `%${contentId}%`],
    );
    const { schema } = compileBucketSchema(bucket);
    const visible = isBucketVisible(bucket, user);
    for (const row of rows) {
      const refers = collectionReferences(schema, row.data).some(
        (reference) => reference.collection === target.collection && reference.contentId === contentId,
      );
      if (!refers) continue;
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
