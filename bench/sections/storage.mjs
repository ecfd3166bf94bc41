// Media storage: the same uploads and reads with media on the file system and in an S3-compatible store (s3rver, a
// real S3 HTTP server, in a process of its own), in the same run; and the server's memory while a 1 GB upload goes
// to S3 (it is streamed up in parts, never held).
import { spawnSync } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { copyDataDir } from "../lib/database.mjs";
import { startS3Server } from "../lib/s3-server.mjs";
import { bigUploadMemory } from "./media.mjs";

const BUCKET = "exhibitions"; // a demo bucket of the seed
const VIDEO_BYTES_TARGET = 200 * 2 ** 20;
const IMAGES = 1000;
const IMAGE_CONCURRENCY = 8;
const RSS_GROWTH_BUDGET_MIB = 64;
/** S3 through a JavaScript S3 server on the same two cores: within this fraction of the file system passes. */
const S3_FRACTION_BUDGET = 0.25;

/** A real H.264 video of about 200 MB (a high bitrate keeps the encoding short). */
function makeVideo(ctx) {
  const file = path.join(ctx.tmpDir, "storage-200mb.mp4");
  const seconds = 20;
  const bitrate = Math.round((VIDEO_BYTES_TARGET * 8) / seconds);
  const result = spawnSync("ffmpeg", [
    ...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=1280x720:rate=25:duration=${seconds}`],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-b:v", String(bitrate), "-minrate", String(bitrate), "-maxrate", String(bitrate)],
    ...["-bufsize", String(bitrate), "-pix_fmt", "yuv420p", "-x264-params", "nal-hrd=cbr", file],
  ]);
  if (result.status !== 0) throw new Error(`ffmpeg could not make the 200 MB video: ${result.stderr}`);
  return file;
}

async function timed(fn) {
  const started = performance.now();
  const value = await fn();
  return { value, seconds: (performance.now() - started) / 1000 };
}

async function pool(count, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

async function uploadBytes(server, cookie, kind, bytes, filename) {
  const form = new FormData();
  form.append("bucket", BUCKET);
  form.append("file", new Blob([bytes]), filename);
  const response = await fetch(`${server.url}/api/v1/media/${kind}/upload`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: server.url },
    body: form,
  });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`${kind} upload answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body[0];
}

async function readBack(server, cookie, url) {
  const response = await fetch(`${server.url}${url.startsWith("http") ? new URL(url).pathname + new URL(url).search : url}`, {
    headers: { Cookie: cookie },
  });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  return bytes;
}

/** Upload and read-back figures of one storage: { videoUp, videoDown, imagesUp, imagesDown } (MiB/s and images/s). */
async function measureStorage(ctx, server, cookie, video, image) {
  const videoBytes = await readFile(video);
  const up = await timed(() => uploadBytes(server, cookie, "video", videoBytes, "storage.mp4"));
  const down = await timed(() => readBack(server, cookie, up.value.url));
  if (down.value !== videoBytes.length) throw new Error(`the video read back ${down.value} of ${videoBytes.length} bytes`);
  const uploaded = [];
  const imagesUp = await timed(() =>
    pool(IMAGES, IMAGE_CONCURRENCY, async (n) => {
      uploaded[n] = (await uploadBytes(server, cookie, "image", image, `small-${n}.jpg`)).url;
    }),
  );
  const imagesDown = await timed(() => pool(IMAGES, IMAGE_CONCURRENCY, (n) => readBack(server, cookie, uploaded[n])));
  const mib = videoBytes.length / 2 ** 20;
  return {
    videoUp: mib / up.seconds,
    videoDown: mib / down.seconds,
    imagesUp: IMAGES / imagesUp.seconds,
    imagesDown: IMAGES / imagesDown.seconds,
  };
}

export async function storage(ctx) {
  const video = makeVideo(ctx);
  const image = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: { r: 40, g: 90, b: 140 } } })
    .jpeg({ quality: 60 })
    .toBuffer();
  ctx.log(`200 MB video: ${(statSync(video).size / 2 ** 20).toFixed(0)} MiB; ${IMAGES} images of ${(image.length / 1024).toFixed(0)} kB`);
  writeFileSync(path.join(ctx.tmpDir, "warmup.bin"), Buffer.alloc(64 * 1024, 7));
  const s3 = await startS3Server(ctx.tmpDir);
  const figures = {};
  let rssRow;
  try {
    for (const [label, env] of [
      ["file system", {}],
      ["S3", s3.env],
    ]) {
      const dataDir = copyDataDir(ctx, `storage-${label === "S3" ? "s3" : "fs"}`);
      const server = await ctx.startServer({ dataDir, env: { ...env, MEDIA_WORKERS: "0" }, profileName: `storage-${label}` });
      try {
        const cookie = await ctx.signIn(server);
        figures[label] = await measureStorage(ctx, server, cookie, video, image);
        ctx.log(`${label}: ${JSON.stringify(Object.fromEntries(Object.entries(figures[label]).map(([k, v]) => [k, Math.round(v)])))}`);
        if (label === "S3") rssRow = await bigUploadMemory(ctx, server, cookie, " to S3");
      } finally {
        await server.stop();
      }
    }
  } finally {
    await s3.stop();
  }
  const row = (name, key, unit) => {
    const value = figures.S3[key];
    const base = figures["file system"][key];
    return {
      name,
      value,
      unit,
      baseline: { label: "file system", value: base },
      budget: `≥ ${S3_FRACTION_BUDGET * 100}% of the file system`,
      pass: value / base >= S3_FRACTION_BUDGET,
    };
  };
  rssRow.budget = `< ${RSS_GROWTH_BUDGET_MIB} MiB`;
  return [
    row("upload a 200 MB video, S3", "videoUp", "MiB/s"),
    row("read a 200 MB video back, S3", "videoDown", "MiB/s"),
    row(`upload ${IMAGES.toLocaleString("en")} small images (${IMAGE_CONCURRENCY} at a time), S3`, "imagesUp", "images/s"),
    row(`read ${IMAGES.toLocaleString("en")} small images back, S3`, "imagesDown", "images/s"),
    rssRow,
  ];
}
