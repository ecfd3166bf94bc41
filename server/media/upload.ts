import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import type { MediaStorage } from "./storage";

export class UploadError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 413 | 415 | 422,
    message: string,
  ) {
    super(message);
  }
}

export interface UploadedFile {
  temporaryPath: string;
  size: number;
  /** The name the browser sent, cleaned of paths and control characters; kept as data only. */
  originalFilename: string;
}

export interface ParsedUpload {
  file: UploadedFile;
  fields: Record<string, string>;
}

const FIELD_LIMITS = { fields: 10, fieldSize: 64 * 1024, parts: 12, files: 1, headerPairs: 50 };

/**
 * Streams a multipart upload with exactly one file into a temporary file.
 * `maxBytesFor` is asked when the file starts, with the fields sent before it
 * (it may refuse the upload by throwing an UploadError, e.g. for a bucket the
 * user may not see); a larger file is cut off while streaming (413) and its
 * temporary file deleted.
 */
export async function receiveUpload(
  request: Request,
  storage: MediaStorage,
  maxBytesFor: (fields: Record<string, string>) => number | Promise<number>,
): Promise<ParsedUpload> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!request.body || !/^multipart\/form-data/i.test(contentType)) {
    throw new UploadError(400, "Send the upload as multipart/form-data with one file.");
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8", limits: { ...FIELD_LIMITS, fileSize: Number.MAX_SAFE_INTEGER } });
  } catch {
    throw new UploadError(400, "The upload's multipart boundary is missing or malformed.");
  }

  const fields: Record<string, string> = Object.create(null);
  let file: UploadedFile | undefined;
  let writing: Promise<void> | undefined;
  let failure: UploadError | undefined;
  let unexpected: unknown;
  const temporaryPaths: string[] = [];
  const source = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream);
  let activeStream: Readable | undefined;
  let activeCounter: Transform | undefined;
  const fail = (error: UploadError) => {
    failure ??= error;
    activeCounter?.destroy(error);
    activeStream?.destroy();
    // Stop reading at the first refusal: a too-large file is cut off, not received whole. The parser too: when the
    // whole body had already arrived, it would otherwise wait for ever for its destroyed file stream to be read.
    source.destroy();
    parser.destroy();
  };

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(new UploadError(413, `The form field '${name}' is too long.`));
    else fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    // A refusal destroys the parser, which errors its open file stream ('Unexpected end of form'); the refusal
    // already says what went wrong.
    stream.on("error", () => undefined);
    if (file || name !== "file") {
      stream.resume();
      fail(new UploadError(400, "Send exactly one file, in the field named 'file'."));
      return;
    }
    activeStream = stream;
    const temporaryPath = storage.temporaryPath();
    temporaryPaths.push(temporaryPath);
    const current: UploadedFile = { temporaryPath, size: 0, originalFilename: cleanFilename(info.filename) };
    file = current;
    writing = writeFile(stream, current);
  });

  /** Asks for the limit, then streams the file to disk, counting bytes; refusals go to `fail`. */
  async function writeFile(stream: Readable, current: UploadedFile): Promise<void> {
    let maxBytes: number;
    try {
      maxBytes = await maxBytesFor({ ...fields });
    } catch (error) {
      if (!(error instanceof UploadError)) unexpected ??= error;
      fail(error instanceof UploadError ? error : new UploadError(400, "The upload was refused."));
      return;
    }
    if (failure) return; // refused while the check ran: nothing to write
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        current.size += chunk.length;
        if (current.size > maxBytes) callback(new UploadError(413, `The file is too large: the maximum is ${formatBytes(maxBytes)}.`));
        else callback(null, chunk);
      },
    });
    activeCounter = counter;
    const output = createWriteStream(current.temporaryPath, { flags: "wx" });
    try {
      await pipeline(stream, counter, output);
    } catch (error) {
      fail(error instanceof UploadError ? error : new UploadError(400, "The upload was interrupted."));
    }
    // A destroyed write stream may still be opening its file: wait until it is closed before anyone deletes it.
    if (!output.closed) await new Promise<void>((resolve) => output.once("close", () => resolve()));
  }
  parser.on("filesLimit", () => fail(new UploadError(400, "Send exactly one file per upload.")));
  parser.on("fieldsLimit", () => fail(new UploadError(413, "The upload has too many form fields.")));
  parser.on("partsLimit", () => fail(new UploadError(413, "The upload has too many parts.")));

  try {
    await pipeline(source, parser).catch((error: unknown) => {
      fail(error instanceof UploadError ? error : new UploadError(400, "The upload could not be read: the multipart body is malformed or was cut off."));
    });
    await writing;
    if (unexpected) throw unexpected;
    if (failure) throw failure;
    if (!file) throw new UploadError(400, "Send exactly one file, in the field named 'file'.");
    return { file, fields: { ...fields } };
  } catch (error) {
    await Promise.all(temporaryPaths.map((p) => storage.remove(p)));
    throw error;
  }
}

/** The last path segment, without control characters; never used as a path by us. */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 255);
  return cleaned && cleaned !== "." && cleaned !== ".." ? cleaned : "upload";
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(2)} GB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(2)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(2)} kB`;
  return `${bytes} bytes`;
}
