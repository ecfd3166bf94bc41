import type { Metadata } from "sharp";

/** Images beyond this many pixels are refused from their header, before decoding (decompression bombs). */
export const MAX_IMAGE_PIXELS = 100_000_000;

/** An image whose header cannot be used; the message names the file as the caller calls it ('image', 'still'). */
export class ImageHeaderError extends Error {}

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
    throw new ImageHeaderError(`The ${noun} could not be read: the file is damaged.`);
  }
  const rotated = (metadata.orientation ?? 1) >= 5;
  const width = (rotated ? metadata.height : metadata.width) ?? 0;
  const height = (rotated ? metadata.width : metadata.height) ?? 0;
  if (!width || !height) throw new ImageHeaderError(`The ${noun} could not be read: it has no dimensions.`);
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ImageHeaderError(`The ${noun} has too many pixels (${width}×${height}); the limit is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels.`);
  }
  return { width, height };
}
