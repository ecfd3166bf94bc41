import type { Services } from "@server/services";
import { findBucketByCollection, findBucketById, isBucketVisible, type Bucket } from "./buckets";
import { toDocument } from "./document";
import { type ContentVersion } from "./store";
import { listContents } from "./listing";
import { compileBucketSchema } from "./validator";
import { publicationStates } from "./publication-state";
import type { User } from "@server/accounts/users";
import { clientMay, type ApiClient } from "@server/accounts/api-clients";
import type { Queryable } from "@server/db/client";
import { toMediaContent } from "@server/media/content";
import { mediaReferences } from "@server/media/form-upload";
import { jobsOfMany, latestMediaMany } from "@server/media/store-many";
import { caseCardOf, mediaPicture, type ClipCardData, type UnresolvedMedia } from "@core/content/cases";
import { TREND_SELECT_RENDERER, VIDEO_CASES_RENDERER } from "@core/content/renderers";
import { documentTitle } from "@core/content/title";
import { mediaKindOfSchema } from "@core/form/field-kind";
import type { MediaContent } from "@core/media/wire";
import type { JsonSchema } from "@core/schema/normalize";
import { propertiesOf, schemaNodes } from "@core/schema/walk";
import { isPlainObject } from "@core/plain-object";

/*
 * `populate=true` of GET /api/v1/buckets/any/content (spec §7, the cases picker): each document's media references
 * (image, video, file fields, at any depth) become the media content GET …/{kind}/content/{contentId}/latest answers,
 * with the chosen still's URL. A media content that is gone, or that belongs to a bucket the reader may not see,
 * stays a bare {contentId, missing: true}: nothing of it leaks. Two queries for all the documents' media, one per
 * bucket they live in.
 */

/** Who reads: a signed-in user (the buckets they may see) or an API client (its read scope). */
export type BucketReader = (bucket: Pick<Bucket, "slug" | "private">) => boolean;

export function bucketReader(access: { user: User | null; client: Pick<ApiClient, "readBuckets" | "writeBuckets"> | null }): BucketReader {
  if (access.client) {
    const client = access.client;
    return (bucket) => clientMay(client, "read", bucket.slug);
  }
  return (bucket) => isBucketVisible(bucket, access.user);
}

/** The media contents these documents reference that the reader may see, by contentId. */
async function readableMedia(
  db: Queryable,
  schema: JsonSchema,
  documents: readonly Record<string, unknown>[],
  mayRead: BucketReader,
): Promise<Map<string, MediaContent>> {
  const ids = new Set<string>();
  for (const document of documents) for (const reference of mediaReferences(schema, document)) ids.add(reference.contentId.toLowerCase());
  const rows = await latestMediaMany(db, [...ids]);
  const buckets = new Map<string, boolean>();
  const readable = [];
  for (const row of rows.values()) {
    if (!buckets.has(row.bucketId)) {
      const bucket = await findBucketById(db, row.bucketId);
      buckets.set(row.bucketId, !!bucket && mayRead(bucket));
    }
    if (buckets.get(row.bucketId)) readable.push(row);
  }
  const jobs = await jobsOfMany(
    db,
    readable.map((row) => row.id),
  );
  return new Map(readable.map((row) => [row.contentId, toMediaContent(row, jobs.get(row.id) ?? [])]));
}

/** A value with its media fields replaced by their contents (or {contentId, missing: true}). */
function withMedia(schema: unknown, value: unknown, media: ReadonlyMap<string, MediaContent>, depth = 0): unknown {
  if (!isPlainObject(schema) || depth > 64) return value;
  if (mediaKindOfSchema(schema)) {
    if (typeof value !== "string" || value === "") return value;
    const unresolved: UnresolvedMedia = { contentId: value, missing: true };
    return media.get(value.toLowerCase()) ?? unresolved;
  }
  if (Array.isArray(value)) return value.map((item) => withMedia(schema.items, item, media, depth + 1));
  if (isPlainObject(value)) {
    const properties = propertiesOf(schema);
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key, properties[key] ? withMedia(properties[key], child, media, depth + 1) : child]),
    );
  }
  return value;
}

/** The documents (toDocument's shape) of a bucket with their media resolved for this reader. */
export async function populateDocuments(
  db: Queryable,
  bucket: Bucket,
  versions: readonly ContentVersion[],
  mayRead: BucketReader,
): Promise<Record<string, unknown>[]> {
  const { schema } = compileBucketSchema(bucket);
  const documents = versions.map(toDocument);
  const media = await readableMedia(db, schema, documents, mayRead);
  return documents.map((document) => withMedia(schema, document, media) as Record<string, unknown>);
}

/** The edit page's clip cards and trend options: one list per collection its video-cases and trend-select fields name. */
const CARD_LIMIT = 1000;

export async function loadClipCardData(context: Services, user: User, schema: JsonSchema): Promise<ClipCardData> {
  const caseCollections = new Set<string>();
  const trendCollections = new Set<string>();
  for (const { node } of schemaNodes(schema)) {
    if (node.renderer === VIDEO_CASES_RENDERER && isPlainObject(node.items) && typeof node.items._ref === "string")
      caseCollections.add(node.items._ref);
    if (node.renderer === TREND_SELECT_RENDERER && typeof node._ref === "string") trendCollections.add(node._ref);
    // The trend select on a list (related trends): its items name the collection.
    if (node.renderer === TREND_SELECT_RENDERER && isPlainObject(node.items) && typeof node.items._ref === "string")
      trendCollections.add(node.items._ref);
  }
  const mayRead = bucketReader({ user, client: null });
  const load = async (collection: string) => {
    const bucket = await findBucketByCollection(context.db, collection);
    if (!bucket || !isBucketVisible(bucket, user)) return null;
    const versions = await listContents(context.db, bucket.id, { limit: CARD_LIMIT });
    // What exhibits get of each (docs/publishing.md): cards and options show it.
    const states = await publicationStates(
      context.db,
      bucket.id,
      versions.map((version) => version.contentId),
    );
    return { bucket, states, documents: await populateDocuments(context.db, bucket, versions, mayRead) };
  };
  const data: ClipCardData = { cases: {}, trends: {} };
  for (const collection of caseCollections) {
    const loaded = await load(collection);
    data.cases[collection] = loaded
      ? {
          slug: loaded.bucket.slug,
          cards: loaded.documents.flatMap((document) => {
            const card = caseCardOf(document, loaded.bucket.locales);
            return card ? [{ ...card, state: loaded.states.get(card.contentId.toLowerCase()) }] : [];
          }),
        }
      : { slug: null, cards: [] };
  }
  for (const collection of trendCollections) {
    const loaded = await load(collection);
    if (!loaded) {
      data.trends[collection] = { slug: null, options: [] };
      continue;
    }
    const { schema: trendSchema } = compileBucketSchema(loaded.bucket);
    data.trends[collection] = {
      slug: loaded.bucket.slug,
      options: loaded.documents
        .map((document) => ({
          value: String(document.contentId),
          label: documentTitle(document, loaded.bucket.jsonSchema, loaded.bucket.locales) || String(document.contentId),
          image: documentPicture(trendSchema, document),
          state: loaded.states.get(String(document.contentId).toLowerCase()),
        }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    };
  }
  return data;
}

/** The first picture among a populated document's own media fields. */
function documentPicture(schema: JsonSchema, document: Record<string, unknown>): string | null {
  for (const [name, property] of Object.entries(propertiesOf(schema))) {
    if (!mediaKindOfSchema(property)) continue;
    const picture = mediaPicture(document[name]);
    if (picture) return picture;
  }
  return null;
}
