import { MediaEditError } from "./edit-error";

/** JSON calls under /api/v1/media/ (crop, thumb) are small: limited here, well under the server's 1 MiB. */
export const MAX_MEDIA_JSON_BYTES = 64 * 1024;

/**
 * The body of a media JSON call as a plain object: Content-Type
 * application/json, at most `maxBytes` (read no further: 413), valid JSON
 * whose top level is an object (else 400).
 */
export async function readJsonObject(request: Request, usage: string, maxBytes = MAX_MEDIA_JSON_BYTES): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(request.headers.get("Content-Type") ?? "")) {
    throw new MediaEditError(400, `Send the body as JSON (Content-Type: application/json): ${usage}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new MediaEditError(413, `The request body is too large: the limit is ${maxBytes} bytes.`);
      }
      chunks.push(value);
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new MediaEditError(400, `The body is not valid JSON: ${usage}`);
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new MediaEditError(400, `The body must be a JSON object: ${usage}`);
  return body as Record<string, unknown>;
}
