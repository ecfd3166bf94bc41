import { redirect } from "react-router";
import { safeRedirectPath } from "../../core/safe-redirect";

/** A call made by fetch asks for JSON; a plain form post gets a redirect back. */
export function wantsJson(request: Request): boolean {
  const accept = request.headers.get("Accept") ?? "";
  const type = request.headers.get("Content-Type") ?? "";
  return type.includes("application/json") || (accept.includes("application/json") && !accept.includes("text/html"));
}

export class BadRequest extends Error {}

/** The body of a call as a plain object: JSON or form fields. */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  if ((request.headers.get("Content-Type") ?? "").includes("application/json")) {
    try {
      const body: unknown = await request.json();
      if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw new BadRequest("Malformed JSON body: expected a JSON object");
  }
  try {
    return Object.fromEntries(await request.formData());
  } catch {
    return {};
  }
}

/** A JSON object body, or BadRequest. */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  if (!(request.headers.get("Content-Type") ?? "").includes("application/json")) {
    throw new BadRequest("Send the body as JSON (Content-Type: application/json)");
  }
  return readBody(request);
}

export function jsonError(error: string, status: number, headers?: HeadersInit) {
  return Response.json({ error }, { status, headers });
}

/** After a form post: back where the user was (same-origin paths only). */
export function redirectBack(body: Record<string, unknown>, headers?: HeadersInit) {
  return redirect(safeRedirectPath(body.redirect_to), { headers });
}
