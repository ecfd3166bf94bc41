import type { MediaKind } from "./bounds";
import type { MediaStatus } from "./wire";

/*
 * The media library's query and limits (docs/media.md), shared by its page, its form and the tests: what a list's
 * address says (search, filters, sort, page) and the lengths of the texts an item carries.
 */

export const LIBRARY_PAGE_SIZE = 48;
export const LIBRARY_SORTS = ["newest", "oldest", "name", "size"] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];
export const LIBRARY_VIEWS = ["grid", "list"] as const;
export type LibraryView = (typeof LIBRARY_VIEWS)[number];

/** The most images without an alternative text the library counts (a count on every page; "or more" beyond). */
export const MISSING_ALT_COUNT_LIMIT = 1000;

/** The most files of one library upload. */
export const LIBRARY_UPLOAD_FILES = 20;

/** The texts of an item: an alternative text and a caption per locale, and one credits line. */
export const ALT_TEXT_MAX = 500;
export const CAPTION_MAX = 2000;
export const CREDITS_MAX = 500;

/** The library's address parameter of a choice for a field: the form draft's token. */
export const LIBRARY_PICK_PARAM = "pick";

export interface LibraryQuery {
  q: string;
  kind: MediaKind | null;
  /** A bucket's slug. */
  bucket: string | null;
  use: "used" | "unused" | null;
  /** A user's id. */
  uploader: string | null;
  missingAlt: boolean;
  sort: LibrarySort;
  view: LibraryView;
  page: number;
  /** Choosing for a field: its form draft's token (server/media/library-pick.ts). */
  pick: string | null;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  values.includes(value as T) ? (value as T) : null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The query an address asks for; what it gets wrong falls back to the default (a library link never fails). */
export function parseLibraryQuery(params: URLSearchParams): LibraryQuery {
  const page = Number(params.get("page"));
  const uploader = params.get("uploader");
  return {
    q: (params.get("q") ?? "").trim().slice(0, 200),
    kind: oneOf(["image", "video", "file"] as const, params.get("kind")),
    bucket: params.get("bucket") || null,
    use: oneOf(["used", "unused"] as const, params.get("use")),
    uploader: uploader && UUID.test(uploader) ? uploader.toLowerCase() : null,
    missingAlt: params.get("alt") === "missing",
    sort: oneOf(LIBRARY_SORTS, params.get("sort")) ?? "newest",
    view: oneOf(LIBRARY_VIEWS, params.get("view")) ?? "grid",
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    pick: /^[A-Za-z0-9_-]{20,100}$/.test(params.get(LIBRARY_PICK_PARAM) ?? "") ? params.get(LIBRARY_PICK_PARAM) : null,
  };
}

/** The address of a query (defaults left out), for links to other pages, sorts and views. */
export function libraryQueryString(query: LibraryQuery, change: Partial<LibraryQuery> = {}): string {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.pick) params.set(LIBRARY_PICK_PARAM, next.pick);
  if (next.q) params.set("q", next.q);
  if (next.kind) params.set("kind", next.kind);
  if (next.bucket) params.set("bucket", next.bucket);
  if (next.use) params.set("use", next.use);
  if (next.uploader) params.set("uploader", next.uploader);
  if (next.missingAlt) params.set("alt", "missing");
  if (next.sort !== "newest") params.set("sort", next.sort);
  if (next.view !== "grid") params.set("view", next.view);
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** An item as the library lists it. */
export interface LibraryItem {
  contentId: string;
  versionId: string;
  kind: MediaKind;
  name: string;
  mimetype: string;
  size: number;
  width: number | null;
  height: number | null;
  duration: number | null;
  status: MediaStatus;
  uploadedBy: string | null;
  createdAt: string;
  updatedAt: string;
  bucket: { slug: string; name: string };
  uses: number;
  /** Images: the item's bucket's locales without an alternative text. */
  missingAlt: string[];
  /** What the list shows small: the image itself, a video's chosen still, nothing for a file. */
  previewUrl: string | null;
}

/** A document that uses an item: its newest or its published version names the item's contentId. */
export interface MediaUse {
  contentId: string;
  title: string;
  bucket: { slug: string; name: string };
  path: string;
}

/** An item refused a deletion, with the documents that use it. */
export interface RefusedDeletion {
  contentId: string;
  name: string;
  uses: MediaUse[];
  hiddenUses: number;
}
