/* The browser's reader of the impact preview stream (POST /settings/buckets/{slug}/impact/stream, NDJSON). */
import { ApiError, errorOf } from "./api-client";
import { IMPACT_STREAM_TYPE, SCHEMA_FIELD, type ImpactProgress, type ImpactReport, type ImpactStreamLine } from "@core/schema/impact";

/** The stream's address for a bucket. */
export const impactStreamUrl = (slug: string) => `/settings/buckets/${encodeURIComponent(slug)}/impact/stream`;

/** The stream ended without its report (the connection was lost, the server stopped). */
export class ImpactInterruptedError extends Error {
  constructor() {
    super("The impact stream ended before its report");
    this.name = "ImpactInterruptedError";
  }
}

/**
 * Posts the proposed schema (its JSON text) and reads the answer line by line: each progress line goes to
 * `onProgress`, the report resolves the promise. A refusal (an {error} answer or an error line) rejects with ApiError.
 */
export async function streamSchemaImpact(
  slug: string,
  schemaText: string,
  options: { onProgress: (progress: ImpactProgress) => void; signal?: AbortSignal },
): Promise<ImpactReport> {
  let response: Response;
  try {
    response = await fetch(impactStreamUrl(slug), {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: IMPACT_STREAM_TYPE },
      body: new URLSearchParams({ [SCHEMA_FIELD]: schemaText }),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, error instanceof Error ? error.message : "The connection was lost.");
  }
  // A signed-out admin (or one who lost the admin permission) is redirected to a page: go there.
  if (response.redirected && !response.headers.get("Content-Type")?.startsWith(IMPACT_STREAM_TYPE)) {
    window.location.assign(response.url);
    throw new ApiError(0, "Redirected to another page");
  }
  if (!response.ok || !response.body || !response.headers.get("Content-Type")?.startsWith(IMPACT_STREAM_TYPE)) {
    throw errorOf(response.ok ? 0 : response.status, await response.text().catch(() => ""));
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const read = (text: string): ImpactReport | null => {
    if (!text.trim()) return null;
    const parsed = JSON.parse(text) as ImpactStreamLine;
    if (parsed.type === "progress") options.onProgress({ checked: parsed.checked, total: parsed.total });
    else if (parsed.type === "error") throw new ApiError(parsed.status, parsed.message, parsed);
    else return parsed.report;
    return null;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += value;
    let end: number;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const report = read(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      if (report) {
        void reader.cancel().catch(() => undefined);
        return report;
      }
    }
  }
  const report = read(buffered);
  if (report) return report;
  throw new ImpactInterruptedError();
}
