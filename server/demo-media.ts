import { execFile } from "node:child_process";
import { stat, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import type { Queryable } from "./db/client";
import type { FfmpegTools } from "./media/ffmpeg";
import { jobNamesFor } from "./media/intake";
import type { MediaStorage } from "./media/storage";
import { insertMedia } from "./media/store";

/*
 * Media of the demo content, made on the first start: trend images drawn by sharp (a few milliseconds each) and
 * case videos from ffmpeg's test sources (2 s, 640×360 at 10 fps, the ultrafast preset: about 0.15 s each, made side
 * by side). Each video gets its transcode and still-creation jobs, so the job pipeline makes its
 * stills in the background as for an upload. Without ffmpeg the cases have no video and the start goes on.
 */

const run = promisify(execFile);

export interface DemoMediaDeps {
  storage: MediaStorage;
  ffmpeg: FfmpegTools | null;
}

interface Owner {
  bucketId: string;
  userId: string;
}

/** A 960×600 JPEG: a diagonal gradient with two soft circles. */
export async function demoImage(
  db: Queryable,
  deps: DemoMediaDeps,
  owner: Owner,
  image: { name: string; from: string; to: string },
): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="600">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${image.from}"/><stop offset="1" stop-color="${image.to}"/></linearGradient></defs>
    <rect width="960" height="600" fill="url(#g)"/>
    <circle cx="690" cy="210" r="150" fill="#fff" fill-opacity="0.22"/><circle cx="260" cy="430" r="90" fill="#fff" fill-opacity="0.15"/>
  </svg>`;
  // Only a first start draws them: sharp (and libvips) is not loaded by every start.
  const { default: sharp } = await import("sharp");
  const buffer = await sharp(Buffer.from(svg)).jpeg({ quality: 78 }).toBuffer();
  const key = deps.storage.newKey("jpg");
  const temporary = deps.storage.temporaryPath("jpg");
  await writeFile(temporary, buffer);
  await deps.storage.commit(temporary, key);
  const row = await insertMedia(db, {
    kind: "image",
    originalFilename: `${image.name}.jpg`,
    mimetype: "image/jpeg",
    size: buffer.length,
    width: 960,
    height: 600,
    details: {},
    bucketId: owner.bucketId,
    storageKey: key,
    createdBy: owner.userId,
  });
  return row.contentId;
}

/** Small enough to be made in a blink on the first start; the demo's cases field allows it (minWidth 640, minHeight 360). */
export const DEMO_VIDEO = { width: 640, height: 360, fps: 10, seconds: 2 } as const;

/** A short video from one of ffmpeg's lavfi sources, in the store, with its jobs; null without ffmpeg or on failure. */
export async function demoVideo(
  db: Queryable,
  deps: DemoMediaDeps,
  owner: Owner,
  video: { name: string; source: string },
): Promise<string | null> {
  if (!deps.ffmpeg) return null;
  const { width, height, fps, seconds } = DEMO_VIDEO;
  const temporary = deps.storage.temporaryPath("mp4");
  try {
    await run(
      deps.ffmpeg.ffmpeg,
      [
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-y",
        "-f",
        "lavfi",
        "-i",
        `${video.source}=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-pix_fmt",
        "yuv420p",
        "-f",
        "mp4",
        temporary,
      ],
      { timeout: 30_000 },
    );
    const { size } = await stat(temporary);
    const key = deps.storage.newKey("mp4");
    await deps.storage.commit(temporary, key);
    const row = await insertMedia(
      db,
      {
        kind: "video",
        originalFilename: `${video.name}.mp4`,
        mimetype: "video/mp4",
        size,
        width,
        height,
        details: { fps, codec: "h264", duration: seconds, hasAudio: false },
        bucketId: owner.bucketId,
        storageKey: key,
        createdBy: owner.userId,
      },
      jobNamesFor("video"),
    );
    return row.contentId;
  } catch {
    // A demo without its video is still a demo: the case shows 'No still yet'.
    await deps.storage.remove(temporary);
    return null;
  }
}
