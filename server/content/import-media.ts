import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Queryable } from "@server/db/client";
import { HttpError, messagesOf } from "@server/errors";
import { checkUpload } from "@server/media/accept";
import type { FfmpegTools } from "@server/media/ffmpeg";
import type { MediaStorage } from "@server/media/storage";
import { isUuid } from "@core/ids";
import { mediaBounds, type MediaKind } from "@core/media/bounds";
import type { Message } from "@core/messages";
import type { StagedFormFile } from "./save-media";
import { namedValues, replaceAt, type NamedValue } from "./import-fields";
import type { ReferencingRow } from "./import-references";
import { entryNameOf, type ImportZip } from "./import-zip";

/*
 * An import's media cells (issue 34): a media id is taken if such an item exists (the save then checks, as for any
 * chosen item, that the user may see it and that it fits the field); any other text names a file in the run's ZIP,
 * unpacked and checked by its content as every upload is (server/media/accept.ts: type by magic bytes, size, the
 * image header or ffprobe, the field's bounds) and handed to the save as the form's files are, which places and
 * records it in the batch's transaction. A file imported before, into this bucket, as this kind (by its SHA-256,
 * import_media) is named again instead of made again: a second run or a resumed one makes no second item.
 */

type MediaValue = NamedValue & { role: "media" };

/** What a run's media cells are read with; `hashes` remembers each entry's SHA-256 for the run. */
export interface MediaSource {
  zip: ImportZip | null;
  bucketId: string;
  storage: MediaStorage;
  ffmpeg: FfmpegTools | null;
  hashes: Map<string, string>;
}

/** A file this row makes into a media item (once its document saves). */
export interface MadeMedia {
  kind: MediaKind;
  sha256: string;
  contentId: string;
}

export interface StagedRowMedia {
  files: StagedFormFile[];
  made: MadeMedia[];
}

const refused = (name: string, message: Message): Message => ({ key: "transfer.mediaRefused", params: { name, message } });

/**
 * Puts the media the row's cells name into its data (ids of items that exist or that its save will make), staging
 * the ZIP's files it needs; a cell that names nothing usable is a problem of the row. The caller discards the staged
 * files unless a save takes them.
 */
export async function stageRowMedia(db: Queryable, source: MediaSource, schema: unknown, row: ReferencingRow): Promise<StagedRowMedia> {
  const staged: StagedRowMedia = { files: [], made: [] };
  const values = namedValues(schema, row.data).filter((value): value is MediaValue => value.role === "media");
  const ids = values.filter((value) => isUuid(value.text)).map((value) => value.text.toLowerCase());
  const existing = ids.length ? await existingItems(db, ids) : new Set<string>();
  for (const value of values) {
    if (isUuid(value.text)) {
      if (!existing.has(value.text.toLowerCase()))
        row.problems.push({ field: value.name, message: { key: "transfer.mediaUnknownId", params: { id: value.text } } });
      continue;
    }
    const outcome = await mediaOfEntry(db, source, value, staged);
    if ("problem" in outcome) row.problems.push({ field: value.name, message: outcome.problem });
    else replaceAt(row.data, value.path, outcome.contentId);
  }
  return staged;
}

async function mediaOfEntry(
  db: Queryable,
  source: MediaSource,
  value: MediaValue,
  staged: StagedRowMedia,
): Promise<{ contentId: string } | { problem: Message }> {
  if (!source.zip) return { problem: { key: "transfer.mediaNoZip", params: { name: value.text } } };
  const found = source.zip.find(value.text);
  if ("problem" in found) return found;
  const name = entryNameOf(value.text) ?? value.text;
  const known = source.hashes.get(name);
  const before = known ? await importedBefore(db, source.bucketId, value.kind, known, staged) : null;
  if (before) return { contentId: before };
  const temporaryPath = source.storage.temporaryPath();
  const keep = { done: false };
  try {
    const extracted = await source.zip.extract(found.entry, temporaryPath, mediaBounds(value.kind, value.property).maxBytes);
    if ("problem" in extracted) return { problem: refused(name, extracted.problem) };
    source.hashes.set(name, extracted.sha256);
    const again = await importedBefore(db, source.bucketId, value.kind, extracted.sha256, staged);
    if (again) return { contentId: again };
    const file = { temporaryPath, size: extracted.size, originalFilename: path.posix.basename(name) };
    let facts;
    try {
      facts = await checkUpload({ kind: value.kind, file, property: value.property }, source.ffmpeg);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const [first] = messagesOf(error);
      return { problem: refused(name, first ?? { key: error.key }) };
    }
    const contentId = randomUUID();
    staged.files.push({ path: temporaryPath, facts, contentId, name: value.name });
    staged.made.push({ kind: value.kind, sha256: extracted.sha256, contentId });
    keep.done = true;
    return { contentId };
  } finally {
    if (!keep.done) await source.storage.remove(temporaryPath);
  }
}

/** The item an import made of these bytes before (and that still exists), or this row's own staged one. */
async function importedBefore(db: Queryable, bucketId: string, kind: MediaKind, sha256: string, staged: StagedRowMedia) {
  const own = staged.made.find((made) => made.kind === kind && made.sha256 === sha256);
  if (own) return own.contentId;
  const { rows } = await db.query<{ contentId: string }>(
    `SELECT m.content_id AS "contentId" FROM import_media m JOIN media_items i ON i.content_id = m.content_id
     WHERE m.bucket_id = $1 AND m.kind = $2 AND m.sha256 = $3`,
    [bucketId, kind, sha256],
  );
  return rows[0]?.contentId ?? null;
}

async function existingItems(db: Queryable, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(`SELECT content_id::text AS id FROM media_items WHERE content_id = ANY($1::uuid[])`, [
    ids,
  ]);
  return new Set(rows.map((row) => row.id));
}

/** Remembers the items a saved row made, in the batch's transaction (a stale memory of a deleted item is replaced). */
export async function recordImportedMedia(tx: Queryable, bucketId: string, made: readonly MadeMedia[]): Promise<void> {
  for (const item of made)
    await tx.query(
      `INSERT INTO import_media (bucket_id, kind, sha256, content_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (bucket_id, kind, sha256) DO UPDATE SET content_id = EXCLUDED.content_id`,
      [bucketId, item.kind, item.sha256, item.contentId],
    );
}
