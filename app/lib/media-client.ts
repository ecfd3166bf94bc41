import type { MediaKind } from "@core/media/bounds";
import { ApiError, errorOf, requestJson } from "./api-client";
import { POLL_INTERVAL_MS, type CropCoordinates, type MediaContent, type Thumb } from "@core/media/wire";

/* The browser side of the media calls (spec §4, §7): uploads with byte progress, the latest content, polling, crop. */

export interface UploadRequest {
  kind: MediaKind;
  /** The bucket that owns the media (sent before the file: the server checks access first). */
  bucket: string;
  /** The field's schema property: the server checks the file against its bounds. */
  property: Record<string, unknown>;
  uid: string;
  file: File;
  /** Bytes sent so far of the whole request. */
  onProgress?(loaded: number, total: number): void;
  signal?: AbortSignal;
}

/**
 * POST /api/v1/media/{kind}/upload (spec §7) with XMLHttpRequest, whose
 * upload.onprogress reports real bytes sent (fetch has no upload progress).
 * Resolves the media content (the answer's first item); rejects with the
 * server's message.
 */
export function uploadMedia(request: UploadRequest): Promise<MediaContent> {
  const form = new FormData();
  form.append("bucket", request.bucket);
  form.append("uid", request.uid);
  form.append("properties", JSON.stringify(request.property));
  form.append("file", request.file, request.file.name);
  const path = `/api/v1/media/${request.kind}/upload${request.kind === "file" ? "" : "/"}`;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onProgress?.(event.loaded, event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: errorOf reads the text
      }
      const item: unknown = Array.isArray(body) ? body[0] : null;
      if (
        xhr.status >= 200 &&
        xhr.status < 300 &&
        typeof item === "object" &&
        item !== null &&
        "contentId" in item &&
        typeof item.contentId === "string"
      ) {
        resolve(item as MediaContent);
        return;
      }
      reject(errorOf(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new ApiError(0, "The connection was lost during the upload."));
    xhr.onabort = () => reject(new ApiError(0, "The upload was cancelled."));
    request.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** GET /api/v1/buckets/{kind}/content/{contentId}/latest. */
export async function fetchLatestMedia(kind: MediaKind, contentId: string, signal?: AbortSignal): Promise<MediaContent> {
  return requestJson<MediaContent>(`/api/v1/buckets/${kind}/content/${encodeURIComponent(contentId)}/latest`, { signal });
}

/**
 * Polls …/latest every POLL_INTERVAL_MS while the media is processing (spec
 * §4): each answer goes to `onUpdate`; it stops by itself at completed or
 * error, and on the returned stop function. A lost connection or a server
 * error (5xx) is tried again at the next tick; a refusal (4xx: signed out,
 * gone) stops it with `onFailure`.
 */
export function pollMedia(
  kind: MediaKind,
  contentId: string,
  onUpdate: (content: MediaContent) => void,
  onFailure: (error: ApiError) => void,
  intervalMs = POLL_INTERVAL_MS,
): () => void {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    try {
      const content = await fetchLatestMedia(kind, contentId, controller.signal);
      if (controller.signal.aborted) return;
      onUpdate(content);
      if (content.status === "processing") timer = setTimeout(() => void tick(), intervalMs);
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = error instanceof ApiError ? error : new ApiError(0, error instanceof Error ? error.message : String(error));
      if (failure.status === 0 || failure.status >= 500) timer = setTimeout(() => void tick(), intervalMs);
      else onFailure(failure);
    }
  };
  timer = setTimeout(() => void tick(), intervalMs);
  return () => {
    controller.abort();
    if (timer) clearTimeout(timer);
  };
}

/**
 * POST /api/v1/media/image/crop/{id} {coordinates, properties}: a new image
 * version cropped from the original; `properties` (the field's schema
 * property, as for uploads) names the field whose crop bounds the server checks.
 */
export async function cropImage(
  id: string,
  coordinates: CropCoordinates,
  property?: Record<string, unknown>,
  use?: { bucket: string; document: string | null },
): Promise<MediaContent> {
  const body = await requestJson<MediaContent | [MediaContent]>(`/api/v1/media/image/crop/${encodeURIComponent(id)}`, {
    json: { coordinates, ...(property ? { properties: property } : {}), ...use },
  });
  return Array.isArray(body) ? body[0] : body;
}

/** PUT /api/v1/media/video/{id}/thumb: makes a still (or the custom still) the video's thumb. */
export async function selectThumb(contentId: string, thumb: Thumb): Promise<void> {
  await requestJson(`/api/v1/media/video/${encodeURIComponent(contentId)}/thumb`, { method: "PUT", json: { thumb } });
}

/**
 * POST /api/v1/media/{contentId}/still: a custom still (JPEG, PNG or WebP) for a video field with
 * allowCustomStill (`property`, sent before the file); it is not the thumb until selected.
 */
export async function uploadCustomStill(
  contentId: string,
  file: File,
  property: Record<string, unknown>,
): Promise<{ thumb: Thumb & { url?: string }; smallerThanVideo: boolean }> {
  const body = new FormData();
  body.append("properties", JSON.stringify(property));
  body.append("file", file);
  return requestJson(`/api/v1/media/${encodeURIComponent(contentId)}/still`, { form: body });
}

/** A unique id of one upload item (sent as `uid`, echoed by the answer). */
export function newUploadUid(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
