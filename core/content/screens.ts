/*
 * Which screen a bucket's documents are edited on (docs/screens.md), and where each of its pages lives. A bucket
 * definition names its screen; the specialised screens are layouts and widgets over the generic editor (same loader
 * data, same save pipeline), each under its own URL prefix (spec §2). Every link to a bucket's pages is made here.
 */

export const SCREENS = ["generic", "sessies", "dle-sessies", "dle-content", "trend"] as const;
export type ScreenName = (typeof SCREENS)[number];
export type SpecialisedScreen = Exclude<ScreenName, "generic">;

export const isScreenName = (value: unknown): value is ScreenName =>
  typeof value === "string" && (SCREENS as readonly string[]).includes(value);

/** What the paths need of a bucket. */
export interface ScreenBucket {
  slug: string;
  singleton: boolean;
  screen: ScreenName;
}

/** The pages of a document a route module can be (app/routes/bucket-edit: one module per mode). */
export type DocumentMode = "new" | "singleton" | "latest" | "version" | "duplicate";

/**
 * The modes each specialised screen has a page for (spec §2); the others are the generic editor's. Sessies and
 * dle-sessies also have their own overview.
 */
const SCREEN_MODES: Record<SpecialisedScreen, readonly DocumentMode[]> = {
  sessies: ["new", "latest", "version"],
  "dle-sessies": ["new", "latest", "version"],
  "dle-content": ["new", "singleton", "latest", "version"],
  trend: ["new", "latest", "version"],
};
const OWN_OVERVIEW: readonly ScreenName[] = ["sessies", "dle-sessies"];

/** Whether the bucket's screen has its own page for this mode (else the generic editor shows it). */
export function screenHasMode(bucket: Pick<ScreenBucket, "screen">, mode: DocumentMode): boolean {
  return bucket.screen !== "generic" && SCREEN_MODES[bucket.screen].includes(mode);
}

const prefix = (bucket: ScreenBucket, mode: DocumentMode) =>
  `/${screenHasMode(bucket, mode) ? bucket.screen : "b"}/${encodeURIComponent(bucket.slug)}`;

/** The bucket's overview: the list of its documents (a singleton has none: its document). */
export function overviewPath(bucket: ScreenBucket): string {
  if (bucket.singleton) return singletonPath(bucket);
  return `/${OWN_OVERVIEW.includes(bucket.screen) ? bucket.screen : "b"}/${encodeURIComponent(bucket.slug)}`;
}

export const hasOwnOverview = (bucket: Pick<ScreenBucket, "screen">) => OWN_OVERVIEW.includes(bucket.screen);

export const newDocumentPath = (bucket: ScreenBucket) => `${prefix(bucket, "new")}/new`;

export const singletonPath = (bucket: ScreenBucket) => `${prefix(bucket, "singleton")}/edit`;

/** A document's page: its latest version, or a given one. */
export function documentPath(bucket: ScreenBucket, contentId: string, versionId?: string): string {
  return `${prefix(bucket, versionId ? "version" : "latest")}/${encodeURIComponent(contentId)}/${versionId ? encodeURIComponent(versionId) : "latest"}`;
}

/** Where a saved document is shown: the singleton's page, or the document's latest version. */
export const savedDocumentPath = (bucket: ScreenBucket, contentId: string) =>
  bucket.singleton ? singletonPath(bucket) : documentPath(bucket, contentId);

export const duplicatePath = (bucket: ScreenBucket, contentId: string) =>
  `/b/${encodeURIComponent(bucket.slug)}/duplicate/${encodeURIComponent(contentId)}/latest`;

/** The page of this mode on the bucket's own screen, for a generic route asked about a specialised bucket. */
export function screenPathFor(bucket: ScreenBucket, mode: DocumentMode, ids: { contentId?: string; versionId?: string }): string | null {
  if (!screenHasMode(bucket, mode)) return null;
  if (mode === "new") return newDocumentPath(bucket);
  if (mode === "singleton") return singletonPath(bucket);
  if (!ids.contentId) return null;
  return documentPath(bucket, ids.contentId, mode === "version" ? ids.versionId : undefined);
}
