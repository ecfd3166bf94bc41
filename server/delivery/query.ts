import type { Bucket } from "@server/content/buckets";
import type { LocaleRequest } from "@core/delivery/shape";
import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "@core/schema/normalize";
import { propertiesOf } from "@core/schema/walk";
import { invalidParameter } from "./problem";
import type { DeliveryBucket } from "./read";
import type { PageCursor, PageQuery, PageSort } from "./store";

/*
 * The delivery API's query parameters (docs/delivery.md): locale and fallback, populate, and a list's sort, limit,
 * cursor, updatedSince and search, each checked into a clear 400 that names the parameter.
 */

export const MAX_POPULATE = 3;
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;
export const MAX_QUERY_LENGTH = 200;

/** `locale` and `fallback`: null without a locale (every locale answered). */
export function parseLocale(url: URL, bucket: Bucket): LocaleRequest | null {
  const locale = url.searchParams.get("locale");
  const fallbackText = url.searchParams.get("fallback");
  const locales = bucket.locales.join(", ");
  if (locale === null || locale === "") {
    if (fallbackText !== null)
      throw invalidParameter("fallback", "delivery.problems.invalidParameter.fallback", { value: fallbackText, locales });
    return null;
  }
  if (!bucket.locales.includes(locale))
    throw invalidParameter("locale", "delivery.problems.invalidParameter.locale", { value: locale, locales });
  if (fallbackText === null) return { locale, fallback: null };
  if (fallbackText === "none" || fallbackText === "") return { locale, fallback: [] };
  const fallback = fallbackText.split(",").map((part) => part.trim());
  if (fallback.some((part) => !bucket.locales.includes(part)))
    throw invalidParameter("fallback", "delivery.problems.invalidParameter.fallback", { value: fallbackText, locales });
  return { locale, fallback };
}

function wholeNumber(
  url: URL,
  name: string,
  min: number,
  max: number,
  fallback: number,
  key: Parameters<typeof invalidParameter>[1],
): number {
  const text = url.searchParams.get(name);
  if (text === null) return fallback;
  if (!/^\d{1,4}$/.test(text) || Number(text) < min || Number(text) > max) throw invalidParameter(name, key, { value: text, max });
  return Number(text);
}

export const parsePopulate = (url: URL) => wholeNumber(url, "populate", 0, MAX_POPULATE, 0, "delivery.problems.invalidParameter.populate");

/** Top-level properties a page may be sorted by: text, numbers and booleans, translated or not. */
export function sortableProperties(schema: JsonSchema): Map<string, { translated: boolean }> {
  const scalar = (node: JsonSchema) => ["string", "number", "integer", "boolean"].includes(node.type as string) && node._ref === undefined;
  const out = new Map<string, { translated: boolean }>();
  for (const [name, node] of Object.entries(propertiesOf(schema))) {
    if (node.renderer === TRANSLATE_OBJECT_RENDERER) {
      if (Object.values(propertiesOf(node)).every(scalar)) out.set(name, { translated: true });
    } else if (scalar(node)) out.set(name, { translated: false });
  }
  return out;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** The cursor is opaque to clients: base64url of the sort it was made for and where the page ended. */
interface CursorBody {
  s: string;
  v: unknown;
  id: string;
}

const sortKey = (sort: PageSort) =>
  sort.by === "property" ? `${sort.property}|${sort.locale ?? ""}|${sort.order}` : `${sort.by}|${sort.order}`;

export function encodeCursor(sort: PageSort, value: unknown, contentId: string): string {
  return Buffer.from(JSON.stringify({ s: sortKey(sort), v: value, id: contentId } satisfies CursorBody)).toString("base64url");
}

function decodeCursor(text: string, sort: PageSort): PageCursor {
  const bad = () => invalidParameter("cursor", "delivery.problems.invalidParameter.cursor");
  if (!/^[A-Za-z0-9_-]{1,4000}$/.test(text)) throw bad();
  let body: Partial<CursorBody> | null;
  try {
    body = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<CursorBody> | null;
  } catch {
    throw bad();
  }
  if (!body || typeof body !== "object" || body.s !== sortKey(sort) || typeof body.id !== "string" || !/^[0-9a-f-]{36}$/.test(body.id))
    throw bad();
  if (sort.by !== "property" && (typeof body.v !== "string" || !ISO_DATE_TIME.test(body.v))) throw bad();
  return { value: body.v, contentId: body.id };
}

/** The list's query parameters: sort, order, limit, cursor, updatedSince, q. */
export function parsePageQuery(url: URL, bucket: DeliveryBucket, locale: LocaleRequest | null): PageQuery {
  const sortText = url.searchParams.get("sort") ?? "updatedAt";
  const orderText = url.searchParams.get("order");
  if (orderText !== null && orderText !== "asc" && orderText !== "desc")
    throw invalidParameter("order", "delivery.problems.invalidParameter.order", { value: orderText });
  let sort: PageSort;
  if (sortText === "updatedAt" || sortText === "createdAt") {
    sort = { by: sortText, order: orderText ?? "desc" };
  } else {
    const sortable = sortableProperties(bucket.schema);
    const property = sortable.get(sortText);
    if (!property) {
      throw invalidParameter("sort", "delivery.problems.invalidParameter.sort", {
        value: sortText,
        fields: ["updatedAt", "createdAt", ...sortable.keys()].join(", "),
      });
    }
    sort = {
      by: "property",
      property: sortText,
      locale: property.translated ? (locale?.locale ?? bucket.bucket.locales[0] ?? null) : null,
      order: orderText ?? "asc",
    };
  }
  const limit = wholeNumber(url, "limit", 1, MAX_LIMIT, DEFAULT_LIMIT, "delivery.problems.invalidParameter.limit");
  const cursorText = url.searchParams.get("cursor");
  const after = cursorText === null || cursorText === "" ? null : decodeCursor(cursorText, sort);
  const sinceText = url.searchParams.get("updatedSince");
  let updatedSince: string | null = null;
  if (sinceText !== null) {
    if (!ISO_DATE_TIME.test(sinceText) || Number.isNaN(Date.parse(sinceText))) {
      throw invalidParameter("updatedSince", "delivery.problems.invalidParameter.updatedSince", { value: sinceText });
    }
    updatedSince = sinceText;
  }
  const q = url.searchParams.get("q")?.trim() || null;
  if (q && q.length > MAX_QUERY_LENGTH) throw invalidParameter("q", "delivery.problems.invalidParameter.q", { max: MAX_QUERY_LENGTH });
  return { sort, limit, after, updatedSince, search: q };
}
