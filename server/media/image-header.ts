import type { Metadata } from "sharp";
import { HttpError } from "@server/errors";

/** Images beyond this many pixels are refused from their header, before decoding (decompression bombs). */
export const MAX_IMAGE_PIXELS = 100_000_000;

/**
 * The size an image is shown at, from its header only: EXIF orientations 5–8
 * swap width and height. A bomb is measured without being decoded, and
 * refused over MAX_IMAGE_PIXELS. Uploads and custom stills both read it here.
 */
export async function readImageSize(path: string, noun: "image" | "still"): Promise<{ width: number; height: number }> {
  let metadata: Metadata;
  try {
    // Loaded on the first image, not at start: sharp's native library costs the cold start ~150 ms.
    const { default: sharp } = await import("sharp");
    metadata = await sharp(path, { limitInputPixels: false }).metadata();
  } catch {
    throw new HttpError(422, "mediaChecks.file.damaged", { noun: { key: `media.nouns.${noun}` } });
  }
  const rotated = (metadata.orientation ?? 1) >= 5;
  const width = rotated ? metadata.height : metadata.width;
  const height = rotated ? metadata.width : metadata.height;
  if (!width || !height) throw new HttpError(422, "mediaChecks.file.noDimensions", { noun: { key: `media.nouns.${noun}` } });
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new HttpError(422, "mediaChecks.file.tooManyPixels", {
      noun: { key: `media.nouns.${noun}` },
      width,
      height,
      limit: MAX_IMAGE_PIXELS / 1_000_000,
    });
  }
  return { width, height };
}
