import type { Services } from "@server/services";
import type { Queryable } from "@server/db/client";
import { findBucketByCollection, isBucketVisible, type Bucket } from "./buckets";
import { documentCountSql } from "./document-counts";
import { type ContentVersion } from "./store";
import { listContents } from "./listing";
import { publicationStates } from "./publication-state";
import type { User } from "@server/accounts/users";
import type { JsonSchema } from "@core/schema/normalize";
import type { PublicationState } from "@core/content/publication";
import { schemaNodes } from "@core/schema/walk";
import {
  collectionOfSchema,
  collectionReferences,
  documentThumbnail,
  REFERENCE_SEARCH_MAX_LENGTH,
  REFERENCE_SEARCH_PAGE,
  REFERENCE_SELECT_LIMIT,
  searchLimit,
  type ReferenceCollection,
  type ReferenceOption,
  type ReferenceSearchReply,
  type ReferenceTarget,
} from "@core/content/references";
import { documentTitle } from "@core/content/title";
import type { ReferenceSearchRequest } from "@core/form/reference-search";

/*
 * Reference fields (spec §1 'references to other collections'): the options of their selects, rendered on the
 * server so they work without JavaScript. A collection of at most REFERENCE_SELECT_LIMIT documents is listed
 * whole; a larger one only its first page, searched as the editor types (searchReferenceOptions, through
 * GET /api/v1/buckets/any/content?collection=…&search=…, or the form's search intent without JavaScript), and the
 * titles of the documents the form holds (loadReferenceTargets) so a chosen value always shows its title.
 */

/** A version as an option: its title (the contentId when it has none) and first image. */
export function referenceOption(
  version: Pick<ContentVersion, "contentId" | "data">,
  bucket: Pick<Bucket, "jsonSchema" | "locales">,
): ReferenceOption {
  return {
    value: version.contentId,
    label: documentTitle(version.data, bucket.jsonSchema, bucket.locales) || version.contentId,
    thumbnail: documentThumbnail(version.data, bucket.jsonSchema),
  };
}

/** The collections a schema's reference fields (selects, lists, popups, inline sub-forms) name. */
function referencedCollections(schema: JsonSchema): Set<string> {
  const collections = new Set<string>();
  for (const { node } of schemaNodes(schema)) {
    const collection = collectionOfSchema(node);
    if (collection) collections.add(collection);
  }
  return collections;
}

async function contentCount(db: Queryable, bucketId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`SELECT ${documentCountSql("$1::uuid")} AS count`, [bucketId]);
  return rows[0]?.count ?? 0;
}

/** The visible bucket of a collection, or null. */
async function visibleCollectionBucket(db: Queryable, user: User, collection: string): Promise<Bucket | null> {
  const bucket = await findBucketByCollection(db, collection);
  return bucket && isBucketVisible(bucket, user) ? bucket : null;
}

const byLabel = (a: ReferenceOption, b: ReferenceOption) => a.label.localeCompare(b.label);

/** Versions as options, each with its document's publication state (one query for all). */
async function optionsOf(
  db: Queryable,
  bucket: Bucket,
  versions: ReadonlyArray<Pick<ContentVersion, "contentId" | "data">>,
): Promise<ReferenceOption[]> {
  const states = await publicationStates(
    db,
    bucket.id,
    versions.map((version) => version.contentId),
  );
  return versions.map((version) => ({ ...referenceOption(version, bucket), state: states.get(version.contentId.toLowerCase()) }));
}

/** Options of every reference field in a schema: the whole collection, or the first page of a large one. */
export async function loadReferenceOptions(
  context: Services,
  user: User,
  schema: JsonSchema,
): Promise<Record<string, ReferenceCollection>> {
  const entries = await Promise.all(
    [...referencedCollections(schema)].map(async (collection): Promise<[string, ReferenceCollection]> => {
      const bucket = await visibleCollectionBucket(context.db, user, collection);
      if (!bucket) return [collection, { slug: null, options: [] }];
      const searchable = (await contentCount(context.db, bucket.id)) > REFERENCE_SELECT_LIMIT;
      const limit = searchable ? REFERENCE_SEARCH_PAGE : REFERENCE_SELECT_LIMIT;
      const options = await optionsOf(context.db, bucket, await listContents(context.db, bucket.id, { limit }));
      return [collection, { slug: bucket.slug, options: searchable ? options : options.sort(byLabel), searchable }];
    }),
  );
  return Object.fromEntries(entries);
}

/**
 * The documents a form's value refers to, by contentId: title and thumbnail, or `deleted` when the collection's
 * bucket (visible to the user) holds no such document any more. Values in buckets the user may not see are left
 * out (the field shows the raw value, as before).
 */
export async function loadReferenceTargets(
  context: Services,
  user: User,
  schema: JsonSchema,
  value: unknown,
): Promise<Record<string, ReferenceTarget>> {
  const byCollection = new Map<string, Set<string>>();
  for (const reference of collectionReferences(schema, value)) {
    const ids = byCollection.get(reference.collection) ?? new Set<string>();
    ids.add(reference.contentId);
    byCollection.set(reference.collection, ids);
  }
  const targets: Record<string, ReferenceTarget> = {};
  for (const [collection, ids] of byCollection) {
    const bucket = await visibleCollectionBucket(context.db, user, collection);
    if (!bucket) continue;
    const { rows } = await context.db.query<Pick<ContentVersion, "contentId" | "data">>(
      `SELECT c.content_id AS "contentId", v.data
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id
       WHERE c.bucket_id = $1 AND c.content_id = ANY($2::uuid[])`,
      [bucket.id, [...ids]],
    );
    for (const { value, ...target } of await optionsOf(context.db, bucket, rows)) targets[value] = target;
    for (const id of ids) targets[id] ??= { label: id, deleted: true };
  }
  return targets;
}

/** PostgreSQL's text holds no NUL (and a control character is never in a title): a search leaves them out. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** A search of a collection's documents by their text (the overview's search), newest first. */
export async function searchReferenceOptions(db: Queryable, bucket: Bucket, query: string, limit: number): Promise<ReferenceOption[]> {
  const search = query.slice(0, REFERENCE_SEARCH_MAX_LENGTH).replace(CONTROL_CHARACTERS, "").trim();
  return optionsOf(db, bucket, await listContents(db, bucket.id, { limit, search }));
}

/** One result of the search API: the document's contentId, title, first image and publication state. */
export interface ReferenceSearchResult {
  contentId: string;
  title: string;
  thumbnail: string | null;
  state: PublicationState | null;
}

/** GET /api/v1/buckets/any/content?collection=…&search=…&limit=…: a page of matching documents (newest first). */
export async function referenceSearchAnswer(db: Queryable, bucket: Bucket, params: URLSearchParams): Promise<ReferenceSearchResult[]> {
  const options = await searchReferenceOptions(db, bucket, params.get("search") ?? "", searchLimit(params.get("limit")));
  return options.map((option) => ({
    contentId: option.value,
    title: option.label,
    thumbnail: option.thumbnail ?? null,
    state: option.state ?? null,
  }));
}

/** What a re-rendered edit form needs of its references: the posted values' titles and a search's results. */
export interface ReferenceReply {
  referenceTargets: Record<string, ReferenceTarget>;
  referenceSearch: ReferenceSearchReply | null;
}

/** The reference part of a form post that did not save (server/content/save-form.ts). */
export async function referenceReply(
  context: Services,
  user: User,
  schema: JsonSchema,
  payload: unknown,
  search: ReferenceSearchRequest | null,
): Promise<ReferenceReply> {
  let referenceSearch: ReferenceSearchReply | null = null;
  if (search) {
    const bucket = await visibleCollectionBucket(context.db, user, search.collection);
    const options = bucket ? await searchReferenceOptions(context.db, bucket, search.query, REFERENCE_SEARCH_PAGE) : [];
    referenceSearch = { name: search.name, query: search.query, options };
  }
  return { referenceTargets: await loadReferenceTargets(context, user, schema, payload), referenceSearch };
}
