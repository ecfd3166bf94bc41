import type { PublicationState } from "./publication";
import type { JsonSchema } from "@core/schema/normalize";
import { isUuid } from "@core/ids";

/** The options of a reference select (spec §1): the referenced collection's documents by title. */
export interface ReferenceOption {
  value: string;
  label: string;
  /** The document's first image (the media serving route's URL), for reference lists and pickers. */
  thumbnail?: string | null;
  /** What exhibits get of the document (docs/publishing.md); absent where it is not known. */
  state?: PublicationState;
}

export interface ReferenceCollection {
  /** The bucket that holds the collection, for links and sub-forms; null when the user may not see it. */
  slug: string | null;
  /** The whole collection when it is small; the first page of it when it is searchable. */
  options: ReferenceOption[];
  /** Over REFERENCE_SELECT_LIMIT documents: a combobox that asks the server as the editor types. */
  searchable?: boolean;
}

/**
 * A document a form's reference field holds: its title and thumbnail, or `deleted` when no document with that
 * contentId exists any more (the stored value is kept, the field says so).
 */
export interface ReferenceTarget {
  label: string;
  thumbnail?: string | null;
  deleted?: boolean;
  /** What exhibits get of the document (docs/publishing.md). */
  state?: PublicationState;
}

/** A collection with more documents than this is searched as the editor types instead of listed whole. */
export const REFERENCE_SELECT_LIMIT = 200;
/** The first page of a searchable collection, and the default of a search. */
export const REFERENCE_SEARCH_PAGE = 20;
/** The most results one search answers. */
export const REFERENCE_SEARCH_MAX = 50;
/** The longest search text taken (longer is cut). */
export const REFERENCE_SEARCH_MAX_LENGTH = 200;

/** Without JavaScript: the search button of a large collection's reference field (its value is the field's name). */
export const REFERENCE_SEARCH_FIELD = "__reference_search";
/** Without JavaScript: the search text of the field named after the prefix. */
export const REFERENCE_QUERY_PREFIX = "__reference_query:";

/** What the form's reply carries after a search without JavaScript: the field, its text and the results. */
export interface ReferenceSearchReply {
  name: string;
  query: string;
  options: ReferenceOption[];
}

/** The `_ref` collection of a reference property (not a media `b-…` reference), or null. */
export function collectionOfSchema(node: unknown): string | null {
  const ref = node && typeof node === "object" ? (node as JsonSchema)._ref : undefined;
  return typeof ref === "string" && ref !== "" && !ref.startsWith("b-") ? ref : null;
}

/** Every collection reference a value holds along its schema: {collection, contentId, name} (uuids only). */
export function collectionReferences(
  schema: unknown,
  value: unknown,
  name = "",
  out: Array<{ collection: string; contentId: string; name: string }> = [],
  depth = 0,
): Array<{ collection: string; contentId: string; name: string }> {
  if (typeof schema !== "object" || schema === null || depth > 64) return out;
  const node = schema as JsonSchema;
  const collection = collectionOfSchema(node);
  if (collection) {
    if (typeof value === "string" && isUuid(value)) out.push({ collection, contentId: value.toLowerCase(), name });
    return out;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collectionReferences(node.items, item, `${name}[${index}]`, out, depth + 1);
  } else if (typeof value === "object" && value !== null && typeof node.properties === "object" && node.properties !== null) {
    for (const [key, child] of Object.entries(node.properties as Record<string, unknown>)) {
      if (Object.prototype.hasOwnProperty.call(value, key)) {
        collectionReferences(child, (value as Record<string, unknown>)[key], name ? `${name}.${key}` : key, out, depth + 1);
      }
    }
  }
  return out;
}

/** The URL of a document's first image field with a value (a top-level `_ref: "b-image"`), or null. */
export function documentThumbnail(data: Record<string, unknown>, schema: unknown): string | null {
  const properties = ((schema ?? {}) as JsonSchema).properties;
  if (!properties || typeof properties !== "object") return null;
  for (const [key, property] of Object.entries(properties as Record<string, JsonSchema>)) {
    const value = data[key];
    if (property._ref === "b-image" && typeof value === "string" && isUuid(value)) return `/api/v1/media/image/${value}`;
  }
  return null;
}

/** A search's limit from a query parameter: 1…REFERENCE_SEARCH_MAX, REFERENCE_SEARCH_PAGE when absent or unreadable. */
export function searchLimit(raw: string | null): number {
  const limit = raw === null || !/^\d{1,9}$/.test(raw) ? REFERENCE_SEARCH_PAGE : Number(raw);
  return Math.min(Math.max(limit, 1), REFERENCE_SEARCH_MAX);
}

/** A document that refers to another (the delete confirmation's 'where used'). */
export interface Referrer {
  bucketSlug: string;
  bucketName: string;
  contentId: string;
  title: string;
  /** The referring document's page on its bucket's screen (core/content/screens.ts). */
  path: string;
}

export interface WhereUsed {
  /** The referring documents in buckets the user may see (at most WHERE_USED_LIMIT). */
  referrers: Referrer[];
  /** Referring documents in buckets the user may not see (private, or not in their list): only counted. */
  hidden: number;
  /** Referring documents the user may see beyond the listed ones. */
  more: number;
}
