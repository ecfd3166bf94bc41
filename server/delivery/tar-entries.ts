import { createHash } from "node:crypto";
import type { Pack } from "tar-stream";

/*
 * Writing a bundle's tar archive as its reader takes it: each entry hashed (SHA-256) while it streams, each write
 * waiting for the reader, so memory stays flat however large the files; and the archive as a web stream.
 */

/** Files are read, and in-memory entries written, in chunks of this size. */
export const READ_CHUNK = 64 * 1024;

/** An entry of the archive as the manifest lists it. */
export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

/** Resolves once the stream wants more; rejects when it is closed, fails or the bundle is aborted first. */
function drained(stream: NodeJS.EventEmitter, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      stream.off("error", done);
      signal?.removeEventListener("abort", onAbort);
      if (error) reject(error instanceof Error ? error : new Error("the bundle was aborted"));
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error("the bundle's archive was closed"));
    const onAbort = () => done(signal?.reason ?? new Error("the bundle was aborted"));
    stream.on("drain", onDrain);
    stream.on("close", onClose);
    stream.on("error", done);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** What an entry of tar-stream (a streamx Writable) is used as here. */
interface EntrySink extends NodeJS.EventEmitter {
  write(chunk: Uint8Array): boolean;
  end(): void;
}

/** One entry of `size` bytes from these chunks, hashed as it goes, each write waiting for the reader. */
export async function addEntry(
  pack: Pack,
  name: string,
  size: number,
  mtime: Date,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  signal?: AbortSignal,
): Promise<ManifestFile> {
  const hash = createHash("sha256");
  let written = 0;
  let sink!: EntrySink;
  const finished = new Promise<void>((resolve, reject) => {
    sink = pack.entry({ name, size, mtime, type: "file", mode: 0o644 }, (error) =>
      error ? reject(error) : resolve(),
    ) as unknown as EntrySink;
  });
  finished.catch(() => undefined); // awaited below; a failure before then must not be unhandled
  sink.on("error", () => undefined); // reported through `finished` and the pack, not as an uncaught error
  for await (const chunk of chunks) {
    signal?.throwIfAborted();
    hash.update(chunk);
    written += chunk.byteLength;
    if (written > size) throw new Error(`${name} grew while it was read`);
    if (!sink.write(chunk)) await drained(sink, signal);
  }
  if (written !== size) throw new Error(`${name} changed size while it was read (${written} of ${size} bytes)`);
  sink.end();
  await finished;
  return { path: name, size, sha256: hash.digest("hex") };
}

/** A small in-memory entry (a document's JSON), in slices so each write waits for the reader. */
function slices(buffer: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let start = 0; start < buffer.length; start += READ_CHUNK) out.push(buffer.subarray(start, start + READ_CHUNK));
  return out;
}

export const addBuffer = (pack: Pack, name: string, buffer: Buffer, mtime: Date, signal?: AbortSignal) =>
  addEntry(pack, name, buffer.length, mtime, slices(buffer), signal);

/** The pack as a web stream for a Response body: a chunk is read from the pack only when the response wants one. */
export function packToWebStream(pack: Pack, onCancel: () => void): ReadableStream<Uint8Array> {
  const iterator = pack[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value as Buffer);
      },
      cancel() {
        onCancel();
        pack.destroy();
      },
    },
    { highWaterMark: 1 },
  );
}
