import { imageDimensionErrors, mediaBounds, videoErrors, type MediaBounds, type MediaKind } from "../../core/media/bounds";
import type { MediaDetails } from "./store";
import type { FfmpegTools } from "./ffmpeg";
import { ProbeFailed, probeVideo } from "./ffmpeg";
import { ImageHeaderError, readImageSize } from "./image-header";
import { sniffType, UnsupportedType } from "./sniff";
import { formatSizes, UploadError, type UploadedFile } from "./upload";
import { refusal } from "../web/http-error";

export { MAX_IMAGE_PIXELS } from "./image-header";

/** What the checks learned about an uploaded file: everything its media row needs but the storage key. */
export interface MediaFacts {
  kind: MediaKind;
  originalFilename: string;
  mimetype: string;
  /** Extension of the detected type: the stored file's. */
  ext: string;
  size: number;
  width: number | null;
  height: number | null;
  details: MediaDetails;
}

/**
 * The checks of an upload that only read it: size, type by content, the
 * image header or ffprobe, and the bounds of the field's schema property.
 * Refusals are UploadErrors with the message shown under the field; the file
 * stays where it is, whatever the outcome (the caller moves or removes it).
 */
export async function checkUpload(
  input: { kind: MediaKind; file: UploadedFile; property: Record<string, unknown> },
  ffmpeg: FfmpegTools | null,
): Promise<MediaFacts> {
  const { kind, file } = input;
  const bounds = mediaBounds(kind, input.property);
  try {
    checkSize(file.size, bounds);
    const type = await sniffType(file.temporaryPath, kind, file.originalFilename, bounds.allowedFiles);
    const facts = kind === "image" ? await imageFacts(file.temporaryPath, bounds) : kind === "video" ? await videoFacts(file.temporaryPath, bounds, ffmpeg) : {};
    return { kind, originalFilename: file.originalFilename, mimetype: type.mimetype, ext: type.ext, size: file.size, width: null, height: null, details: {}, ...facts };
  } catch (error) {
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
  let size: { width: number; height: number };
  try {
    size = await readImageSize(path, "image");
  } catch (error) {
    if (error instanceof ImageHeaderError) throw new UploadError(422, error.message);
    throw error;
  }
  const errors = imageDimensionErrors(size, bounds);
  if (errors.length) throw refusal(422, errors);
  return size;
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
