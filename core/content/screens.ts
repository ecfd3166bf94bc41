/*
 * Which screen a bucket's documents are edited on (docs/screens.md), and where each of its pages lives. A bucket
 * definition names its screen; the specialised screens are layouts and widgets over the generic editor (same loader
 * data, same save pipeline), each under its own URL prefix (spec §2). Every link to a bucket's pages is made here,
 * from the pages each screen declares in the screens' table (specialised-screens/table.ts), which the composition
 * roots register once at start (server/app.ts, app/root.tsx): the engine imports no screen.
 */

/** A bucket's screen: "generic" or the name of a screen in the table. */
export type ScreenName = string;

/** The pages of a document a route module can be (app/routes/bucket-edit: one module per mode). */
export type DocumentMode = "new" | "singleton" | "latest" | "version" | "duplicate";

/** What a specialised screen has pages for; the generic editor shows the other modes, and the overview unless it has its own. */
export interface ScreenPages {
  modes: readonly DocumentMode[];
  ownOverview: boolean;
}

let registered: ReadonlyMap<string, ScreenPages> | null = null;

/** Registers the screens' pages (the composition roots do, once; again with the same table is harmless). */
export function registerScreens(table: readonly { name: string; pages: ScreenPages }[]): void {
  registered = new Map(table.map(({ name, pages }) => [name, pages]));
}

function screens(): ReadonlyMap<string, ScreenPages> {
  if (!registered) throw new Error("registerScreens() was not called");
  return registered;
}

/** Every screen a bucket can have: the generic editor first, then the table's. */
export const screenNames = (): ScreenName[] => ["generic", ...screens().keys()];

export const isScreenName = (value: unknown): value is ScreenName =>
  typeof value === "string" && (value === "generic" || screens().has(value));

/** What the paths need of a bucket. */
export interface ScreenBucket {
  slug: string;
  singleton: boolean;
  screen: ScreenName;
}

/**
 * The pages of a bucket's screen; a screen the table no longer has (its folder was removed) shows its buckets in
 * the generic editor.
 */
const pagesOf = (screen: ScreenName): ScreenPages | undefined => (screen === "generic" ? undefined : screens().get(screen));

/** Whether the bucket's screen has its own page for this mode (else the generic editor shows it). */
export function screenHasMode(bucket: Pick<ScreenBucket, "screen">, mode: DocumentMode): boolean {
  return pagesOf(bucket.screen)?.modes.includes(mode) ?? false;
}

const prefix = (bucket: ScreenBucket, mode: DocumentMode) =>
  `/${screenHasMode(bucket, mode) ? bucket.screen : "b"}/${encodeURIComponent(bucket.slug)}`;

export const hasOwnOverview = (bucket: Pick<ScreenBucket, "screen">) => pagesOf(bucket.screen)?.ownOverview ?? false;

/** The bucket's overview: the list of its documents (a singleton has none: its document). */
export function overviewPath(bucket: ScreenBucket): string {
  if (bucket.singleton) return singletonPath(bucket);
  return `/${hasOwnOverview(bucket) ? bucket.screen : "b"}/${encodeURIComponent(bucket.slug)}`;
}

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
