import type { Queryable } from "@server/db/client";
import type { Locale } from "@core/locales";
import { bucketName } from "@core/content/bucket-name";
import { overviewPath, savedDocumentPath, singletonPath } from "@core/content/screens";
import { MAX_SEARCH_LENGTH, searchSnippet, type SearchSnippet } from "@core/content/search-snippet";
import { documentTitle } from "@core/content/title";
import type { Bucket } from "./buckets";
import { listContents } from "./listing";

/*
 * One search over every bucket a user may see (issue 34): the top bar's box and its results page. Each bucket is
 * searched as its overview searches it (server/content/search.ts: the stored text's trigram index, or the bucket's
 * newest documents tested in order when the words are common), newest first, a few documents per bucket.
 */

export interface SearchHit {
  contentId: string;
  title: string;
  /** Where the document is edited. */
  path: string;
  /** The matched words in their text, or null when no single value holds them. */
  snippet: SearchSnippet | null;
  /** An image the document shows (its latest or published version), for a thumbnail. */
  imageId: string | null;
}

export interface SearchGroup {
  bucket: { slug: string; name: string };
  hits: SearchHit[];
  /** The bucket has more matches than shown: its overview, searched, lists them all. */
  more: boolean;
  /** The bucket's overview with this search. */
  allPath: string;
}

/**
 * The matches of `query` in each of `buckets` (the ones the user may see, in the order to show), at most `perBucket`
 * each; buckets without a match are left out.
 */
export async function searchEverything(
  db: Queryable,
  buckets: readonly Bucket[],
  query: string,
  options: { perBucket: number; locale: Locale },
): Promise<SearchGroup[]> {
  const search = query.trim().slice(0, MAX_SEARCH_LENGTH);
  if (!search) return [];
  const found = await Promise.all(
    buckets.map(async (bucket) => ({ bucket, versions: await listContents(db, bucket.id, { limit: options.perBucket + 1, search }) })),
  );
  const matched = found.filter(({ versions }) => versions.length > 0);
  const images = await imagesOf(
    db,
    matched.flatMap(({ versions }) => versions.slice(0, options.perBucket).map((version) => version.contentId)),
  );
  return matched.map(({ bucket, versions }) => ({
    bucket: { slug: bucket.slug, name: bucketName(bucket, options.locale) },
    more: versions.length > options.perBucket,
    allPath: bucket.singleton ? singletonPath(bucket) : `${overviewPath(bucket)}?q=${encodeURIComponent(search)}`,
    hits: versions.slice(0, options.perBucket).map((version) => {
      const title = documentTitle(version.data, bucket.jsonSchema, bucket.locales);
      return {
        contentId: version.contentId,
        title,
        path: savedDocumentPath(bucket, version.contentId),
        // The title shows already: the snippet is another text that holds the words, if any.
        snippet: searchSnippet(version.data, search, title),
        imageId: images.get(version.contentId) ?? null,
      };
    }),
  }));
}

/** One image each document uses (media_uses, kept by the contents trigger), by document. */
async function imagesOf(db: Queryable, documentIds: string[]): Promise<Map<string, string>> {
  if (!documentIds.length) return new Map();
  const { rows } = await db.query<{ documentId: string; imageId: string }>(
    `SELECT DISTINCT ON (u.document_id) u.document_id AS "documentId", i.content_id AS "imageId"
     FROM media_uses u JOIN media_items i ON i.content_id = u.media_content_id AND i.kind = 'image'
     WHERE u.document_id = ANY($1::uuid[])
     ORDER BY u.document_id, i.use_of IS NULL, i.content_id`,
    [documentIds],
  );
  return new Map(rows.map((row) => [row.documentId, row.imageId]));
}
