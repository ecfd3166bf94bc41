import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import type { Pack } from "tar-stream";
import type { ApiClient } from "@server/accounts/api-clients";
import type { Config } from "@server/config";
import type { Queryable } from "@server/db/client";
import type { MediaStorage } from "@server/media/storage";
import type { MediaRow } from "@server/media/store";
import type { BundleRequest, BundleState } from "./bundle-request";
import { mediaFile } from "./media";
import { shapeDocuments, type ReadContext } from "./read";
import { documentPage, type PageCursor } from "./store";
import { addBuffer, addEntry, type ManifestFile } from "./tar-entries";
import { isPreview } from "./view";

/*
 * Offline bundles (docs/bundles.md; what is asked: bundle-request.ts; the archive's entries: tar-entries.ts): one tar archive, written as it is sent, of the chosen buckets' documents
 * exactly as the read API answers them (shapeDocuments: locales, fallbacks, populate), one JSON file per document
 * and locale, and the media files they name, whose URLs in the documents are paths inside the bundle. Every entry
 * is hashed (SHA-256) while it streams; manifest.json comes last and lists every other entry's path, size and hash.
 * Each bundle is recorded (delivery_bundles) with the state an app has after unpacking it, so that `since={id}`
 * holds only what changed: documents whose files differ, media files not in that state, and removed.json.
 * Memory stays flat: documents are read and shaped a batch at a time, files are read in 64 KiB chunks, and every
 * write waits for the archive's reader (the HTTP response or a file).
 */

export const BUNDLE_FORMAT = "vitrine-bundle";
export const BUNDLE_FORMAT_VERSION = 1;
export const MANIFEST_PATH = "manifest.json";
export const REMOVED_PATH = "removed.json";
const BATCH = 100;

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  formatVersion: typeof BUNDLE_FORMAT_VERSION;
  id: string;
  createdAt: string;
  client: { id: string; name: string };
  since: string | null;
  locales: string[] | null;
  populate: number;
  /** Every document of the state (also those an incremental bundle does not carry again), per bucket. */
  buckets: Array<{
    slug: string;
    name: string;
    collectionName: string;
    singleton: boolean;
    locales: string[];
    schemaVersionId: string | null;
    documents: Array<{ contentId: string; versionId: string; updatedAt: string; files: Record<string, string> }>;
  }>;
  /** Every media content of the state: its files by name (`original`, `web`, `still-0` …) and path. */
  media: Array<{ contentId: string; kind: string; mimetype: string; files: Record<string, string> }>;
  /** removed.json in an incremental bundle, else null. */
  removed: string | null;
  /**
   * Only in a preview bundle (version=newest or release=…, docs/delivery.md "Preview"): what it shows instead of the
   * published versions. A later bundle `since` it (preview or not) holds what differs from it, as always.
   */
  preview?: { version: "newest" } | { release: string };
  /** Every entry of the archive but manifest.json itself, in archive order. */
  files: ManifestFile[];
}

export interface RemovedList {
  since: string;
  documents: Array<{ contentId: string; bucket: string; files: string[] }>;
  media: Array<{ contentId: string; files: string[] }>;
  /** Every path of the earlier state that is gone: delete these after unpacking. */
  files: string[];
}

/** Where a bundle's files are read and who reads. */
export interface BundleContext {
  db: Queryable;
  client: ApiClient;
  config: Config;
  storage: MediaStorage;
}

/** A media file's path inside the bundle: media/{contentId}/{file}{extension of the stored file}. */
export function bundleMediaPath(media: MediaRow, file: string): string {
  const stored = mediaFile(media, file);
  const ext = stored ? path.extname(stored.key).toLowerCase() : "";
  return `media/${media.contentId.toLowerCase()}/${file}${/^\.[a-z0-9]{1,10}$/.test(ext) ? ext : ""}`;
}

function documentPath(slug: string, contentId: string, locale: string | null): string {
  return locale === null ? `content/${slug}/${contentId}.json` : `content/${slug}/${locale}/${contentId}.json`;
}

export interface BundleResult {
  manifest: BundleManifest;
  /** Bytes of the archive's entries (without tar headers). */
  bytes: number;
}

/**
 * Writes the bundle into `pack` and finalizes it; the caller reads the pack (an HTTP body, a file). Records the
 * bundle just before manifest.json, so the id the manifest names can be used as `since` at once.
 */
export async function writeBundle(context: BundleContext, request: BundleRequest, pack: Pack, signal?: AbortSignal): Promise<BundleResult> {
  const id = randomUUID();
  const createdAt = new Date();
  const files: ManifestFile[] = [];
  const state: BundleState = { documents: {}, media: {} };
  const since = request.since;
  const needed = new Map<string, { row: MediaRow; files: Set<string> }>();
  const read: ReadContext = {
    db: context.db,
    client: context.client,
    config: context.config,
    base: "",
    ...(isPreview(request.view) ? { view: request.view } : {}),
    mediaUrl: (row, file) => {
      const key = row.contentId.toLowerCase();
      const entry = needed.get(key) ?? { row, files: new Set<string>() };
      entry.files.add(file);
      needed.set(key, entry);
      return bundleMediaPath(row, file);
    },
  };
  const manifestBuckets: BundleManifest["buckets"] = [];
  const locales: Array<string | null> = request.locales ?? [null];

  for (const bucket of request.buckets) {
    const { bucket: row } = bucket;
    const listed: BundleManifest["buckets"][number] = {
      slug: row.slug,
      name: row.name,
      collectionName: row.collectionName,
      singleton: row.singleton,
      locales: row.locales,
      schemaVersionId: row.schemaVersionId ?? null,
      documents: [],
    };
    manifestBuckets.push(listed);
    let after: PageCursor | null = null;
    for (;;) {
      signal?.throwIfAborted();
      const page = await documentPage(
        context.db,
        row.id,
        {
          sort: { by: "createdAt", order: "asc" },
          limit: BATCH,
          after,
          updatedSince: null,
          search: null,
        },
        request.view,
      );
      const shapedByLocale = new Map<string | null, Awaited<ReturnType<typeof shapeDocuments>>>();
      for (const locale of locales) {
        shapedByLocale.set(
          locale,
          await shapeDocuments(read, bucket, page.documents, {
            locale: locale === null ? null : { locale, fallback: null },
            populate: request.populate,
          }),
        );
      }
      for (const [index, stored] of page.documents.entries()) {
        const contentId = stored.contentId.toLowerCase();
        const documentFiles: Record<string, string> = {};
        const hashes: Record<string, string> = {};
        for (const locale of locales) {
          const shaped = shapedByLocale.get(locale)?.[index];
          if (!shaped) continue;
          const name = documentPath(row.slug, contentId, locale);
          const body = Buffer.from(JSON.stringify(shaped));
          const sha256 = createHash("sha256").update(body).digest("hex");
          documentFiles[locale ?? "all"] = name;
          hashes[name] = sha256;
          if (since?.documents[contentId]?.files[name] === sha256) continue;
          files.push(await addBuffer(pack, name, body, new Date(stored.updatedAt), signal));
        }
        state.documents[contentId] = { bucket: row.slug, versionId: stored.versionId, files: hashes };
        listed.documents.push({ contentId, versionId: stored.versionId, updatedAt: stored.updatedAt, files: documentFiles });
      }
      const last = page.documents.at(-1);
      if (!page.more || !last) break;
      after = { value: last.sortValue, contentId: last.contentId };
    }
  }

  const manifestMedia: BundleManifest["media"] = [];
  for (const [contentId, { row, files: names }] of [...needed].sort(([a], [b]) => a.localeCompare(b))) {
    const entryFiles: Record<string, string> = {};
    const keys: Record<string, string> = {};
    for (const file of [...names].sort()) {
      const stored = mediaFile(row, file);
      if (!stored) continue;
      const name = bundleMediaPath(row, file);
      entryFiles[file] = name;
      if (since?.media[contentId]?.files[name] === stored.key) {
        keys[name] = stored.key;
        continue;
      }
      const info = await context.storage.head(stored.key);
      // A file the store lost: the path stays in the document, the bundle goes on without it.
      if (!info) continue;
      keys[name] = stored.key;
      files.push(
        await addEntry(
          pack,
          name,
          info.size,
          row.createdAt instanceof Date ? row.createdAt : new Date(row.createdAt),
          await context.storage.read(stored.key),
          signal,
        ),
      );
    }
    state.media[contentId] = { id: row.id, files: keys };
    manifestMedia.push({ contentId, kind: row.kind, mimetype: row.mimetype, files: entryFiles });
  }

  if (since) {
    const removed: RemovedList = { since: since.id, documents: [], media: [], files: [] };
    for (const [contentId, earlier] of Object.entries(since.documents)) {
      const now = state.documents[contentId];
      const gone = Object.keys(earlier.files)
        .filter((name) => !now?.files[name])
        .sort();
      if (!now) removed.documents.push({ contentId, bucket: earlier.bucket, files: gone });
      removed.files.push(...gone);
    }
    for (const [contentId, earlier] of Object.entries(since.media)) {
      const now = state.media[contentId];
      const gone = Object.keys(earlier.files)
        .filter((name) => !now?.files[name])
        .sort();
      if (!now) removed.media.push({ contentId, files: gone });
      removed.files.push(...gone);
    }
    removed.files.sort();
    files.push(await addBuffer(pack, REMOVED_PATH, Buffer.from(JSON.stringify(removed, null, 2)), createdAt, signal));
  }

  signal?.throwIfAborted();
  await context.db.query(
    `INSERT INTO delivery_bundles (id, client_id, buckets, locales, populate, since_id, created_at, documents, media)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      context.client.id,
      request.buckets.map(({ bucket }) => bucket.slug),
      request.locales,
      request.populate,
      since?.id ?? null,
      createdAt,
      JSON.stringify(state.documents),
      JSON.stringify(state.media),
    ],
  );
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    id,
    createdAt: createdAt.toISOString(),
    client: { id: context.client.id, name: context.client.name },
    since: since?.id ?? null,
    locales: request.locales,
    populate: request.populate,
    buckets: manifestBuckets,
    media: manifestMedia,
    removed: since ? REMOVED_PATH : null,
    ...(request.view.kind === "newest"
      ? { preview: { version: "newest" as const } }
      : request.view.kind === "release"
        ? { preview: { release: request.view.releaseId } }
        : {}),
    files,
  };
  await addBuffer(pack, MANIFEST_PATH, Buffer.from(JSON.stringify(manifest, null, 2)), createdAt, signal);
  pack.finalize();
  return { manifest, bytes: files.reduce((sum, file) => sum + file.size, 0) };
}

/** A pack whose writer runs now; errors destroy it (a reader sees a truncated archive, never a manifest). */
export async function startBundle(
  context: BundleContext,
  request: BundleRequest,
  signal?: AbortSignal,
): Promise<{ pack: Pack; done: Promise<BundleResult> }> {
  // Loaded by the first bundle, not by every start.
  const { default: tar } = await import("tar-stream");
  const pack = tar.pack();
  // A destroyed pack emits its error; the writer's promise (done) is where it is reported, never as an uncaught one.
  pack.on("error", () => undefined);
  signal?.addEventListener(
    "abort",
    () => pack.destroy(signal.reason instanceof Error ? signal.reason : new Error("the bundle was aborted")),
    { once: true },
  );
  const done = writeBundle(context, request, pack, signal);
  done.catch((error: unknown) => pack.destroy(error instanceof Error ? error : new Error(String(error))));
  return { pack, done };
}
