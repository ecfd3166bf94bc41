import { MAX_IMAGE_BYTES } from "@core/media/bounds";
import type { Db } from "@server/db/client";
import { setCustomStill, setThumb, type JobRow, type MediaDetails, type MediaRow } from "./store";
import { readImageSize } from "./image-header";
import { sniffType } from "./sniff";
import type { MediaStorage } from "./storage";
import { fileTooLarge, type UploadedFile } from "./upload";
import { HttpError } from "@server/errors";

export type { Thumb } from "@core/media/wire";
type Thumb = NonNullable<MediaDetails["thumb"]>;

/** Spec §5: custom stills are jpeg, png or webp, decided by content. */
export const CUSTOM_STILL_EXTENSIONS = ["jpg", "png", "webp"] as const;
const customStillType = () => new HttpError(415, "mediaChecks.customStill.type");
/** A custom still is an image upload: the image ceiling applies. */
export const MAX_CUSTOM_STILL_BYTES = MAX_IMAGE_BYTES;

/** The thumb update request (spec §3): a still index, {index}, or {isCustom: true} (other keys, e.g. url, are ignored). */
export function parseThumb(body: Record<string, unknown>): Thumb {
  const value = body.thumb;
  const index = typeof value === "object" && value !== null && !Array.isArray(value) && "index" in value ? value.index : value;
  if (typeof value === "object" && value !== null && !Array.isArray(value) && (value as { isCustom?: unknown }).isCustom === true)
    return { isCustom: true };
  if (typeof index === "number" && Number.isInteger(index) && index >= 0) return { index };
  throw new HttpError(400, "mediaChecks.thumb.malformed", { usage: { key: "api.usage.thumb" } });
}

/**
 * Selects the thumb of a video version: a still the still-creation job made
 * (409 while it has not, 422 for an index it did not make), or the custom
 * still (409 without one).
 */
export async function selectThumb(db: Db, media: MediaRow, jobs: JobRow[], thumb: Thumb): Promise<MediaRow> {
  if (media.kind !== "video") throw new HttpError(404, "media.noSuchMedia");
  if ("isCustom" in thumb) {
    if (!media.details.customStillKey) {
      throw new HttpError(409, "mediaChecks.thumb.noCustomStill", { contentId: media.contentId });
    }
  } else {
    const stills = media.details.stillKeys ?? [];
    if (!stills.length) {
      const job = jobs.find((candidate) => candidate.name === "still-creation");
      throw new HttpError(409, job?.status === "failed" ? "mediaChecks.thumb.stillsFailed" : "mediaChecks.thumb.stillsNotReady");
    }
    if (thumb.index >= stills.length) {
      throw new HttpError(422, "mediaChecks.thumb.noSuchIndex", { index: thumb.index, count: stills.length, last: stills.length - 1 });
    }
  }
  const updated = await setThumb(db, media.id, thumb);
  if (!updated) throw new HttpError(404, "media.noSuchMedia");
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
export async function acceptCustomStill(
  media: MediaRow,
  file: UploadedFile,
  deps: { db: Db; storage: MediaStorage },
): Promise<CustomStill> {
  let committedKey: string | undefined;
  try {
    if (file.size === 0) throw new HttpError(400, "mediaChecks.file.empty");
    if (file.size > MAX_CUSTOM_STILL_BYTES) throw fileTooLarge(MAX_CUSTOM_STILL_BYTES);
    let ext: string;
    try {
      ({ ext } = await sniffType(file.temporaryPath, "image", file.originalFilename));
    } catch (error) {
      if (error instanceof HttpError && error.status === 415) throw customStillType();
      throw error;
    }
    if (!(CUSTOM_STILL_EXTENSIONS as readonly string[]).includes(ext)) throw customStillType();
    const { width, height } = await readImageSize(file.temporaryPath, "still");
    committedKey = deps.storage.newKey(ext);
    await deps.storage.commit(file.temporaryPath, committedKey);
    const recorded = await setCustomStill(deps.db, media.id, { key: committedKey, width, height });
    if (!recorded) throw new HttpError(404, "media.noSuchMedia");
    if (recorded.previousKey && recorded.previousKey !== committedKey)
      await deps.storage.removeKey(recorded.previousKey).catch(() => undefined);
    const smallerThanVideo = Boolean(media.width && media.height && (width < media.width || height < media.height));
    return { media: recorded.media, width, height, smallerThanVideo };
  } catch (error) {
    await deps.storage.remove(file.temporaryPath);
    if (committedKey) await deps.storage.removeKey(committedKey).catch(() => undefined);
    throw error;
  }
}

/** Spec §3 still URLs of a video content. */
export function customStillUrl(media: Pick<MediaRow, "contentId" | "details">): string | null {
  const key = media.details.customStillKey;
  // The key's start changes with every new custom still, so a cached image is never shown for a replaced one.
  return key ? `/api/v1/still/${media.contentId}/custom?v=${key.slice(0, 8)}` : null;
}

/** The storage key of a video's poster: its chosen still (custom or by index), else its first still; null without one. */
export function posterKey(media: Pick<MediaRow, "details">): string | null {
  const { thumb, stillKeys, customStillKey } = media.details;
  if (thumb) {
    const chosen = "isCustom" in thumb ? customStillKey : stillKeys?.[thumb.index];
    if (chosen) return chosen;
  }
  return stillKeys?.[0] ?? customStillKey ?? null;
}

/** The image type of a still by its storage key's extension. */
export function stillMimetype(key: string): string {
  const ext = key.slice(key.lastIndexOf("."));
  return ext === ".png" ? "image/png" : ext === ".webp" ? "image/webp" : "image/jpeg";
}
