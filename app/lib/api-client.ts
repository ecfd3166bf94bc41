/* The browser's one way to call Vitrine's JSON API: same-origin credentials, JSON in and out, one error type. */

/** A refused or failed call: the HTTP status (0: no answer), the server's message and its whole body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface ApiRequest {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (files). */
  form?: FormData;
  signal?: AbortSignal;
}

/** The server's message in an answer's text: {error} JSON, else the plain text, else the status. */
export function errorOf(status: number, text: string): ApiError {
  let body: unknown = null;
  let message = text.trim();
  try {
    body = JSON.parse(text);
    const error = (body as { error?: unknown } | null)?.error;
    if (typeof error === "string") message = error;
  } catch {
    // plain text
  }
  return new ApiError(status, message || `HTTP ${status}`, body);
}

/** Calls `url` and answers its JSON (null for an empty answer); rejects with ApiError. */
export async function requestJson<T>(url: string, request: ApiRequest = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method ?? (request.json !== undefined || request.form ? "POST" : "GET"),
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(request.json !== undefined ? { "Content-Type": "application/json" } : {}) },
      body: request.json !== undefined ? JSON.stringify(request.json) : request.form,
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new ApiError(0, error instanceof Error ? error.message : "The connection was lost.");
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) throw errorOf(response.status, text);
  return (text ? JSON.parse(text) : null) as T;
}
