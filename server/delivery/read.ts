import type { Services } from "@server/services";
import {
  acceptClient,
  CLIENT_AUTH_COLUMNS,
  CLIENT_AUTH_FROM,
  clientAuthParams,
  clientMay,
  type ApiClient,
  type ClientAuthRow,
} from "@server/accounts/api-clients";
import { parseClientToken } from "@server/security/bearer";
import { findBucketByCollection, resolveBucketSlug, type Bucket } from "@server/content/buckets";
import { prepared, type Queryable } from "@server/db/client";
import type { MediaRow } from "@server/media/store";
import { normalizeSchema, type JsonSchema } from "@core/schema/normalize";
import { isUuid } from "@core/ids";
import {
  deliveryReferences,
  emptyReferences,
  shapeDocument,
  type DeliveryDocument,
  type DeliveryMedia,
  type DeliverySource,
  type ShapeOptions,
  type StoredDocument,
} from "@core/delivery/shape";
import { notFound } from "./problem";
import { latestMediaWithBucket, signedMediaUrl, toDeliveryMedia, urlExpiry } from "./media";
import { documentJson, latestDocument, latestDocuments, type DocumentState } from "./store";
import { BoundedMap } from "@core/bounded-map";
import type { DeliveryView } from "./view";

/*
 * The delivery API's reads (docs/delivery.md): which buckets a client reads, and documents shaped by
 * core/delivery/shape.ts with their references and media loaded first. Its query parameters: query.ts.
 */

/** A bucket as the delivery API uses it: its normalised schema is made once per schema version and locales. */
export interface DeliveryBucket {
  bucket: Bucket;
  schema: JsonSchema;
}

const MAX_SCHEMAS = 500;
const schemas = new BoundedMap<string, JsonSchema>(MAX_SCHEMAS);

/** What names a bucket's schema as shaping uses it: its schema version, else the schema itself. */
export const schemaKeyOf = (bucket: Pick<Bucket, "id" | "schemaVersionId" | "jsonSchema" | "locales">) =>
  `${bucket.id}|${bucket.schemaVersionId ?? JSON.stringify(bucket.jsonSchema)}|${bucket.locales.join(",")}`;

export function deliveryBucket(bucket: Bucket): DeliveryBucket {
  const key = schemaKeyOf(bucket);
  let schema = schemas.get(key);
  if (!schema) {
    schema = normalizeSchema(bucket.jsonSchema, bucket.locales).schema;
    schemas.set(key, schema);
  }
  return { bucket, schema };
}

const bucketColumns = (alias = "") => `${alias}id, ${alias}slug, ${alias}name, ${alias}singleton, ${alias}private,
  ${alias}collection_name AS "collectionName", ${alias}json_schema AS "jsonSchema", ${alias}locales, ${alias}schema_version_id AS "schemaVersionId"`;

/** The buckets the client may read, in the order of the navigation. */
export async function readableBuckets(db: Queryable, client: ApiClient): Promise<Bucket[]> {
  const { rows } = await db.query<Bucket>(`SELECT ${bucketColumns()} FROM buckets WHERE slug = ANY($1) ORDER BY position, name`, [
    client.readBuckets,
  ]);
  return rows;
}

/** A bucket in the client's read scope (an old slug of a renamed one too); any other is 404, as if it did not exist. */
export async function requireClientBucket(db: Queryable, client: ApiClient, slug: string | undefined): Promise<DeliveryBucket> {
  const bucket = slug ? (await resolveBucketSlug(db, slug))?.bucket : undefined;
  if (!bucket || !clientMay(client, "read", bucket.slug)) throw notFound();
  return deliveryBucket(bucket);
}

/** The client's bucket (only one in its read scope) as one JSON value, for a statement that also reads the client. */
const SCOPED_BUCKET_JSON = `json_build_object('id', b.id, 'slug', b.slug, 'name', b.name, 'singleton', b.singleton, 'private', b.private,
  'collectionName', b.collection_name, 'jsonSchema', b.json_schema, 'locales', b.locales, 'schemaVersionId', b.schema_version_id)`;

/**
 * The client by its token's id ($1, $2: CLIENT_AUTH_COLUMNS), the bucket of slug $3 when it is in the client's read
 * scope, and its document $4: one statement, so one round trip. Nothing of a bucket outside the scope is read.
 */
const clientDocumentSql = (withData: boolean) =>
  prepared(`SELECT ${CLIENT_AUTH_COLUMNS}, b.bucket, d.document
     FROM ${CLIENT_AUTH_FROM}
     LEFT JOIN LATERAL (SELECT b.id, ${SCOPED_BUCKET_JSON} AS bucket FROM buckets b WHERE b.slug = $3 AND b.slug = ANY (c.read_buckets)) b ON true
     LEFT JOIN LATERAL (${documentJson("b.id", "$4::uuid", withData)}) d ON true
     WHERE c.id = $1`);
const CLIENT_DOCUMENT_SQL = clientDocumentSql(true);
const CLIENT_DOCUMENT_STATE_SQL = clientDocumentSql(false);

/** What the single-document statement found beside the client: null when the slug names no bucket in its scope. */
export interface FoundDocument {
  bucket: Bucket | null;
  /** The document, or its state only (a revalidation: server/delivery/etag.ts); null when the bucket has none such. */
  document: StoredDocument | DocumentState | null;
}

/**
 * The API client of a bearer token together with the bucket and document a single-document call names: one
 * statement for the client check, the read scope, the bucket and the document (or only its state, `withData` false).
 * Null as authenticateApiClient answers it (401).
 */
export async function authenticateWithDocument(
  db: Queryable,
  token: string,
  slug: string | undefined,
  contentId: string | undefined,
  withData: boolean,
): Promise<{ client: ApiClient; found: FoundDocument } | null> {
  const parsed = parseClientToken(token);
  if (!parsed) return null;
  const id = isUuid(contentId) ? contentId : null;
  const { rows } = await db.query<ClientAuthRow & FoundDocument>(withData ? CLIENT_DOCUMENT_SQL : CLIENT_DOCUMENT_STATE_SQL, [
    ...clientAuthParams(parsed),
    slug ?? "",
    id,
  ]);
  const row = rows[0];
  const { bucket = null, document = null, ...clientRow } = row ?? {};
  const client = await acceptClient(db, row ? (clientRow as ClientAuthRow) : undefined, parsed);
  return client ? { client, found: { bucket, document } } : null;
}

/**
 * The bucket and document a single-document call names, from what authenticateWithDocument found: a bucket outside
 * the client's read scope 404s as in requireClientBucket (an old slug of a renamed bucket is looked up here); the
 * document is null when the bucket has no such one.
 */
export async function requireClientDocument(
  db: Queryable,
  client: ApiClient,
  slug: string | undefined,
  contentId: string | undefined,
  found: FoundDocument,
  view?: DeliveryView,
): Promise<{ bucket: DeliveryBucket; document: StoredDocument | DocumentState | null }> {
  if (found.bucket && clientMay(client, "read", found.bucket.slug))
    return { bucket: deliveryBucket(found.bucket), document: found.document };
  const bucket = await requireClientBucket(db, client, slug);
  const id = isUuid(contentId) ? contentId : null;
  return { bucket, document: id ? await latestDocument(db, bucket.bucket.id, id, view) : null };
}

/** What shaping needs from the request: who reads, and how media URLs are made. */
export interface ReadContext {
  db: Queryable;
  client: ApiClient;
  config: Services["config"];
  /** The origin media URLs start with (PUBLIC_URL, else the request's). */
  base: string;
  /** How a media file's URL is made; default: a signed URL. An offline bundle answers paths inside the bundle. */
  mediaUrl?: (media: MediaRow, file: string) => string;
  /**
   * Which version of each document is read (view.ts); default: the published one. A preview shapes references with
   * it too: a document the preview shows counts as present.
   */
  view?: DeliveryView;
}

const sourceOf = (bucket: DeliveryBucket, document: StoredDocument): DeliverySource => ({
  bucket: { slug: bucket.bucket.slug, locales: bucket.bucket.locales, schema: bucket.schema },
  document,
});

/**
 * What a shaped answer read beyond its own documents, each as a line: the referenced documents (their versions, or
 * absent), the buckets of the referenced collections (or none readable) and the media (their rows, or missing).
 * A media line holds the media object as answered, its signed URLs included (so the signing window too). The same
 * lines mean the same answer (server/delivery/etag.ts).
 */
export interface ShapeDependencies {
  lines: string[];
}

/**
 * These documents of one bucket shaped for the client: referenced documents loaded level by level up to
 * `populate` (one query per referenced collection and level, only from buckets the client reads), then every
 * loaded document's media in one query. `dependencies`, when given, receives what the answer read beyond them.
 */
export async function shapeDocuments(
  read: ReadContext,
  bucket: DeliveryBucket,
  documents: readonly StoredDocument[],
  options: ShapeOptions,
  dependencies?: ShapeDependencies,
): Promise<DeliveryDocument[]> {
  const loaded = new Map<string, DeliverySource>(); // `${collection}|${contentId}`
  const collections = new Map<string, DeliveryBucket | null>([[bucket.bucket.collectionName, bucket]]);
  const roots = documents.map((document) => sourceOf(bucket, document));
  const references = emptyReferences();
  const depend = (line: string) => dependencies?.lines.push(line);
  let level = roots;
  for (const root of roots) loaded.set(`${bucket.bucket.collectionName}|${root.document.contentId.toLowerCase()}`, root);
  for (let depth = 0; depth <= options.populate; depth += 1) {
    const found = emptyReferences();
    for (const source of level) deliveryReferences(source.bucket.schema, source.document.data, found);
    for (const id of found.media) references.media.add(id);
    if (depth === options.populate) break;
    const next: DeliverySource[] = [];
    for (const [collection, ids] of found.documents) {
      if (!collections.has(collection)) {
        const target = await findBucketByCollection(read.db, collection);
        const readable = target && clientMay(read.client, "read", target.slug) ? deliveryBucket(target) : null;
        collections.set(collection, readable);
        depend(readable ? `bucket ${collection} ${readable.bucket.slug} ${schemaKeyOf(readable.bucket)}` : `bucket ${collection} -`);
      }
      const target = collections.get(collection);
      if (!target) continue;
      const wanted = [...ids].filter((id) => !loaded.has(`${collection}|${id}`));
      const absent = new Set(wanted);
      for (const document of await latestDocuments(read.db, target.bucket.id, wanted, read.view)) {
        const source = sourceOf(target, document);
        const id = document.contentId.toLowerCase();
        absent.delete(id);
        loaded.set(`${collection}|${id}`, source);
        next.push(source);
        depend(`document ${collection} ${id} ${document.versionId} ${document.createdAt} ${document.updatedAt}`);
      }
      for (const id of absent) depend(`document ${collection} ${id} -`);
    }
    level = next;
  }
  const media = new Map<string, DeliveryMedia>();
  if (references.media.size) {
    const expires = urlExpiry(read.config);
    const urlOf = read.mediaUrl ?? ((row: MediaRow, file: string) => signedMediaUrl(read.config, read.base, row.contentId, file, expires));
    // An item a delivered document uses is delivered with it, whichever bucket holds it: a save lets a document name
    // only items its author may use (server/media/library-pick.ts), so reading the document is reading its media.
    for (const row of await latestMediaWithBucket(read.db, [...references.media])) {
      media.set(
        row.contentId.toLowerCase(),
        toDeliveryMedia(row, (file) => urlOf(row, file)),
      );
    }
    for (const id of [...references.media].sort()) {
      const shown = media.get(id);
      depend(shown ? `media ${id} ${JSON.stringify(shown)}` : `media ${id} -`);
    }
  }
  const lookup = {
    document: (collection: string, contentId: string) => loaded.get(`${collection}|${contentId}`),
    media: (contentId: string) => media.get(contentId),
  };
  return roots.map((root) => shapeDocument(root, options, lookup));
}
