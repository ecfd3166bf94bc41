import { Readable } from "node:stream";
import { constants, createBrotliCompress, createGzip } from "node:zlib";

const COMPRESSIBLE_TYPES = /^(text\/html|application\/json|application\/problem\+json|text\/plain)\b/;
const MIN_BYTES = 1024;

type Encoding = "br" | "gzip";

/** The best encoding the client accepts (brotli before gzip), or null. */
export function acceptedEncoding(acceptEncoding: string | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const quality = (name: Encoding) => accepted.get(name) ?? (accepted.has("*") ? (accepted.get("*") ?? 0) : 0);
  if (quality("br") > 0) return "br";
  if (quality("gzip") > 0) return "gzip";
  return null;
}

/** Reads up to `limit` bytes: the chunks read, and whether the body ended there. */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<{ chunks: Uint8Array[]; done: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) return { chunks, done: true };
    chunks.push(value);
    size += value.byteLength;
  }
  return { chunks, done: false };
}

async function* chunksOf(head: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* head;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/**
 * Compresses an HTML, JSON or text answer of 1 kB or more for a client that accepts it. Every chunk is flushed as
 * it comes, so a streamed page still reaches the browser part by part; the levels are the fast ones (brotli 4,
 * gzip 6), as this runs per request. Static assets are precompressed at build time instead, and media (with their
 * ETags and ranges) are left alone.
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  const { headers, body } = response;
  if (!body || request.method === "HEAD" || response.status === 204 || response.status === 304) return response;
  if (headers.has("Content-Encoding") || headers.has("ETag") || headers.has("Content-Range")) return response;
  if (!COMPRESSIBLE_TYPES.test(headers.get("Content-Type") ?? "")) return response;
  const length = headers.get("Content-Length");
  if (length !== null && Number(length) < MIN_BYTES) return response;
  headers.append("Vary", "Accept-Encoding");
  const encoding = acceptedEncoding(request.headers.get("Accept-Encoding"));
  if (!encoding) return response;
  const reader = body.getReader();
  const head = await readHead(reader, MIN_BYTES);
  const init = { status: response.status, statusText: response.statusText, headers };
  if (head.done && head.chunks.reduce((size, chunk) => size + chunk.byteLength, 0) < MIN_BYTES) {
    return new Response(Buffer.concat(head.chunks), init); // small: not worth a compressor
  }
  const compressor =
    encoding === "br"
      ? createBrotliCompress({ flush: constants.BROTLI_OPERATION_FLUSH, params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
      : createGzip({ flush: constants.Z_SYNC_FLUSH, level: 6 });
  const source = Readable.from(chunksOf(head.chunks, reader), { objectMode: false });
  source.on("error", (error) => compressor.destroy(error));
  headers.delete("Content-Length");
  headers.set("Content-Encoding", encoding);
  return new Response(Readable.toWeb(source.pipe(compressor)) as ReadableStream<Uint8Array>, init);
}
