import { formatSizes, imageDimensionErrors, mediaBounds, videoErrors, type MediaBounds, type MediaKind } from "@core/media/bounds";
import type { FileFacts } from "./store";
import type { FfmpegTools } from "./ffmpeg";
import { probeVideo } from "./ffmpeg";
import { readImageSize } from "./image-header";
import { sniffType } from "./sniff";
import { fileTooLarge, type UploadedFile } from "./upload";
import { HttpError, refusal } from "@server/errors";

export { MAX_IMAGE_PIXELS } from "./image-header";

/** What the checks learned about an uploaded file: everything its media row needs but the storage key. */
export interface MediaFacts extends FileFacts {
  /** Extension of the detected type: the stored file's. */
  ext: string;
}

/**
 * The checks of an upload that only read it: size, type by content, the
 * image header or ffprobe, and the bounds of the field's schema property.
 * Refusals are HttpErrors with the message shown under the field; the file
 * stays where it is, whatever the outcome (the caller moves or removes it).
 */
export async function checkUpload(
  input: { kind: MediaKind; file: UploadedFile; property: Record<string, unknown> },
  ffmpeg: FfmpegTools | null,
): Promise<MediaFacts> {
  const { kind, file } = input;
  const bounds = mediaBounds(kind, input.property);
  checkSize(file.size, bounds);
  const type = await sniffType(file.temporaryPath, kind, file.originalFilename, bounds.allowedFiles);
  const facts =
    kind === "image"
      ? await imageFacts(file.temporaryPath, bounds)
      : kind === "video"
        ? await videoFacts(file.temporaryPath, bounds, ffmpeg)
        : {};
  return {
    kind,
    originalFilename: file.originalFilename,
    mimetype: type.mimetype,
    ext: type.ext,
    size: file.size,
    width: null,
    height: null,
    details: {},
    ...facts,
  };
}

function checkSize(size: number, bounds: MediaBounds): void {
  if (size === 0) throw new HttpError(400, "mediaChecks.file.empty");
  if (size < bounds.minBytes) {
    const [actual, minimum] = formatSizes(size, bounds.minBytes);
    throw new HttpError(422, "media.file.tooSmall", { size: actual, minimum });
  }
  if (size > bounds.maxBytes) throw fileTooLarge(bounds.maxBytes);
}

async function imageFacts(path: string, bounds: MediaBounds) {
  const size = await readImageSize(path, "image");
  const errors = imageDimensionErrors(size, bounds);
  if (errors.length) throw refusal(422, errors);
  return size;
}

async function videoFacts(path: string, bounds: MediaBounds, ffmpeg: FfmpegTools | null) {
  if (!ffmpeg) throw new HttpError(422, "media.videoUnavailable");
  const video = await probeVideo(ffmpeg, path);
  const errors = videoErrors(video, bounds);
  if (errors.length) throw refusal(422, errors);
  return {
    width: video.width,
    height: video.height,
    details: { fps: Math.round(video.fps * 1000) / 1000, codec: video.codec, duration: video.duration, hasAudio: video.hasAudio },
  };
}
