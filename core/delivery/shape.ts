import { isPlainObject } from "@core/plain-object";
import { isUuid } from "@core/ids";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "@core/schema/normalize";
import { propertiesOf } from "@core/schema/walk";

/*
 * The delivery API's shaping of a stored document (docs/delivery.md), pure so that the read API and the offline
 * bundle give the same answer:
 *   - locale projection: a translated property (the per-locale object of a normalised schema, and the `text` of a
 *     translated texts array) becomes the plain value of the first locale of the chain that has one, and the
 *     document's `fallbacks` records each field whose value came from a later locale (or from none: null);
 *   - references: a collection reference becomes the referenced document (shaped the same way) while depth is
 *     left and the document is neither on the path from the top (a cycle) nor unreadable; otherwise its id stays, and
 *     when depth was left the document's `unresolved` names its path (a document not published, deleted, or not
 *     readable by the client: docs/publishing.md);
 *   - media references always become their delivery media object (or {contentId, missing: true}).
 * The caller loads what the references name first (deliveryReferences), then shapes.
 */

/** A stored document as the store reads it. */
export interface StoredDocument {
  contentId: string;
  versionId: string;
  createdAt: string;
  updatedAt: string;
  data: Record<string, unknown>;
}

/** A document of a bucket, with what shaping it needs. */
export interface DeliverySource {
  bucket: { slug: string; locales: readonly string[]; schema: JsonSchema };
  document: StoredDocument;
}

/** One document as the delivery API answers it. */
export interface DeliveryDocument {
  contentId: string;
  versionId: string;
  bucket: string;
  createdAt: string;
  updatedAt: string;
  /** The locale asked for; null when every locale is answered (the stored per-locale objects). */
  locale: string | null;
  /** With a locale: each field (path) whose value came from a later locale of the chain, or from none (null). */
  fallbacks: Record<string, string | null>;
  /**
   * The paths of references left as ids although `populate` asked for their documents: not published, deleted or
   * not readable. Absent when there are none.
   */
  unresolved?: string[];
  data: Record<string, unknown>;
}

/** A media reference as the delivery API answers it (server/delivery/media.ts makes it). */
export interface DeliveryMedia {
  contentId: string;
  kind: "image" | "video" | "file";
  mimetype: string;
  filename: string;
  size: number;
  width: number | null;
  height: number | null;
  /** Videos: seconds. */
  duration?: number | null;
  /** The file as uploaded (a video's web rendition when it has one). */
  url: string;
  /** Each rendition by name: `original`, and `web` (video/mp4) for a transcoded video. */
  renditions: Record<string, { url: string; mimetype: string }>;
  /** A video's stills, in order, then its custom still. */
  stills: Array<{ index: number | null; custom: boolean; url: string }>;
  /** The chosen thumb: its still's URL and which one (null when none is chosen). */
  thumb: { url: string; index: number | null; custom: boolean } | null;
  /**
   * The media library's texts (docs/media.md): the alternative text and the caption per locale, or, when a locale is
   * asked for, the text of the first locale of the chain that has one (null: none has); credits in any language.
   */
  alt: Record<string, string> | string | null;
  caption: Record<string, string> | string | null;
  credits: string | null;
}

export interface MissingMedia {
  contentId: string;
  missing: true;
}

/** How translated values are answered: a chain of locales to try in order, or every locale (null). */
export interface LocaleRequest {
  locale: string;
  /** The explicit fallback locales (`fallback=`), or null for the default: the bucket's locale order. */
  fallback: readonly string[] | null;
}

/** The chain for a bucket: the locale, then the fallback list, or the bucket's other locales in their order. */
export function localeChain(request: LocaleRequest, bucketLocales: readonly string[]): string[] {
  const rest = request.fallback ?? bucketLocales;
  return [request.locale, ...rest.filter((locale) => locale !== request.locale)].filter(
    (locale, index, all) => all.indexOf(locale) === index,
  );
}

/** A value counts as given unless it is absent, null, an empty string or an empty list. */
export function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);
}

const MEDIA_REFS: Readonly<Record<string, DeliveryMedia["kind"]>> = { "b-image": "image", "b-video": "video", "b-file": "file" };

function mediaKindOf(node: JsonSchema): DeliveryMedia["kind"] | null {
  return typeof node._ref === "string" && Object.prototype.hasOwnProperty.call(MEDIA_REFS, node._ref)
    ? (MEDIA_REFS[node._ref] ?? null)
    : null;
}

function collectionOf(node: JsonSchema): string | null {
  return typeof node._ref === "string" && node._ref !== "" && !node._ref.startsWith("b-") ? node._ref : null;
}

const isTranslated = (node: JsonSchema) => node.renderer === TRANSLATE_OBJECT_RENDERER && isPlainObject(node.properties);
const isTextsArray = (node: JsonSchema) => node.renderer === "texts" && node.type === "array";
const MAX_DEPTH = 64;

export interface References {
  /** Collection references: contentIds by collection name. */
  documents: Map<string, Set<string>>;
  /** Media contentIds. */
  media: Set<string>;
}

export const emptyReferences = (): References => ({ documents: new Map(), media: new Set() });

/** Every collection and media reference a document holds along its schema (lower-case uuids only). */
export function deliveryReferences(schema: JsonSchema, data: unknown, out: References = emptyReferences()): References {
  const walk = (node: unknown, value: unknown, depth: number) => {
    if (!isPlainObject(node) || depth > MAX_DEPTH || value === undefined || value === null) return;
    if (mediaKindOf(node)) {
      if (typeof value === "string" && isUuid(value)) out.media.add(value.toLowerCase());
      return;
    }
    const collection = collectionOf(node);
    if (collection) {
      if (typeof value === "string" && isUuid(value)) {
        const ids = out.documents.get(collection) ?? new Set<string>();
        ids.add(value.toLowerCase());
        out.documents.set(collection, ids);
      }
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) walk(node.items, item, depth + 1);
    } else if (isPlainObject(value)) {
      const properties = propertiesOf(node);
      for (const [key, child] of Object.entries(value)) if (properties[key]) walk(properties[key], child, depth + 1);
    }
  };
  walk(schema, data, 0);
  return out;
}

/** What shaping looks up: loaded referenced documents (readable ones only) and media. */
export interface ShapeLookup {
  /** A referenced document of this collection, if it was loaded and the reader may read it. */
  document(collection: string, contentId: string): DeliverySource | undefined;
  /** A media content by contentId, if the reader may see it. */
  media(contentId: string): DeliveryMedia | undefined;
}

export interface ShapeOptions {
  /** null: every locale (the stored objects). */
  locale: LocaleRequest | null;
  /** How many levels of collection references to resolve (0: ids stay). */
  populate: number;
}

const joinPath = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** One document shaped for delivery; `path` holds the contentIds above it (cycles are cut there). */
/** A text per locale as one locale's: the first of the chain that has one, else null. */
function inChain(texts: DeliveryMedia["alt"], chain: readonly string[]): string | null {
  if (texts === null || typeof texts === "string") return texts;
  for (const locale of chain) if (texts[locale]) return texts[locale];
  return null;
}

export function shapeDocument(
  source: DeliverySource,
  options: ShapeOptions,
  lookup: ShapeLookup,
  path: ReadonlySet<string> = new Set(),
): DeliveryDocument {
  const { bucket, document } = source;
  const chain = options.locale ? localeChain(options.locale, bucket.locales) : null;
  const fallbacks: Record<string, string | null> = {};
  const unresolved: string[] = [];
  const onPath = new Set(path).add(document.contentId.toLowerCase());
  const depthLeft = options.populate;

  const project = (node: JsonSchema, value: Record<string, unknown>, at: string, depth: number): unknown => {
    if (!chain) {
      const properties = propertiesOf(node);
      return Object.fromEntries(
        Object.entries(value).map(([locale, child]) => [
          locale,
          properties[locale] ? shape(properties[locale], child, at, depth + 1) : child,
        ]),
      );
    }
    const properties = propertiesOf(node);
    for (const locale of chain) {
      if (!hasValue(value[locale])) continue;
      if (locale !== chain[0]) fallbacks[at] = locale;
      const child = value[locale];
      return properties[locale] ? shape(properties[locale], child, at, depth + 1) : child;
    }
    fallbacks[at] = null;
    return null;
  };

  const shape = (node: unknown, value: unknown, at: string, depth: number): unknown => {
    if (!isPlainObject(node) || depth > MAX_DEPTH || value === undefined || value === null) return value;
    const kind = mediaKindOf(node);
    if (kind) {
      if (typeof value !== "string" || value === "") return value;
      const missing: MissingMedia = { contentId: value, missing: true };
      const media = lookup.media(value.toLowerCase());
      return media ? (chain ? { ...media, alt: inChain(media.alt, chain), caption: inChain(media.caption, chain) } : media) : missing;
    }
    const collection = collectionOf(node);
    if (collection) {
      if (typeof value !== "string" || !isUuid(value) || depthLeft <= 0) return value;
      const id = value.toLowerCase();
      if (onPath.has(id)) return value;
      const target = lookup.document(collection, id);
      if (target) return shapeDocument(target, { ...options, populate: depthLeft - 1 }, lookup, onPath);
      unresolved.push(at);
      return value;
    }
    if (isTranslated(node) && isPlainObject(value)) return project(node, value, at, depth);
    if (isTextsArray(node) && Array.isArray(value)) {
      return value.map((item: unknown, index) => {
        if (!isPlainObject(item) || !chain) return item;
        const entry = { ...item };
        if (isPlainObject(item.text))
          entry.text = project(
            { properties: Object.fromEntries(Object.keys(item.text).map((locale) => [locale, { type: "string" }])) },
            item.text,
            `${at}[${index}].text`,
            depth + 1,
          );
        return entry;
      });
    }
    if (Array.isArray(value)) return value.map((item, index) => shape(node.items, item, `${at}[${index}]`, depth + 1));
    if (isPlainObject(value)) {
      const properties = propertiesOf(node);
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => [
          key,
          properties[key] ? shape(properties[key], child, joinPath(at, key), depth + 1) : child,
        ]),
      );
    }
    return value;
  };

  const data = shape(bucket.schema, document.data, "", 0);
  return {
    contentId: document.contentId,
    versionId: document.versionId,
    bucket: bucket.slug,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    locale: chain ? (chain[0] ?? null) : null,
    fallbacks,
    ...(unresolved.length ? { unresolved } : {}),
    data: isPlainObject(data) ? data : {},
  };
}
