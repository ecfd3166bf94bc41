import type { Locale } from "@core/locales";
import { translateMessage } from "@core/messages";
import { jobFailureMessage, mediaStatus, type MediaContent } from "@core/media/wire";
import type { JobRow, MediaRow } from "./store";
import { customStillUrl } from "./stills";

/** Spec §3 media content, as the API answers it. */
export function toMediaContent(media: MediaRow, jobs: JobRow[], locale: Locale = "en"): MediaContent {
  const status = mediaStatus(jobs);
  const failed = jobs.find((job) => job.status === "failed");
  const { details } = media;
  const customUrl = customStillUrl(media);
  const thumbs = [
    ...(details.stillKeys ?? []).map((_, index) => ({ index, url: `/api/v1/still/${media.contentId}/${index}` })),
    ...(customUrl ? [{ filename: "custom", isCustom: true as const, url: customUrl }] : []),
  ];
  const thumb = details.thumb ?? null;
  const still = chosenStillUrl(media);
  const customSize = details.customStillSize;
  /** The custom still (spec §5): smallerThanVideo asks the browser's 'Incorrect Size' confirmation. */
  const customStill =
    customUrl && customSize
      ? {
          url: customUrl,
          dimensions: customSize,
          smallerThanVideo: Boolean(media.width && media.height && (customSize.width < media.width || customSize.height < media.height)),
        }
      : null;
  return {
    contentId: media.contentId,
    _id: media.id,
    kind: media.kind,
    status,
    ...(failed ? { error: translateMessage(locale, jobFailureMessage(failed.name, media.kind)) } : {}),
    jobs: jobs.map(({ name, status: jobStatus, progress }) => ({ name, status: jobStatus, progress })),
    url: `/api/v1/media/${media.kind}/${media.contentId}`,
    originalFilename: media.originalFilename,
    mimetype: media.mimetype,
    size: media.size,
    dimensions: media.width && media.height ? { width: media.width, height: media.height } : null,
    ...(media.kind === "video" ? { fps: details.fps ?? null, codec: details.codec ?? null, duration: details.duration ?? null } : {}),
    originalImageVersionId: media.originalImageVersionId,
    crop: details.crop ?? null,
    thumbs,
    thumb,
    still,
    ...(media.kind === "video" ? { customStill } : {}),
  };
}

/** The URL of a video's chosen still (spec §3 `thumb`), null while none is chosen or it is gone. */
export function chosenStillUrl(media: Pick<MediaRow, "contentId" | "details">): string | null {
  const { thumb, stillKeys } = media.details;
  if (!thumb) return null;
  if ("isCustom" in thumb) return customStillUrl(media);
  return stillKeys?.[thumb.index] !== undefined ? `/api/v1/still/${media.contentId}/${thumb.index}` : null;
}
