/** Bytes gathered before a chunk is handed on: fewer, larger writes than one per row. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A response body from text made piece by piece: read as the client takes it (a slow download holds the reading of
 * the database back, nothing piles up in memory), stopped when the client goes away.
 */
export function textStream(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = "";
      while (text.length < CHUNK_BYTES) {
        const next = await iterator.next();
        if (next.done) {
          if (text) controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        text += next.value;
      }
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
