/** The contentIds of the style guide's media contents (media-fixtures.ts). */
export const MEDIA_FIXTURE_IDS = {
  image: "style-guide-image",
  video: "style-guide-video",
  file: "style-guide-file",
  processing: "style-guide-video-processing",
  failed: "style-guide-video-failed",
} as const;
