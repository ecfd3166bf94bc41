import type { Message } from "@core/messages";
import { formatSizes, imageDimensionErrors, mediaBounds, tooLargeMessage, videoErrors, type MediaKind } from "./bounds";

/*
 * Whether a stored media item fits a field (docs/media.md, the library): the same bounds and the same messages as
 * an upload into that field, checked against what the upload measured. The library's picker says with these why an
 * item cannot be chosen, a choice is checked with them on save, and a replacement is checked against every field
 * that uses the item.
 */

export interface StoredMediaFacts {
  kind: MediaKind;
  size: number;
  width: number | null;
  height: number | null;
  fps?: number | null;
  codec?: string | null;
  /** The stored file's extension (from its type, not its name). */
  extension: string;
}

const ALIASES: Record<string, string> = { jpeg: "jpg", tiff: "tif", htm: "html", mpeg: "mpg" };
const canonicalExtension = (ext: string) => ALIASES[ext.toLowerCase()] ?? ext.toLowerCase();

/** Whether two extensions name one type (jpeg and jpg, tiff and tif, …). */
export const sameExtension = (a: string, b: string) => canonicalExtension(a) === canonicalExtension(b);

/** The field's messages for an item it would refuse; none when it fits. */
export function mediaFitErrors(kind: MediaKind, property: Record<string, unknown>, facts: StoredMediaFacts): Message[] {
  if (facts.kind !== kind) return [{ key: `library.notKind.${kind}` }];
  const bounds = mediaBounds(kind, property);
  const errors: Message[] = [];
  if (facts.size < bounds.minBytes) {
    const [size, minimum] = formatSizes(facts.size, bounds.minBytes);
    errors.push({ key: "media.file.tooSmall", params: { size, minimum } });
  }
  if (facts.size > bounds.maxBytes) errors.push(tooLargeMessage(bounds.maxBytes));
  if (bounds.allowedFiles && !bounds.allowedFiles.some((allowed) => sameExtension(allowed, facts.extension)))
    errors.push({ key: "media.file.typeNotAllowed", params: { type: facts.extension || "?", allowed: bounds.allowedFiles.join(", ") } });
  const size = facts.width && facts.height ? { width: facts.width, height: facts.height } : null;
  if (kind === "image" && size) errors.push(...imageDimensionErrors(size, bounds));
  if (kind === "video" && size) errors.push(...videoErrors({ ...size, fps: facts.fps ?? 0, codec: facts.codec ?? "" }, bounds));
  return errors;
}
