import type { Queryable } from "@server/db/client";
import { insertMedia, latestMedia, type MediaRow, type NewMedia } from "./store";
import { jobNamesFor } from "./intake";
import { HttpError } from "@server/errors";
import type { MediaKind } from "@core/media/bounds";

/*
 * One use's own crop and texts (docs/media.md, migration 042). A library item several documents use is shared: a
 * crop made in one document's field, or texts written for that use, must not change what the others show. Such a
 * use gets a **use item**: a media content of its own whose row names the shared item (media_items.use_of). Its
 * first version is the crop (of the shared item's original: nothing is copied) or the shared item's file itself (the
 * same stored file); its texts override the shared item's per locale (view media_item_texts). The library lists
 * shared items only; a document using a use item is a use of the shared item too (media_uses), so the shared item's
 * page, delete guard and replacement see it.
 */

/** The shared item a use item is a use of; null for a library item (or no item). */
export async function sharedItemOf(db: Queryable, contentId: string): Promise<string | null> {
  const { rows } = await db.query<{ useOf: string | null }>(`SELECT use_of AS "useOf" FROM media_items WHERE content_id = $1`, [contentId]);
  return rows[0]?.useOf ?? null;
}

/** Whether a document other than `documentId` (null: any document) uses the item. */
export async function usedBeyond(db: Queryable, contentId: string, documentId: string | null): Promise<boolean> {
  const { rows } = await db.query<{ used: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM media_uses WHERE media_content_id = $1 AND ($2::uuid IS NULL OR document_id <> $2::uuid)) AS used`,
    [contentId, documentId],
  );
  return rows[0]?.used ?? false;
}

/** The use items of a shared item. */
export async function useItemsOf(db: Queryable, contentId: string): Promise<string[]> {
  const { rows } = await db.query<{ contentId: string }>(`SELECT content_id AS "contentId" FROM media_items WHERE use_of = $1`, [
    contentId,
  ]);
  return rows.map((row) => row.contentId);
}

/** A new use item of `sharedId` whose first version is `version` (a video's with its jobs: its renditions are its own). */
export async function insertUseItem(tx: Queryable, sharedId: string, version: Omit<NewMedia, "contentId">): Promise<MediaRow> {
  const row = await insertMedia(tx, version, jobNamesFor(version.kind));
  await tx.query(`UPDATE media_items SET use_of = $2 WHERE content_id = $1`, [row.contentId, sharedId]);
  return row;
}

/**
 * A version showing the same stored file as `source` (nothing is copied), made by `userId`: what the checks measured,
 * no crop, and none of a video's renditions and stills (its jobs make its own, so that no two versions share them).
 */
export function sameFile(source: MediaRow, userId: string | null): Omit<NewMedia, "contentId"> {
  const { fps, codec, duration, hasAudio } = source.details;
  return {
    kind: source.kind,
    bucketId: source.bucketId,
    storageKey: source.storageKey,
    originalFilename: source.originalFilename,
    mimetype: source.mimetype,
    size: source.size,
    width: source.width,
    height: source.height,
    details: Object.fromEntries(Object.entries({ fps, codec, duration, hasAudio }).filter(([, value]) => value !== undefined)),
    createdBy: userId,
  };
}

/**
 * The item whose texts one document's use shows on its own: a use item as it is; a library item no other document
 * uses, itself (its texts are this use's); otherwise a new use item showing the shared item's file.
 */
export async function itemForOwnTexts(
  tx: Queryable,
  contentId: string,
  documentId: string | null,
  userId: string,
): Promise<{ contentId: string; created: MediaKind | null }> {
  if ((await sharedItemOf(tx, contentId)) || !(await usedBeyond(tx, contentId, documentId))) return { contentId, created: null };
  const latest = await latestMedia(tx, contentId);
  if (!latest) throw new HttpError(404, "media.noSuchMedia");
  const made = await insertUseItem(tx, contentId, sameFile(latest, userId));
  return { contentId: made.contentId, created: made.kind };
}

/** After a new file for a shared item: each of its use items shows it too (a crop was of the old file; texts stay). */
export async function followReplacement(tx: Queryable, replaced: MediaRow, userId: string): Promise<number> {
  const uses = await useItemsOf(tx, replaced.contentId);
  for (const contentId of uses) await insertMedia(tx, { ...sameFile(replaced, userId), contentId }, jobNamesFor(replaced.kind));
  return uses.length;
}
