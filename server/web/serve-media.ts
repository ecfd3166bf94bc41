import { Readable } from "node:stream";
import type { MediaStorage } from "@server/media/storage";
import type { MediaRow } from "@server/media/store";

export interface ServeOptions {
  mimetype: string;
  /** Stable for the bytes at this path (a storage key never changes content). */
  etag: string;
  disposition: "inline" | "attachment";
  filename: string;
}

/** RFC 6266: a plain ASCII fallback and the exact UTF-8 name. */
export function contentDisposition(disposition: "inline" | "attachment", filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

const missing = () => Response.json({ error: "The file of this media is missing" }, { status: 404 });

/**
 * A stored file with its type, an ETag (304 on If-None-Match) and single
 * byte ranges (206; 416 when unsatisfiable) so that videos can seek;
 * streamed from the store, whichever it is.
 */
export async function serveFile(request: Request, storage: MediaStorage, key: string, options: ServeOptions): Promise<Response> {
  const info = await storage.head(key);
  if (!info) return missing();
  const etag = `"${options.etag}"`;
  const headers = new Headers({
    "Content-Type": options.mimetype,
    "Content-Disposition": contentDisposition(options.disposition, options.filename),
    ETag: etag,
    "Accept-Ranges": "bytes",
    // Access-controlled: browsers may keep it, shared caches may not; revalidate with the ETag.
    "Cache-Control": "private, no-cache",
    // Whatever the type, never let the content run as a page of our origin.
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
  });
  if (
    request.headers
      .get("If-None-Match")
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return new Response(null, { status: 304, headers });

  const range = parseRange(request.headers.get("Range"), info.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  const { start, end } = range ?? { start: 0, end: info.size - 1 };
  headers.set("Content-Length", String(info.size === 0 ? 0 : end - start + 1));
  if (range) headers.set("Content-Range", `bytes ${start}-${end}/${info.size}`);
  if (request.method === "HEAD" || info.size === 0) return new Response(null, { status: range ? 206 : 200, headers });
  let stream: Readable;
  try {
    stream = await storage.read(key, { start, end });
  } catch (error) {
    // Removed between the look and the read (a bucket's media deleted meanwhile).
    if ((error as { code?: string }).code === "ENOENT") return missing();
    throw error;
  }
  return new Response(Readable.toWeb(stream) as ReadableStream, { status: range ? 206 : 200, headers });
}

/** How long a presigned URL of the store stays valid, and how long a client may keep the redirect to it. */
const PRESIGNED_SECONDS = 15 * 60;
const REDIRECT_MAX_AGE_SECONDS = 10 * 60;

/**
 * A 307 to a URL where the object store serves the file itself (with its type and disposition), or null where the
 * store serves none (the file system).
 */
export async function presignedRedirect(storage: MediaStorage, key: string, options: ServeOptions): Promise<Response | null> {
  const url = await storage.presignedUrl(key, {
    expiresInSeconds: PRESIGNED_SECONDS,
    mimetype: options.mimetype,
    disposition: contentDisposition(options.disposition, options.filename),
  });
  if (!url) return null;
  return new Response(null, {
    status: 307,
    headers: { Location: url, "Cache-Control": `private, max-age=${REDIRECT_MAX_AGE_SECONDS}` },
  });
}

/** One `bytes=a-b`, `a-` or `-n` range; null (whole file) for no or a multi-range header. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (!match[1] && !match[2])) return null;
  let start: number;
  let end: number;
  if (!match[1]) {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

/**
 * A media version's file to view, play or download: a video plays its web rendition once it exists; a file (but
 * audio) is always a download, so nothing (HTML, SVG) runs from our origin.
 */
export function serveMedia(request: Request, storage: MediaStorage, media: MediaRow, download: boolean): Promise<Response> {
  const rendition = media.kind === "video" ? media.details.renditionKey : undefined;
  const inline = media.kind !== "file" || media.mimetype.startsWith("audio/");
  return serveFile(request, storage, rendition ?? media.storageKey, {
    mimetype: rendition ? "video/mp4" : media.mimetype,
    etag: rendition ?? media.storageKey,
    disposition: inline && !download ? "inline" : "attachment",
    filename: rendition ? media.originalFilename.replace(/\.[^.]*$/, "") + ".mp4" : media.originalFilename,
  });
}
