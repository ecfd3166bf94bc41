import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import busboy from "busboy";
import { tooLargeMessage } from "@core/media/bounds";
import { HttpError } from "@server/errors";
import type { MediaStorage } from "./storage";

/** A request body as the media intake reads it: its Content-Type and its bytes (the web layer hands them over). */
export interface IncomingBody {
  contentType: string;
  stream: ReadableStream<Uint8Array> | null;
}

export interface UploadedFile {
  temporaryPath: string;
  size: number;
  /** The name the browser sent, cleaned of paths and control characters; kept as data only. */
  originalFilename: string;
}

/** What to do with a file part: stream it to disk up to `maxBytes`, labelled with `tag`. */
export interface FilePlan<T> {
  maxBytes: number;
  tag: T;
}

export interface ReceivedFile<T> {
  tag: T;
  file: UploadedFile;
  /** Set when the file was over its `maxBytes` and skipped (`oversize: "skip"`): its limit. Nothing was kept. */
  tooLarge?: number;
}

export interface MultipartOptions<T> {
  limits: { files: number; fields: number; fieldSize: number; parts: number; fieldNameSize?: number; fieldBytes?: number };
  /**
   * Called when a file part starts, with the text fields sent before it. Answers its plan, null to
   * skip the part (an empty file input), or throws an HttpError to refuse the whole upload.
   */
  planFile(
    partName: string,
    filename: string | undefined,
    fieldsBefore: ReadonlyArray<[string, string]>,
  ): FilePlan<T> | null | Promise<FilePlan<T> | null>;
  /**
   * A file over its `maxBytes`: "refuse" ends the whole upload with 413 at once; "skip" reads the rest of
   * it into nothing (so the fields after it arrive) and reports it as `tooLarge`, up to `skipUpTo` bytes.
   */
  oversize: { mode: "refuse" } | { mode: "skip"; skipUpTo: number };
}

export interface ReceivedMultipart<T> {
  fields: Array<[string, string]>;
  files: Array<ReceivedFile<T>>;
}

class Oversize extends Error {}

/**
 * Streams a multipart/form-data body: text fields kept in order, each file part written to a temporary
 * file in the media store while its bytes are counted. Nothing is held whole in memory; a file is cut off
 * at its limit while it streams, never after. On any refusal every temporary file is removed.
 */
export async function receiveMultipart<T>(
  body: IncomingBody,
  storage: MediaStorage,
  options: MultipartOptions<T>,
): Promise<ReceivedMultipart<T>> {
  const { contentType, stream } = body;
  if (!stream || !/^multipart\/form-data/i.test(contentType)) {
    throw new HttpError(400, "uploadBody.notMultipart");
  }
  const { fieldBytes = Number.MAX_SAFE_INTEGER, ...limits } = options.limits;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: { headerPairs: 50, ...limits, fileSize: Number.MAX_SAFE_INTEGER },
    });
  } catch {
    throw new HttpError(400, "uploadBody.badBoundary");
  }

  const fields: Array<[string, string]> = [];
  const files: Array<ReceivedFile<T>> = [];
  const writes: Array<Promise<void>> = [];
  let textBytes = 0;
  let failure: HttpError | undefined;
  // What planFile threw (not an HttpError), boxed: it is rethrown as it came, whatever it is.
  let unexpected: { error: unknown } | undefined;
  const source = Readable.fromWeb(stream as import("node:stream/web").ReadableStream);
  const open = new Set<Readable>();
  const fail = (error: HttpError) => {
    failure ??= error;
    for (const stream of open) stream.destroy(error);
    // Stop reading at the first refusal: a too-large file is cut off, not received whole. The parser too: when the
    // whole body had already arrived, it would otherwise wait for ever for its destroyed file stream to be read.
    source.destroy();
    parser.destroy();
  };

  parser.on("field", (name, value, info) => {
    textBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (info.valueTruncated || info.nameTruncated) fail(new HttpError(413, "uploadBody.fieldTooLong", { name: name.slice(0, 100) }));
    else if (textBytes > fieldBytes) fail(new HttpError(413, "uploadBody.fieldsTooLarge", { limit: fieldBytes }));
    else fields.push([name, value]);
  });
  parser.on("file", (partName, stream, info) => {
    // A refusal destroys the parser, which errors its open file streams ('Unexpected end of form'); the refusal
    // already says what went wrong.
    stream.on("error", () => undefined);
    open.add(stream);
    writes.push(receiveFile(partName, stream, info.filename).finally(() => open.delete(stream)));
  });
  parser.on("filesLimit", () =>
    fail(
      options.limits.files === 1
        ? new HttpError(400, "uploadBody.oneFile")
        : new HttpError(400, "uploadBody.tooManyFiles", { limit: options.limits.files }),
    ),
  );
  parser.on("fieldsLimit", () => fail(new HttpError(413, "uploadBody.tooManyFields")));
  parser.on("partsLimit", () => fail(new HttpError(413, "uploadBody.tooManyParts")));

  /** Asks for the file's plan, then streams it to disk, counting bytes; refusals go to `fail`. */
  async function receiveFile(partName: string, stream: Readable, filename: string | undefined): Promise<void> {
    let plan: FilePlan<T> | null;
    try {
      plan = await options.planFile(partName, filename, [...fields]);
    } catch (error) {
      if (!(error instanceof HttpError)) unexpected ??= { error };
      fail(error instanceof HttpError ? error : new HttpError(400, "uploadBody.refused"));
      stream.resume();
      return;
    }
    if (failure || !plan) {
      stream.resume(); // refused while the plan was made, or a part to skip: read into nothing
      return;
    }
    const received: ReceivedFile<T> = {
      tag: plan.tag,
      file: { temporaryPath: storage.temporaryPath(), size: 0, originalFilename: cleanFilename(filename) },
    };
    files.push(received);
    const { maxBytes } = plan;
    const skipUpTo = options.oversize.mode === "skip" ? options.oversize.skipUpTo : maxBytes;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received.file.size += chunk.length;
        if (received.file.size <= maxBytes) callback(null, chunk);
        else if (received.file.size <= skipUpTo) {
          received.tooLarge = maxBytes;
          callback();
        } else callback(new Oversize());
      },
    });
    const output = createWriteStream(received.file.temporaryPath, { flags: "wx" });
    try {
      await pipeline(stream, counter, output);
    } catch (error) {
      if (error instanceof Oversize) fail(fileTooLarge(maxBytes));
      else fail(error instanceof HttpError ? error : new HttpError(400, "uploadBody.interrupted"));
    }
    // A destroyed write stream may still be opening its file: wait until it is closed before anyone deletes it.
    if (!output.closed) await new Promise<void>((resolve) => output.once("close", () => resolve()));
    if (received.tooLarge !== undefined) await storage.remove(received.file.temporaryPath);
  }

  try {
    await pipeline(source, parser).catch((error: unknown) => {
      fail(error instanceof HttpError ? error : new HttpError(400, "uploadBody.malformed"));
    });
    await Promise.all(writes);
    if (unexpected) throw unexpected.error;
    if (failure) throw failure;
    return { fields, files };
  } catch (error) {
    await Promise.all(files.map((received) => storage.remove(received.file.temporaryPath)));
    throw error;
  }
}

export interface ParsedUpload {
  file: UploadedFile;
  fields: Record<string, string>;
}

const oneFile = () => new HttpError(400, "uploadBody.oneFileNamed");

/**
 * An API upload: one file in the field 'file', a few small text fields before it. `maxBytesFor` is asked
 * when the file starts, with those fields (it may refuse the upload by throwing an HttpError, e.g. for a
 * bucket the user may not see); a larger file is cut off while streaming (413).
 */
export async function receiveUpload(
  body: IncomingBody,
  storage: MediaStorage,
  maxBytesFor: (fields: Record<string, string>) => number | Promise<number>,
): Promise<ParsedUpload> {
  const received = await receiveMultipart(body, storage, {
    limits: { fields: 10, fieldSize: 64 * 1024, parts: 12, files: 1 },
    oversize: { mode: "refuse" },
    async planFile(partName, _filename, fieldsBefore) {
      if (partName !== "file") throw oneFile();
      return { maxBytes: await maxBytesFor(fieldsOf(fieldsBefore)), tag: null };
    },
  });
  const [upload] = received.files;
  if (!upload) throw oneFile();
  return { file: upload.file, fields: fieldsOf(received.fields) };
}

/** Text fields as an object without a prototype; a repeated name keeps its last value. */
function fieldsOf(entries: ReadonlyArray<[string, string]>): Record<string, string> {
  return Object.assign(Object.create(null) as Record<string, string>, Object.fromEntries(entries));
}

// eslint-disable-next-line no-control-regex
const UNSAFE_IN_FILENAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The last path segment, without control characters (C0, DEL, C1) and without the bidirectional controls that
 * make "txt.exe" read as "exe.txt"; never used as a path by us.
 */
export function cleanFilename(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(UNSAFE_IN_FILENAMES, "").trim().slice(0, 255);
  return cleaned && cleaned !== "." && cleaned !== ".." ? cleaned : "upload";
}

/** A file over its limit: 413 with the one wording of spec §9's limits. */
export function fileTooLarge(maxBytes: number): HttpError {
  const message = tooLargeMessage(maxBytes);
  return new HttpError(413, message.key, message.params);
}
