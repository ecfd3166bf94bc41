import { redirect } from "react-router";
import type { Message } from "@core/messages";
import { safeRedirectPath } from "@core/safe-redirect";
import { HttpError } from "@server/errors";

/** A call made by fetch asks for JSON; a plain form post gets a redirect back. */
export function wantsJson(request: Request): boolean {
  const accept = request.headers.get("Accept") ?? "";
  const type = request.headers.get("Content-Type") ?? "";
  return type.includes("application/json") || (accept.includes("application/json") && !accept.includes("text/html"));
}

const isJson = (request: Request) => /^application\/json\b/i.test(request.headers.get("Content-Type") ?? "");

/** The request's body, read up to `maxBytes` (413 beyond, reading no further). */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new HttpError(413, "errors.bodyTooLarge", { limit: maxBytes });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** JSON calls are small: the server's 1 MiB limit applies to them all. */
export const MAX_JSON_BYTES = 1024 * 1024;
/** Calls whose body is a few numbers (a crop, a thumb). */
export const MAX_SMALL_JSON_BYTES = 64 * 1024;

/**
 * A JSON object body (Content-Type application/json, at most `maxBytes`,
 * valid JSON whose top level is an object), else 400 or 413; `usage` says
 * what the call expects.
 */
export async function readJsonBody(request: Request, usage?: Message, maxBytes = MAX_JSON_BYTES): Promise<Record<string, unknown>> {
  const withUsage = { usage: usage ?? { key: "api.usage.object" } };
  if (!isJson(request)) throw new HttpError(400, "api.sendJson", withUsage);
  let body: unknown;
  try {
    body = JSON.parse((await readBodyBytes(request, maxBytes)).toString("utf8"));
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(400, "api.invalidJson", withUsage);
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "api.notJsonObject", withUsage);
  return body as Record<string, unknown>;
}

/** The body of a call as a plain object: JSON or form fields. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  if (isJson(request)) return readJsonBody(request);
  try {
    return Object.fromEntries(await request.formData());
  } catch {
    return {};
  }
}

/** After a form post: back where the user was (same-origin paths only). */
export function redirectBack(body: Record<string, unknown>, headers?: HeadersInit) {
  return redirect(safeRedirectPath(body.redirect_to), { headers });
}
