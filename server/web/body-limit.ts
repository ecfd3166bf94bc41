import type { IncomingMessage } from "node:http";

/*
 * The limit on request bodies that no route streams: a declared length over it is refused before reading, a chunked
 * body is read up to it and no further; a body left unread by an early answer (a refused upload) is drained.
 */

/** Bodies of forms and JSON calls; uploads stream and have their own limits (routes with `streamsBody`). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The request with its body (`request.body`) read into memory, or null when the body is over MAX_BODY_BYTES. */
export async function readWithinLimit(request: Request, requestBody: ReadableStream<Uint8Array>): Promise<Request | null> {
  const reader = requestBody.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      // The rest is read into nothing once the 413 has gone out (discardUnreadBody).
      void reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const body = Buffer.concat(chunks);
  const headers = new Headers(request.headers);
  headers.delete("transfer-encoding");
  headers.set("content-length", String(body.byteLength));
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
}

/** How long a client may go on sending a body we answered without reading (e.g. a 413) before we hang up. */
const UNREAD_BODY_GRACE_MS = 5_000;

/**
 * A request answered before its body was read (a refused upload) is left
 * paused: the client, still sending, would never see the answer. Read the
 * rest into nothing, and hang up if it goes on too long.
 */
export function discardUnreadBody(req: IncomingMessage) {
  if (req.complete || req.destroyed) return;
  const hangUp = setTimeout(() => req.socket.destroy(), UNREAD_BODY_GRACE_MS);
  hangUp.unref();
  req.once("end", () => clearTimeout(hangUp));
  req.once("close", () => clearTimeout(hangUp));
  // node-fetch-server's listener would queue the rest into the unread body stream and pause the socket when
  // that queue is full, stalling the next request on a kept-alive connection: drop it and read into nothing.
  req.removeAllListeners("data");
  req.resume();
}
