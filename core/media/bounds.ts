import type { Message } from "@core/messages";
import { NAMED_RESOLUTIONS, parseDimension } from "./dimension";

/**
 * Media bounds of a schema property (spec §3, §5, §9), shared by the upload
 * checks on the server and the requirements footnote in the browser.
 */

export type MediaKind = "image" | "video" | "file";

/** Spec §9 size limits in bytes. */
export const MIN_FILE_BYTES = 1024;
export const MAX_IMAGE_BYTES = 41_943_040;
export const MAX_VIDEO_BYTES = 1_073_741_824;
/** Files without a maxFilesize get the video ceiling: the largest upload we accept at all. */
export const MAX_FILE_BYTES = MAX_VIDEO_BYTES;

/** A byte count as people read it: 4.88 kB, 40 MB, 1 GB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(2)} GB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(2)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(2)} kB`;
  return `${bytes} bytes`;
}

/** A size and the limit it broke, in units that show the difference (exact bytes when rounding would hide it). */
export function formatSizes(size: number, limit: number): [string, string] {
  const [a, b] = [formatBytes(size), formatBytes(limit)];
  return a === b ? [`${size} bytes`, `${limit} bytes`] : [a, b];
}

/** The one wording of a file over its limit, wherever it is found (browser, stream, check). */
export const tooLargeMessage = (maxBytes: number): Message => ({ key: "media.file.tooLarge", params: { maximum: formatBytes(maxBytes) } });

export interface MediaBounds {
  minWidth?: number;
  maxWidth?: number;
  minHeight?: number;
  maxHeight?: number;
  minFps?: number;
  maxFps?: number;
  codec?: string;
  encoding?: string;
  allowedFiles?: string[];
  minBytes: number;
  maxBytes: number;
}

export interface CropBounds {
  minWidth?: number;
  maxWidth?: number;
  minHeight?: number;
  maxHeight?: number;
}

const positiveNumber = (value: unknown): number | undefined => {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) && number > 0 ? number : undefined;
};

const extensionList = (value: unknown): string[] | undefined => {
  const list = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : undefined;
  const cleaned = list?.map((item) => String(item).trim().replace(/^\./, "").toLowerCase()).filter(Boolean);
  return cleaned && cleaned.length ? cleaned : undefined;
};

/** The bounds a property asks for, with the spec's defaults per kind. */
export function mediaBounds(kind: MediaKind, property: Record<string, unknown>): MediaBounds {
  const dimension = (key: string, axis: "width" | "height") => parseDimension(property[key], axis);
  const bounds: MediaBounds = {
    minWidth: dimension("minWidth", "width"),
    maxWidth: dimension("maxWidth", "width"),
    minHeight: dimension("minHeight", "height"),
    maxHeight: dimension("maxHeight", "height"),
    allowedFiles: extensionList(property.allowedFiles),
    minBytes: MIN_FILE_BYTES,
    maxBytes: kind === "image" ? MAX_IMAGE_BYTES : kind === "video" ? MAX_VIDEO_BYTES : MAX_FILE_BYTES,
  };
  const noDimensions = [bounds.minWidth, bounds.maxWidth, bounds.minHeight, bounds.maxHeight].every((v) => v === undefined);
  if (kind === "image" && noDimensions) {
    bounds.minWidth = NAMED_RESOLUTIONS.HD.width;
    bounds.minHeight = NAMED_RESOLUTIONS.HD.height;
  }
  if (kind === "video") {
    if (bounds.minWidth === undefined && bounds.minHeight === undefined) {
      bounds.minWidth = NAMED_RESOLUTIONS["720p"].width;
      bounds.minHeight = NAMED_RESOLUTIONS["720p"].height;
    }
    if (bounds.maxWidth === undefined && bounds.maxHeight === undefined) {
      bounds.maxWidth = NAMED_RESOLUTIONS["4K"].width;
      bounds.maxHeight = NAMED_RESOLUTIONS["4K"].height;
    }
    bounds.minFps = positiveNumber(property.minFps);
    bounds.maxFps = positiveNumber(property.maxFps);
    if (typeof property.codec === "string" && property.codec.trim()) bounds.codec = property.codec.trim();
    if (typeof property.encoding === "string" && property.encoding.trim()) bounds.encoding = property.encoding.trim();
  }
  if (kind === "file") {
    bounds.minBytes = Math.max(MIN_FILE_BYTES, positiveNumber(property.minFilesize) ?? MIN_FILE_BYTES);
    bounds.maxBytes = Math.min(MAX_FILE_BYTES, positiveNumber(property.maxFilesize) ?? MAX_FILE_BYTES);
  }
  return bounds;
}

/**
 * The bounds a crop of an image field must keep: its minWidthCrop, maxWidthCrop, minHeightCrop and
 * maxHeightCrop; a field that gives none of them keeps the image bounds it writes (minWidth, maxWidth,
 * minHeight, maxHeight: a crop never makes an image the field would refuse as an upload). The upload's
 * default minimum (HD) is not a crop bound: a field without any bounds crops freely. The cropper (browser),
 * the no-JavaScript crop inputs and the crop call (server) all hold to these.
 */
export function cropBounds(property: Record<string, unknown>): CropBounds {
  const own: CropBounds = {
    minWidth: parseDimension(property.minWidthCrop, "width"),
    maxWidth: parseDimension(property.maxWidthCrop, "width"),
    minHeight: parseDimension(property.minHeightCrop, "height"),
    maxHeight: parseDimension(property.maxHeightCrop, "height"),
  };
  if (Object.values(own).some((value) => value !== undefined)) return own;
  return {
    minWidth: parseDimension(property.minWidth, "width"),
    maxWidth: parseDimension(property.maxWidth, "width"),
    minHeight: parseDimension(property.minHeight, "height"),
    maxHeight: parseDimension(property.maxHeight, "height"),
  };
}

/** A crop's size against its bounds, worded like spec §5's image messages (crop wording). */
export function cropSizeErrors(size: { width: number; height: number }, bounds: CropBounds): Message[] {
  const { width, height } = size;
  const errors: Message[] = [];
  if (bounds.maxWidth !== undefined && width > bounds.maxWidth)
    errors.push({ key: "media.crop.tooWide", params: { width, limit: bounds.maxWidth } });
  if (bounds.maxHeight !== undefined && height > bounds.maxHeight)
    errors.push({ key: "media.crop.tooHigh", params: { height, limit: bounds.maxHeight } });
  if (bounds.minWidth !== undefined && width < bounds.minWidth)
    errors.push({ key: "media.crop.tooNarrow", params: { width, limit: bounds.minWidth } });
  if (bounds.minHeight !== undefined && height < bounds.minHeight)
    errors.push({ key: "media.crop.notHighEnough", params: { height, limit: bounds.minHeight } });
  return errors;
}

/** Spec §5 image messages (their English is the spec's wording). */
export function imageDimensionErrors(size: { width: number; height: number }, bounds: CropBounds): Message[] {
  const { width, height } = size;
  const errors: Message[] = [];
  if (bounds.maxWidth !== undefined && width > bounds.maxWidth)
    errors.push({ key: "media.bounds.imageTooWide", params: { width, limit: bounds.maxWidth } });
  if (bounds.maxHeight !== undefined && height > bounds.maxHeight)
    errors.push({ key: "media.bounds.imageTooHigh", params: { height, limit: bounds.maxHeight } });
  if (bounds.minWidth !== undefined && width < bounds.minWidth)
    errors.push({ key: "media.bounds.imageTooNarrow", params: { width, limit: bounds.minWidth } });
  if (bounds.minHeight !== undefined && height < bounds.minHeight)
    errors.push({ key: "media.bounds.imageNotHighEnough", params: { height, limit: bounds.minHeight } });
  return errors;
}

export interface VideoFacts {
  width: number;
  height: number;
  fps: number;
  codec: string;
}

/**
 * Spec §5 video messages. The minimum-width, framerate and codec wording is the
 * spec's, misspellings included; the spec leaves the other three open.
 */
export function videoErrors(video: VideoFacts, bounds: MediaBounds): Message[] {
  const errors: Message[] = [];
  if (bounds.minWidth !== undefined && video.width < bounds.minWidth)
    errors.push({ key: "media.bounds.videoTooNarrow", params: { limit: bounds.minWidth } });
  if (bounds.maxWidth !== undefined && video.width > bounds.maxWidth)
    errors.push({ key: "media.bounds.videoTooWide", params: { limit: bounds.maxWidth } });
  if (bounds.minHeight !== undefined && video.height < bounds.minHeight)
    errors.push({ key: "media.bounds.videoNotHighEnough", params: { limit: bounds.minHeight } });
  if (bounds.maxHeight !== undefined && video.height > bounds.maxHeight)
    errors.push({ key: "media.bounds.videoTooHigh", params: { limit: bounds.maxHeight } });
  const { minFps, maxFps } = bounds;
  if (minFps !== undefined || maxFps !== undefined) {
    const low = minFps ?? 0;
    const high = maxFps ?? Number.POSITIVE_INFINITY;
    // Broadcast rates such as 29.97 count as 30 when asked for 30.
    const fps = Math.round(video.fps * 100) / 100;
    if (fps < low - 0.05 || fps > high + 0.05) {
      errors.push(
        minFps !== undefined && minFps === maxFps
          ? { key: "media.bounds.fpsNot", params: { fps: minFps } }
          : { key: "media.bounds.fpsNotBetween", params: { min: low, max: maxFps ?? "∞" } },
      );
    }
  }
  if (bounds.codec && normalizeCodec(video.codec) !== normalizeCodec(bounds.codec))
    errors.push({ key: "media.bounds.codec", params: { codec: bounds.codec } });
  return errors;
}

/** h264, H.264, avc and avc1 name one codec; so do hevc, h265 and H.265. */
export function normalizeCodec(codec: string): string {
  const name = codec.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (name === "h264" || name === "avc" || name === "avc1") return "h264";
  if (name === "h265" || name === "hevc" || name === "hvc1") return "hevc";
  return name;
}

/** Lines of the requirements footnote under a media field (spec §5). */
export function requirementLines(kind: MediaKind, bounds: MediaBounds): Message[] {
  const lines: Message[] = [];
  const range = (axis: "width" | "height" | "fps", min?: number, max?: number): Message | null =>
    min !== undefined && max !== undefined
      ? { key: `media.requirements.${axis}Range`, params: { min, max } }
      : min !== undefined
        ? { key: `media.requirements.${axis}Min`, params: { min } }
        : max !== undefined
          ? { key: `media.requirements.${axis}Max`, params: { max } }
          : null;
  if (kind !== "file") {
    const resolution = Object.entries(NAMED_RESOLUTIONS).find(([, r]) => r.width === bounds.minWidth && r.height === bounds.minHeight);
    if (resolution)
      lines.push({
        key: "media.requirements.resolution",
        params: { name: resolution[0], width: resolution[1].width, height: resolution[1].height },
      });
    for (const line of [range("width", bounds.minWidth, bounds.maxWidth), range("height", bounds.minHeight, bounds.maxHeight)])
      if (line) lines.push(line);
  }
  if (bounds.encoding) lines.push({ key: "media.requirements.encoding", params: { encoding: bounds.encoding } });
  if (bounds.codec) lines.push({ key: "media.requirements.codec", params: { codec: bounds.codec } });
  const fps = range("fps", bounds.minFps, bounds.maxFps);
  if (fps) lines.push(fps);
  if (bounds.allowedFiles) lines.push({ key: "media.requirements.allowedFiles", params: { files: bounds.allowedFiles.join(", ") } });
  return lines;
}
