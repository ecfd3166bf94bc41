import { MAX_IMAGE_BYTES } from "../../core/media/bounds";
import type { Db } from "../db/client";
import { setCustomStill, setThumb, type JobRow, type MediaDetails, type MediaRow } from "./store";
import { ImageHeaderError, readImageSize } from "./image-header";
import { sniffType, UnsupportedType } from "./sniff";
import type { MediaStorage } from "./storage";
import { MediaEditError } from "./edit-error";
import { formatBytes, type UploadedFile } from "./upload";

export type { Thumb } from "../../core/media/wire";
type Thumb = NonNullable<MediaDetails["thumb"]>;

export const THUMB_USAGE = "send {thumb: <still index>} or {thumb: {isCustom: true}}.";

/** Spec §5: custom stills are jpeg, png or webp, decided by content. */
export const CUSTOM_STILL_EXTENSIONS = ["jpg", "png", "webp"] as const;
export const CUSTOM_STILL_TYPE_MESSAGE = "A custom still must be a JPEG, PNG or WebP image.";
/** A custom still is an image upload: the image ceiling applies. */
export const MAX_CUSTOM_STILL_BYTES = MAX_IMAGE_BYTES;

/** The thumb update request (spec §3): a still index, {index}, or {isCustom: true} (other keys, e.g. url, are ignored). */
export function parseThumb(body: Record<string, unknown>): Thumb {
  const value = body.thumb;
  const index = typeof value === "object" && value !== null && !Array.isArray(value) && "index" in value ? (value as { index: unknown }).index : value;
  if (typeof value === "object" && value !== null && !Array.isArray(value) && (value as { isCustom?: unknown }).isCustom === true) return { isCustom: true };
  if (typeof index === "number" && Number.isInteger(index) && index >= 0) return { index };
  throw new MediaEditError(400, `The thumb is missing or malformed: ${THUMB_USAGE}`);
}

/**
 * Selects the thumb of a video version: a still the still-creation job made
 * (409 while it has not, 422 for an index it did not make), or the custom
 * still (409 without one).
 */
export async function selectThumb(db: Db, media: MediaRow, jobs: JobRow[], thumb: Thumb): Promise<MediaRow> {
  if (media.kind !== "video") throw new MediaEditError(404, "No such media");
  if ("isCustom" in thumb) {
    if (!media.details.customStillKey) {
      throw new MediaEditError(409, `This video has no custom still yet: upload one first (POST /api/v1/media/${media.contentId}/still).`);
    }
  } else {
    const stills = media.details.stillKeys ?? [];
    if (!stills.length) {
      const job = jobs.find((candidate) => candidate.name === "still-creation");
      throw new MediaEditError(
        409,
        job?.status === "failed"
          ? "Error getting stills from video: there are no stills to choose from; upload the video again or a custom still."
          : "The stills of this video are not ready yet: choose a thumbnail when the video has been processed.",
      );
    }
    if (thumb.index >= stills.length) {
      throw new MediaEditError(422, `There is no still ${thumb.index}: this video has ${stills.length} stills, numbered 0 to ${stills.length - 1}.`);
    }
  }
  const updated = await setThumb(db, media.id, thumb);
  if (!updated) throw new MediaEditError(404, "No such media");
  return updated;
}

export interface CustomStill {
  media: MediaRow;
  width: number;
  height: number;
  /** Spec §5: smaller than the video's resolution asks 'Incorrect Size' in the browser. */
  smallerThanVideo: boolean;
}

/**
 * Checks an uploaded custom still (not empty, jpeg/png/webp by content, a
 * readable image within the pixel limit), moves it into the store next to
 * the video's stills and records it on the video version, replacing (and
 * deleting) an earlier one. The selected thumb is not changed: PUT …/thumb
 * {thumb: {isCustom: true}} selects it. The temporary file is gone either way.
 */
export async function acceptCustomStill(media: MediaRow, file: UploadedFile, deps: { db: Db; storage: MediaStorage }): Promise<CustomStill> {
  let committedKey: string | undefined;
  try {
    if (file.size === 0) throw new MediaEditError(400, "The file is empty.");
    if (file.size > MAX_CUSTOM_STILL_BYTES) throw new MediaEditError(413, `The file is too large (${formatBytes(file.size)}): the maximum is ${formatBytes(MAX_CUSTOM_STILL_BYTES)}.`);
    let ext: string;
    try {
      ({ ext } = await sniffType(file.temporaryPath, "image", file.originalFilename));
    } catch (error) {
      if (error instanceof UnsupportedType) throw new MediaEditError(415, CUSTOM_STILL_TYPE_MESSAGE);
      throw error;
    }
    if (!(CUSTOM_STILL_EXTENSIONS as readonly string[]).includes(ext)) throw new MediaEditError(415, CUSTOM_STILL_TYPE_MESSAGE);
    const { width, height } = await stillSize(file.temporaryPath);
    committedKey = deps.storage.newKey(ext);
    await deps.storage.commit(file.temporaryPath, committedKey);
    const recorded = await setCustomStill(deps.db, media.id, { key: committedKey, width, height });
    if (!recorded) throw new MediaEditError(404, "No such media");
    if (recorded.previousKey && recorded.previousKey !== committedKey) await deps.storage.removeKey(recorded.previousKey).catch(() => undefined);
    const smallerThanVideo = Boolean(media.width && media.height && (width < media.width || height < media.height));
    return { media: recorded.media, width, height, smallerThanVideo };
  } catch (error) {
    await deps.storage.remove(file.temporaryPath);
    if (committedKey) await deps.storage.removeKey(committedKey).catch(() => undefined);
    throw error;
  }
}

async function stillSize(path: string): Promise<{ width: number; height: number }> {
  try {
    return await readImageSize(path, "still");
  } catch (error) {
    if (error instanceof ImageHeaderError) throw new MediaEditError(422, error.message);
    throw error;
  }
}

/** Spec §3 still URLs of a video content. */
export function customStillUrl(media: Pick<MediaRow, "contentId" | "details">): string | null {
  const key = media.details.customStillKey;
  // The key's start changes with every new custom still, so a cached image is never shown for a replaced one.
  return key ? `/api/v1/still/${media.contentId}/custom?v=${key.slice(0, 8)}` : null;
}
