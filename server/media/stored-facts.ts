import type { StoredMediaFacts } from "@core/media/fit";
import type { MediaKind } from "@core/media/bounds";
import type { MediaDetails } from "./store";

/* A media item's stored facts, as a field's bounds are checked against them (core/media/fit.ts). */

/** The stored file's extension, from the newest media `m` (its storage key is named by its type, not by the upload). */
const EXTENSION = `substring(m.storage_key FROM '\\.([A-Za-z0-9]+)$') AS extension`;

/**
 * The original of a cropped image `m` (media `o`, none for an uncropped one): a field's upload bounds are the
 * original's, as they were at its upload; its crop bounds are checked by the crop.
 */
export const ORIGINAL_JOIN = "LEFT JOIN media o ON o.id = m.original_image_version_id";

/** An item's facts as one row of media_items `i` joined with its newest media `m` and ORIGINAL_JOIN. */
export const STORED_FACTS_COLUMNS = `i.kind, m.details, ${EXTENSION}, coalesce(o.size, m.size)::float8 AS "uploadSize",
  coalesce(o.width, m.width) AS "uploadWidth", coalesce(o.height, m.height) AS "uploadHeight"`;

export interface StoredFactsRow {
  kind: MediaKind;
  details: MediaDetails;
  extension: string | null;
  uploadSize: number;
  uploadWidth: number | null;
  uploadHeight: number | null;
}

export const storedFacts = (row: StoredFactsRow): StoredMediaFacts => ({
  kind: row.kind,
  size: row.uploadSize,
  width: row.uploadWidth,
  height: row.uploadHeight,
  fps: row.details.fps ?? null,
  codec: row.details.codec ?? null,
  extension: row.extension ?? "",
});
