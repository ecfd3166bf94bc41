import { stat } from "node:fs/promises";
import type { Sharp } from "sharp";
import { cropBounds, type CropBounds } from "../../core/media/bounds";
import type { Db } from "../db/client";
import { insertMedia, mediaVersion, type CropCoordinates, type MediaRow } from "./store";
import { MAX_IMAGE_PIXELS } from "./accept";
import type { MediaStorage } from "./storage";
import { MediaEditError } from "./edit-error";
import { cropAllowed, resolveMediaProperty } from "./field-property";

export const CROP_USAGE = "send {coordinates: {x, y, width, height}} in pixels of the original image.";

/**
 * The crop request's coordinates (spec §3 crop request): numbers in pixels of
 * the original (uncropped, EXIF-oriented) image. Fractions, as croppers send
 * them, are rounded by edge, so that the rounded area never grows past the
 * one asked for. Anything else is malformed (400).
 */
export function parseCoordinates(body: Record<string, unknown>): CropCoordinates {
  const raw = body.coordinates;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new MediaEditError(400, `The crop coordinates are missing: ${CROP_USAGE}`);
  const value = raw as Record<string, unknown>;
  const numbers: Record<string, number> = {};
  for (const name of ["x", "y", "width", "height"] as const) {
    const number = value[name];
    if (typeof number !== "number" || !Number.isFinite(number)) {
      throw new MediaEditError(400, `The crop coordinate '${name}' must be a number: ${CROP_USAGE}`);
    }
    numbers[name] = number;
  }
  const left = Math.round(numbers.x!);
  const top = Math.round(numbers.y!);
  return { x: left, y: top, width: Math.round(numbers.x! + numbers.width!) - left, height: Math.round(numbers.y! + numbers.height!) - top };
}

/** Crop size against the property's minWidthCrop/maxWidthCrop/minHeightCrop/maxHeightCrop, worded like spec §5's image messages. */
export function cropSizeErrors(size: { width: number; height: number }, bounds: CropBounds): string[] {
  const { width, height } = size;
  const errors: string[] = [];
  if (bounds.maxWidth !== undefined && width > bounds.maxWidth) errors.push(`Crop is too wide (${width}px), maximum crop width: ${bounds.maxWidth}px`);
  if (bounds.maxHeight !== undefined && height > bounds.maxHeight) errors.push(`Crop is too high (${height}px), maximum crop height: ${bounds.maxHeight}px`);
  if (bounds.minWidth !== undefined && width < bounds.minWidth) errors.push(`Crop is too narrow (${width}px), minimum crop width: ${bounds.minWidth}px`);
  if (bounds.minHeight !== undefined && height < bounds.minHeight) errors.push(`Crop is not high enough (${height}px), minimum crop height: ${bounds.minHeight}px`);
  return errors;
}

/**
 * The crop bounds of the bucket's image field the request names (`properties`, as uploads send it; see
 * field-property.ts): only a field with enableCrop or forceCrop may be cropped (403).
 */
export function cropBoundsFor(properties: unknown, jsonSchema: unknown): CropBounds {
  const property = resolveMediaProperty(jsonSchema, "image", properties);
  if (!cropAllowed(property)) throw new MediaEditError(403, "This image field does not allow cropping: its schema property has no enableCrop.");
  return definedOnly(cropBounds(property));
}

function definedOnly(bounds: CropBounds): CropBounds {
  return Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined)) as CropBounds;
}

/** The crop is written in the original's format (by its stored extension). */
const OUTPUT_FORMATS: Record<string, (image: Sharp) => Sharp> = {
  jpg: (image) => image.jpeg({ quality: 90 }),
  png: (image) => image.png(),
  webp: (image) => image.webp({ quality: 90 }),
  gif: (image) => image.gif(),
  avif: (image) => image.avif(),
  tif: (image) => image.tiff(),
};

export interface CropDeps {
  db: Db;
  storage: MediaStorage;
}

/**
 * A new version of an image (same contentId, new _id): the area `coordinates`
 * of the ORIGINAL version (a recrop starts from it, never from a crop), in the
 * original's format, with originalImageVersionId and the coordinates
 * recorded. Written under a temporary name and renamed into the store.
 */
export async function cropImage(
  input: { source: MediaRow; coordinates: CropCoordinates; bounds: CropBounds; userId: string },
  deps: CropDeps,
): Promise<MediaRow> {
  const { source, coordinates } = input;
  if (source.kind !== "image") throw new MediaEditError(404, "No such media");
  const original = source.originalImageVersionId ? await mediaVersion(deps.db, source.originalImageVersionId) : source;
  if (!original || original.contentId !== source.contentId) throw new MediaEditError(409, "The original version of this image is missing: upload the image again.");
  const imageWidth = original.width ?? 0;
  const imageHeight = original.height ?? 0;
  const { x, y, width, height } = coordinates;
  if (width <= 0 || height <= 0) throw new MediaEditError(422, `The crop area is empty (${width}×${height}px): choose an area of at least 1×1px.`);
  if (x < 0 || y < 0 || x + width > imageWidth || y + height > imageHeight) {
    throw new MediaEditError(
      422,
      `The crop area (${width}×${height}px at ${x},${y}) lies outside the image: it must fit within ${imageWidth}×${imageHeight}px.`,
    );
  }
  const errors = cropSizeErrors({ width, height }, input.bounds);
  if (errors.length) throw new MediaEditError(422, errors.join("\n"));

  const ext = original.storageKey.slice(original.storageKey.lastIndexOf(".") + 1);
  const encode = OUTPUT_FORMATS[ext] ?? OUTPUT_FORMATS.png!;
  const temporaryPath = deps.storage.temporaryPath(ext);
  let committedKey: string | undefined;
  try {
    // Loaded on the first crop, not at start (sharp's native library costs the cold start).
    const { default: sharp } = await import("sharp");
    // autoOrient: the coordinates are in the image as shown (accept.ts measures it EXIF-rotated too).
    await encode(
      sharp(deps.storage.pathOf(original.storageKey), { autoOrient: true, limitInputPixels: MAX_IMAGE_PIXELS }).extract({ left: x, top: y, width, height }),
    ).toFile(temporaryPath);
    const { size } = await stat(temporaryPath);
    committedKey = deps.storage.newKey(ext);
    await deps.storage.commit(temporaryPath, committedKey);
    return await deps.db.transaction((tx) =>
      insertMedia(tx, {
        contentId: original.contentId,
        kind: "image",
        bucketId: original.bucketId,
        storageKey: committedKey!,
        originalFilename: original.originalFilename,
        mimetype: original.mimetype,
        size,
        width,
        height,
        details: { crop: { x, y, width, height } },
        originalImageVersionId: original.id,
        createdBy: input.userId,
      }),
    );
  } catch (error) {
    await deps.storage.remove(temporaryPath);
    if (committedKey) await deps.storage.removeKey(committedKey).catch(() => undefined);
    throw error;
  }
}
