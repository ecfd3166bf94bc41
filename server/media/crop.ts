import { stat } from "node:fs/promises";
import type { Sharp } from "sharp";
import { cropBounds, cropSizeErrors, type CropBounds } from "@core/media/bounds";
import type { Db } from "@server/db/client";
import { insertMedia, mediaVersion, type CropCoordinates, type MediaRow } from "./store";
import { MAX_IMAGE_PIXELS } from "./accept";
import type { MediaStorage } from "./storage";
import { HttpError, refusal } from "@server/errors";
import { isUuid } from "@core/ids";
import { cropAllowed, resolveMediaProperty } from "./field-property";
import { insertUseItem, sharedItemOf, usedBeyond } from "./use-items";

/**
 * The crop request's coordinates (spec §3 crop request): numbers in pixels of
 * the original (uncropped, EXIF-oriented) image. Fractions, as croppers send
 * them, are rounded by edge, so that the rounded area never grows past the
 * one asked for. Anything else is malformed (400).
 */
/** What a crop call sends (in its refusals). */
export const CROP_USAGE = { key: "api.usage.crop" } as const;

export function parseCoordinates(body: Record<string, unknown>): CropCoordinates {
  const raw = body.coordinates;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new HttpError(400, "cropApi.missing", { usage: CROP_USAGE });
  const value = raw as Record<string, unknown>;
  const coordinate = (name: keyof CropCoordinates): number => {
    const number = value[name];
    if (typeof number !== "number" || !Number.isFinite(number)) {
      throw new HttpError(400, "cropApi.notANumber", { name, usage: CROP_USAGE });
    }
    return number;
  };
  const x = coordinate("x");
  const y = coordinate("y");
  const width = coordinate("width");
  const height = coordinate("height");
  const left = Math.round(x);
  const top = Math.round(y);
  return { x: left, y: top, width: Math.round(x + width) - left, height: Math.round(y + height) - top };
}

/** Whose crop it is (a field sends `document`: its document's contentId, null for a new one); none: the item's. */
export function cropUse(body: Record<string, unknown>): { documentId: string | null } | undefined {
  if (!("document" in body)) return undefined;
  const { document } = body;
  if (document === null) return { documentId: null };
  if (typeof document === "string" && isUuid(document)) return { documentId: document.toLowerCase() };
  throw new HttpError(400, "library.useItem.badDocument", { usage: CROP_USAGE });
}

/**
 * The crop bounds of the bucket's image field the request names (`properties`, as uploads send it; see
 * field-property.ts): only a field with enableCrop or forceCrop may be cropped (403).
 */
export function cropBoundsFor(properties: unknown, jsonSchema: unknown): CropBounds {
  const property = resolveMediaProperty(jsonSchema, "image", properties);
  if (!cropAllowed(property)) throw new HttpError(403, "media.crop.notAllowed");
  return definedOnly(cropBounds(property));
}

function definedOnly(bounds: CropBounds): CropBounds {
  return Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined));
}

const encodePng = (image: Sharp) => image.png();

/** The crop is written in the original's format (by its stored extension). */
const OUTPUT_FORMATS: Record<string, (image: Sharp) => Sharp> = {
  jpg: (image) => image.jpeg({ quality: 90 }),
  png: encodePng,
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
 * recorded. Written to a temporary file and put into the store.
 *
 * `use`: the crop is one document's (`documentId`, null for a document not saved yet), as a field crops. A library
 * item another document uses is not changed then: the crop becomes a use item of it (use-items.ts), a new contentId
 * whose original is the shared item's. Without `use` (the API as the spec has it) the item itself gets the crop.
 */
export async function cropImage(
  input: { source: MediaRow; coordinates: CropCoordinates; bounds: CropBounds; userId: string; use?: { documentId: string | null } },
  deps: CropDeps,
): Promise<MediaRow> {
  const { source, coordinates } = input;
  if (source.kind !== "image") throw new HttpError(404, "media.noSuchMedia");
  const sharedId = await sharedItemOf(deps.db, source.contentId);
  const original = source.originalImageVersionId ? await mediaVersion(deps.db, source.originalImageVersionId) : source;
  if (!original || (original.contentId !== source.contentId && original.contentId !== sharedId)) {
    throw new HttpError(409, "cropApi.originalMissing");
  }
  const ownUse = !sharedId && input.use !== undefined && (await usedBeyond(deps.db, source.contentId, input.use.documentId));
  const imageWidth = original.width ?? 0;
  const imageHeight = original.height ?? 0;
  const { x, y, width, height } = coordinates;
  if (width <= 0 || height <= 0) throw new HttpError(422, "cropApi.empty", { width, height });
  if (x < 0 || y < 0 || x + width > imageWidth || y + height > imageHeight) {
    throw new HttpError(422, "cropApi.outside", { width, height, x, y, imageWidth, imageHeight });
  }
  const sizeErrors = cropSizeErrors({ width, height }, input.bounds);
  if (sizeErrors.length) throw refusal(422, sizeErrors);

  const ext = original.storageKey.slice(original.storageKey.lastIndexOf(".") + 1);
  const encode = OUTPUT_FORMATS[ext] ?? encodePng;
  const temporaryPath = deps.storage.temporaryPath(ext);
  let committedKey: string | undefined;
  const originalFile = await deps.storage.localCopy(original.storageKey);
  try {
    // Loaded on the first crop, not at start (sharp's native library costs the cold start).
    const { default: sharp } = await import("sharp");
    // autoOrient: the coordinates are in the image as shown (accept.ts measures it EXIF-rotated too).
    await encode(
      sharp(originalFile.path, { autoOrient: true, limitInputPixels: MAX_IMAGE_PIXELS }).extract({
        left: x,
        top: y,
        width,
        height,
      }),
    ).toFile(temporaryPath);
    const { size } = await stat(temporaryPath);
    const storageKey = deps.storage.newKey(ext);
    committedKey = storageKey;
    await deps.storage.commit(temporaryPath, storageKey);
    const version = {
      kind: "image" as const,
      bucketId: original.bucketId,
      storageKey,
      originalFilename: original.originalFilename,
      mimetype: original.mimetype,
      size,
      width,
      height,
      details: { crop: { x, y, width, height } },
      originalImageVersionId: original.id,
      createdBy: input.userId,
    };
    return await deps.db.transaction((tx) =>
      ownUse ? insertUseItem(tx, source.contentId, version) : insertMedia(tx, { ...version, contentId: source.contentId }),
    );
  } catch (error) {
    await deps.storage.remove(temporaryPath);
    if (committedKey) await deps.storage.removeKey(committedKey).catch(() => undefined);
    throw error;
  } finally {
    await originalFile.release();
  }
}
