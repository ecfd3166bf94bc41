import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { deliveryReferences, type ShapeOptions, type StoredDocument } from "@core/delivery/shape";
import { schemaKeyOf, type DeliveryBucket, type ReadContext } from "./read";
import type { DocumentState } from "./store";
import { BoundedMap } from "@core/bounded-map";
import { isPreview, viewKey } from "./view";

/*
 * The ETag of one document's answer (the document and singleton calls), made from what the answer is made of
 * instead of its bytes, so that a revalidation can answer 304 without reading and shaping the document
 * (docs/delivery.md, "Caching"). The inputs: the server's version and build (the shaping code), the bucket (slug, schema
 * version, locales), the document's version and times, the locale request and populate, the client's read scope,
 * and every dependency the shaping read (server/delivery/read.ts ShapeDependencies: referenced documents'
 * versions, their buckets, media as answered with their signed URLs). Shaping is deterministic, so the same inputs
 * give the same bytes and the tag may stay strong. It is an HMAC under a key derived from SESSION_SECRET: a new
 * secret (which changes every signed URL) changes every tag, and the tag tells nothing of its inputs.
 *
 * A revalidation reads the document's state only (no data). Whether the answer has dependencies at all is a fact
 * of the version under its schema (versions never change), remembered per process: when the version refers to no
 * media, and to no document or populate is 0, the tag is known from the state alone. Otherwise, or when this
 * process has not shaped that version yet, the answer is built and its tag compared.
 */

const TAG_PREFIX = "d1-";

interface VersionReferences {
  media: boolean;
  documents: boolean;
}

const MAX_VERSIONS = 10_000;
const versionReferences = new BoundedMap<string, VersionReferences>(MAX_VERSIONS);

const versionKey = (bucket: DeliveryBucket, versionId: string) => `${schemaKeyOf(bucket.bucket)}|${versionId}`;

/** Notes what a version refers to, once this process has shaped it. */
export function rememberReferences(bucket: DeliveryBucket, document: StoredDocument) {
  const key = versionKey(bucket, document.versionId);
  if (versionReferences.has(key)) return;
  const found = deliveryReferences(bucket.schema, document.data);
  versionReferences.set(key, { media: found.media.size > 0, documents: found.documents.size > 0 });
}

/** Whether this version's answer depends on nothing but itself (known only once this process shaped it). */
export function standsAlone(bucket: DeliveryBucket, versionId: string, options: ShapeOptions): boolean {
  const known = versionReferences.get(versionKey(bucket, versionId));
  return known !== undefined && !known.media && (options.populate === 0 || !known.documents);
}

let codeFingerprint: string | undefined;
/**
 * The code that shapes answers: a hash of the file this module runs from (in production the server build, which
 * holds all of it), read once. A new build, even under the same version number, gives new tags.
 */
function codeVersion(): string {
  if (codeFingerprint === undefined) {
    try {
      codeFingerprint = createHash("sha1")
        .update(readFileSync(fileURLToPath(import.meta.url)))
        .digest("base64url");
    } catch {
      codeFingerprint = `started ${Date.now()}`; // unreadable: tags of this process only
    }
  }
  return codeFingerprint;
}

const keys = new WeakMap<object, Buffer>();
function keyOf(config: { SESSION_SECRET: string }): Buffer {
  let key = keys.get(config);
  if (!key) keys.set(config, (key = createHmac("sha256", config.SESSION_SECRET).update("vitrine delivery etags").digest()));
  return key;
}

/** The strong ETag of a document's answer from its inputs (`dependencies`: what shaping read beyond it). */
export function documentEtag(
  read: ReadContext,
  version: string,
  bucket: DeliveryBucket,
  document: DocumentState,
  options: ShapeOptions,
  dependencies: readonly string[],
): string {
  const inputs = [
    version,
    codeVersion(),
    bucket.bucket.slug,
    schemaKeyOf(bucket.bucket),
    document.contentId,
    document.versionId,
    document.createdAt,
    document.updatedAt,
    JSON.stringify(options.locale),
    String(options.populate),
    [...read.client.readBuckets].sort().join(","),
    ...dependencies,
  ];
  // A preview's tag names its view (a document outside a release shows the same version as published, its tag must not).
  if (read.view && isPreview(read.view)) inputs.push(`view ${viewKey(read.view)}`);
  return `"${TAG_PREFIX}${createHmac("sha256", keyOf(read.config)).update(inputs.join("\n")).digest("base64url").slice(0, 32)}"`;
}
