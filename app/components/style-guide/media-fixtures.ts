import type { MediaContent } from "@core/media/wire";
import type { MediaSource } from "~/components/form/media/context";
import { ApiError } from "~/lib/api-client";
import { MEDIA_FIXTURE_IDS } from "./media-fixture-ids";
// Files of their own (never inlined as data: URLs): a media field adds ?v=… to the address.
import sampleImageUrl from "./sample-image.svg?no-inline";
import sampleStillUrl from "./sample-still.svg?no-inline";

/* Media contents the style guide's media fields show: what GET …/latest would answer, without a server. */

const base = {
  jobs: [],
  size: 48_213,
  originalImageVersionId: null,
  crop: null,
  thumbs: [],
  thumb: null,
  still: null,
} satisfies Partial<MediaContent>;

const video = (contentId: string, status: MediaContent["status"], jobs: MediaContent["jobs"]): MediaContent => ({
  ...base,
  contentId,
  _id: `${contentId}-v1`,
  kind: "video",
  status,
  jobs,
  // No video file ships with the app: the player shows the still as its poster.
  url: sampleStillUrl,
  originalFilename: "wadden-sea.mp4",
  mimetype: "video/mp4",
  size: 18_431_220,
  dimensions: { width: 1920, height: 1080 },
  fps: 25,
  codec: "h264",
  duration: 42,
  thumbs: status === "completed" ? [{ index: 0, url: sampleStillUrl }] : [],
  thumb: status === "completed" ? { index: 0 } : null,
  still: status === "completed" ? sampleStillUrl : null,
});

const contents: MediaContent[] = [
  {
    ...base,
    contentId: MEDIA_FIXTURE_IDS.image,
    _id: `${MEDIA_FIXTURE_IDS.image}-v1`,
    kind: "image",
    status: "completed",
    url: sampleImageUrl,
    originalFilename: "wadden-sea.svg",
    mimetype: "image/svg+xml",
    dimensions: { width: 1600, height: 900 },
  },
  video(MEDIA_FIXTURE_IDS.video, "completed", [
    { name: "transcode", status: "completed", progress: 100 },
    { name: "still-creation", status: "completed", progress: 100 },
  ]),
  video(MEDIA_FIXTURE_IDS.processing, "processing", [
    { name: "transcode", status: "processing", progress: 64 },
    { name: "still-creation", status: "new", progress: 0 },
  ]),
  video(MEDIA_FIXTURE_IDS.failed, "error", [
    { name: "transcode", status: "failed", progress: 30 },
    { name: "still-creation", status: "new", progress: 0 },
  ]),
  {
    ...base,
    contentId: MEDIA_FIXTURE_IDS.file,
    _id: `${MEDIA_FIXTURE_IDS.file}-v1`,
    kind: "file",
    status: "completed",
    url: sampleImageUrl,
    originalFilename: "floor-plan.svg",
    mimetype: "image/svg+xml",
    dimensions: null,
  },
];

export const MEDIA_FIXTURES: Record<string, MediaContent> = Object.fromEntries(contents.map((content) => [content.contentId, content]));

/** Answers from the fixtures; a processing fixture stays where it is (nothing is polled). */
export const FIXTURE_MEDIA_SOURCE: MediaSource = {
  fetchLatest: (_kind, contentId) => {
    const content = MEDIA_FIXTURES[contentId];
    return content ? Promise.resolve(content) : Promise.reject(new ApiError(404, contentId));
  },
  poll: () => () => undefined,
};
