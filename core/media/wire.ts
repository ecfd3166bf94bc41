import type { Message } from "@core/messages";
import type { MediaKind } from "./bounds";

/* The media content as the API answers it and the form reads it (spec §3, §4): one declaration for both sides. */

/** Without JavaScript, file inputs are named `__media_file.<field name>` (server/media/form-upload.ts). */
export const MEDIA_FILE_PREFIX = "__media_file.";
/** The no-JavaScript 'Upload' button (its value: the field name): uploads and re-renders without saving. */
export const MEDIA_UPLOAD_FIELD = "__media_upload";
/** The 'Choose from library' button (its value: the field name): the form kept as a draft, the library next. */
export const CHOOSE_FROM_LIBRARY_FIELD = "__chooseFromLibrary";
/** The 'Texts for this use' button (its value: the field name): the form kept as a draft, the item's texts next. */
export const USE_TEXTS_FIELD = "__useTexts";

/** Spec §9: the field polls …/latest this often while jobs run. */
export const POLL_INTERVAL_MS = 2000;
/** Spec §9: the video player's playback rates. */
export const PLAYBACK_RATES = [0.7, 1, 1.3, 1.5, 1.7] as const;

export type JobName = "transcode" | "still-creation";
export type JobStatus = "new" | "processing" | "failed" | "completed";
/** Spec §4: completed, error, or in progress (any job new or processing). */
export type MediaStatus = "completed" | "error" | "processing";

/** A video's thumb: one of its stills by index, or its custom still. */
export type Thumb = { index: number } | { isCustom: true };

export interface CropCoordinates {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Spec §3 media content, as GET …/latest and the upload answer it. */
export interface MediaContent {
  contentId: string;
  _id: string;
  kind: MediaKind;
  status: MediaStatus;
  error?: string;
  /** Job names: ours are JobName; spec §4 also labels media-convert and any other name. */
  jobs: Array<{ name: string; status: JobStatus; progress: number }>;
  url: string;
  originalFilename: string;
  mimetype: string;
  size: number;
  dimensions: { width: number; height: number } | null;
  fps?: number | null;
  codec?: string | null;
  duration?: number | null;
  originalImageVersionId: string | null;
  crop: CropCoordinates | null;
  thumbs: Array<{ index?: number; filename?: string; isCustom?: boolean; url: string }>;
  thumb: Thumb | null;
  still: string | null;
  /** Videos: the custom still; smallerThanVideo asks the browser's 'Incorrect Size' confirmation (spec §5). */
  customStill?: { url: string; dimensions: { width: number; height: number }; smallerThanVideo: boolean } | null;
  /** Images of the library: the locales of the item's bucket without an alternative text (the editor warns). */
  missingAlt?: string[];
}

/** Spec §4: completed, error, or in progress (any job new or processing). */
export function mediaStatus(jobs: ReadonlyArray<{ status: JobStatus }>): MediaStatus {
  if (jobs.some((job) => job.status === "failed")) return "error";
  if (jobs.some((job) => job.status === "new" || job.status === "processing")) return "processing";
  return "completed";
}

/** Average progress (0–100) of the jobs; spec §4. */
export function averageJobProgress(content: Pick<MediaContent, "jobs">): number {
  if (!content.jobs.length) return 0;
  const total = content.jobs.reduce(
    (sum, job) => sum + (job.status === "completed" ? 100 : Math.max(0, Math.min(100, job.progress || 0))),
    0,
  );
  return Math.round(total / content.jobs.length);
}

/**
 * The job the progress label names (spec §4): the first one that is
 * processing, else the first one that is new; null when none runs.
 */
export function runningJob(content: Pick<MediaContent, "jobs">): string | null {
  const job =
    content.jobs.find((candidate) => candidate.status === "processing") ?? content.jobs.find((candidate) => candidate.status === "new");
  return job ? job.name : null;
}

/** Spec §8: what a failed job says: 'Error converting {type}', 'Error getting stills from {type}', else the unknown error. */
export function jobFailureMessage(name: string, kind: MediaKind): Message {
  const type = { key: `media.types.${kind}` } as const;
  if (name === "transcode") return { key: "media.failed.transcode", params: { type } };
  if (name === "still-creation") return { key: "media.failed.stills", params: { type } };
  return { key: "media.processingFailed" };
}

/** The failure of a content whose status is error: its first failed job's message. */
export function mediaFailure(content: Pick<MediaContent, "jobs" | "kind">): Message {
  const failed = content.jobs.find((job) => job.status === "failed");
  return failed ? jobFailureMessage(failed.name, content.kind) : { key: "media.processingFailed" };
}
