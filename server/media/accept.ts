import type { Metadata } from "sharp";
import { imageDimensionErrors, mediaBounds, videoErrors, type MediaBounds, type MediaKind } from "../../core/media/bounds";
import type { Db } from "../db/client";
import { insertMedia, type JobName, type MediaRow } from "./store";
import type { FfmpegTools } from "./ffmpeg";
import { ProbeFailed, probeVideo } from "./ffmpeg";
import { sniffType, UnsupportedType } from "./sniff";
import type { MediaStorage } from "./storage";
import { formatSizes, UploadError, type UploadedFile } from "./upload";
import { refusal } from "../web/http-error";

/** Images beyond this many pixels are refused from their header, before decoding (decompression bombs). */
export const MAX_IMAGE_PIXELS = 100_000_000;

export interface AcceptInput {
  kind: MediaKind;
  file: UploadedFile;
  property: Record<string, unknown>;
  bucketId: string;
  userId: string;
  /** A new version of an existing media content. */
  contentId?: string;
}

export interface AcceptDeps {
  db: Db;
  storage: MediaStorage;
  ffmpeg: FfmpegTools | null;
}

/**
 * Checks an uploaded temporary file (size, type by content, dimensions and
 * the property's bounds), moves it into the store and records the media
 * version with its jobs. The temporary file is gone afterwards either way.
 */
export async function acceptUpload(input: AcceptInput, deps: AcceptDeps): Promise<MediaRow> {
  const { kind, file } = input;
  const bounds = mediaBounds(kind, input.property);
  let committedKey: string | undefined;
  try {
    checkSize(file.size, bounds);
    const type = await sniffType(file.temporaryPath, kind, file.originalFilename, bounds.allowedFiles);
    const facts = kind === "image" ? await imageFacts(file.temporaryPath, bounds) : kind === "video" ? await videoFacts(file.temporaryPath, bounds, deps.ffmpeg) : {};
    const jobs: JobName[] = kind === "video" ? ["transcode", "still-creation"] : [];
    committedKey = deps.storage.newKey(type.ext);
    await deps.storage.commit(file.temporaryPath, committedKey);
    return await deps.db.transaction((tx) =>
      insertMedia(
        tx,
        {
          contentId: input.contentId,
          kind,
          bucketId: input.bucketId,
          storageKey: committedKey!,
          originalFilename: file.originalFilename,
          mimetype: type.mimetype,
          size: file.size,
          ...facts,
          createdBy: input.userId,
        },
        jobs,
      ),
    );
  } catch (error) {
    await deps.storage.remove(file.temporaryPath);
    if (committedKey) await deps.storage.removeKey(committedKey).catch(() => undefined);
    if (error instanceof UnsupportedType) throw new UploadError(415, error.message);
    if (error instanceof ProbeFailed) throw new UploadError(422, error.message);
    throw error;
  }
}

function checkSize(size: number, bounds: MediaBounds): void {
  if (size === 0) throw new UploadError(400, "The file is empty.");
  if (size < bounds.minBytes) {
    const [actual, minimum] = formatSizes(size, bounds.minBytes);
    throw new UploadError(422, `The file is too small (${actual}): the minimum is ${minimum}.`);
  }
  if (size > bounds.maxBytes) {
    const [actual, maximum] = formatSizes(size, bounds.maxBytes);
    throw new UploadError(413, `The file is too large (${actual}): the maximum is ${maximum}.`);
  }
}

async function imageFacts(path: string, bounds: MediaBounds) {
  let metadata: Metadata;
  try {
    // Reads the header only, so a bomb is measured without being decoded; the limit below refuses it.
    // Loaded on the first image, not at start: sharp's native library costs the cold start ~150 ms.
    const { default: sharp } = await import("sharp");
    metadata = await sharp(path, { limitInputPixels: false }).metadata();
  } catch {
    throw new UploadError(422, "The image could not be read: the file is damaged.");
  }
  const rotated = (metadata.orientation ?? 1) >= 5;
  const width = (rotated ? metadata.height : metadata.width) ?? 0;
  const height = (rotated ? metadata.width : metadata.height) ?? 0;
  if (!width || !height) throw new UploadError(422, "The image could not be read: it has no dimensions.");
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new UploadError(422, `The image has too many pixels (${width}×${height}); the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`);
  }
  const errors = imageDimensionErrors({ width, height }, bounds);
  if (errors.length) throw refusal(422, errors);
  return { width, height };
}

async function videoFacts(path: string, bounds: MediaBounds, ffmpeg: FfmpegTools | null) {
  if (!ffmpeg) throw new UploadError(422, "Video processing is unavailable on this server: ffmpeg was not found.");
  const video = await probeVideo(ffmpeg, path);
  const errors = videoErrors(video, bounds);
  if (errors.length) throw refusal(422, errors);
  return {
    width: video.width,
    height: video.height,
    details: { fps: Math.round(video.fps * 1000) / 1000, codec: video.codec, duration: video.duration, hasAudio: video.hasAudio },
  };
}
