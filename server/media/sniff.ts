import { open } from "node:fs/promises";
import { HttpError } from "@server/errors";
import type { MediaKind } from "@core/media/bounds";
import { sameExtension } from "@core/media/fit";

export interface SniffedType {
  /** Extension of the detected format, or of the name for plain text. */
  ext: string;
  mimetype: string;
}

/** Raster formats sharp decodes safely; SVG is left out on purpose (it can carry scripts). */
export const IMAGE_EXTENSIONS = new Set(["jpg", "png", "webp", "gif", "avif", "tif"]);
const TEXT_EXTENSIONS = new Set(["txt", "csv", "json", "md", "srt", "vtt", "xml", "svg", "html", "htm"]);

/** The file's type from its content (magic bytes), never from its name or the browser's mimetype. */
export async function sniffType(path: string, kind: MediaKind, originalName: string, allowedFiles?: string[]): Promise<SniffedType> {
  // Loaded on the first upload, not at start (it costs the cold start ~80 ms).
  const { fileTypeFromFile } = await import("file-type");
  const detected = await fileTypeFromFile(path);
  const nameExt = extensionOf(originalName);
  if (kind === "image") {
    if (!detected || !IMAGE_EXTENSIONS.has(detected.ext)) {
      throw new HttpError(415, "mediaChecks.file.notImage");
    }
  } else if (kind === "video") {
    if (!detected || !detected.mime.startsWith("video/")) {
      throw new HttpError(415, "mediaChecks.file.notVideo");
    }
  }
  const type = detected ? { ext: detected.ext, mimetype: detected.mime } : await textType(path, nameExt);
  if (allowedFiles && !allowedFiles.some((allowed) => sameExtension(allowed, type.ext))) {
    throw new HttpError(415, "media.file.typeNotAllowed", { type: type.ext || "?", allowed: allowedFiles.join(", ") });
  }
  return type;
}

/** Content no magic number names: accepted as text only when it is valid UTF-8 without NUL bytes. */
async function textType(path: string, nameExt: string): Promise<SniffedType> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const sample = buffer.subarray(0, bytesRead);
    const text = new TextDecoder("utf-8", { fatal: false }).decode(sample);
    const looksBinary = sample.includes(0) || (text.match(/\uFFFD/g)?.length ?? 0) > 8;
    if (looksBinary) throw new HttpError(415, "mediaChecks.file.unrecognised");
    const ext = TEXT_EXTENSIONS.has(nameExt) ? nameExt : "txt";
    // Stored as octet-stream so that nothing (SVG, HTML) is ever rendered from our origin.
    return { ext, mimetype: ext === "txt" || ext === "csv" ? "text/plain" : "application/octet-stream" };
  } finally {
    await handle.close();
  }
}

export function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match?.[1]?.toLowerCase() ?? "";
}
