// Media: the server's memory while a 1 GB upload streams in, and the image and
// video pipelines (upload → stored; upload → transcoded and stills made) against
// the bare sharp and ffmpeg work on the same input.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { median } from "../lib/report.mjs";

const BUCKET = "exhibitions"; // a demo bucket of the seed
const BIG_UPLOAD_BYTES = 1_000_000_000;
const RSS_GROWTH_BUDGET_MIB = 64;
const PIPELINE_RATIO_BUDGET = 1.2;
const IMAGE_RUNS = 9;
const VIDEO = { width: 1920, height: 1080, fps: 25, seconds: 10 };

/** POST a multipart upload whose file part is `fileBytes` long, written from `chunk` repeatedly (never held whole). */
export function streamUpload(server, cookie, kind, { fileBytes, chunk, filename, onProgress }) {
  const boundary = "vitrine-bench-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="bucket"\r\n\r\n${BUCKET}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/api/v1/media/${kind}/upload`, {
      method: "POST",
      headers: {
        Cookie: cookie,
        Origin: server.url,
        "Content-Type": `multipart/form-data; boundary=${boundary}`,
        "Content-Length": String(head.length + fileBytes + tail.length),
      },
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (part) => (body += part));
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("error", reject);
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < fileBytes) {
        const piece = fileBytes - sent >= chunk.length ? chunk : chunk.subarray(0, fileBytes - sent);
        sent += piece.length;
        onProgress?.(sent);
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/** Upload a file from disk (small enough to read whole: the bench's own fixtures). */
export async function uploadFile(server, cookie, kind, file) {
  const form = new FormData();
  form.append("bucket", BUCKET);
  form.append("file", new Blob([await readFile(file)]), path.basename(file));
  const response = await fetch(`${server.url}/api/v1/media/${kind}/upload`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: server.url },
    body: form,
  });
  const body = await response.json();
  if (response.status !== 200 && response.status !== 201)
    throw new Error(`${kind} upload answered ${response.status}: ${JSON.stringify(body)}`);
  return Array.isArray(body) ? body[0] : body;
}

export async function bigUploadMemory(ctx, server, cookie, label = "") {
  // Warm up the upload route first, so the growth measured is the streaming, not the first request's code loading.
  await uploadFile(server, cookie, "file", path.join(ctx.tmpDir, "warmup.bin"));
  await sleep(500);
  const before = server.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rss() ?? 0)), 50);
  const started = performance.now();
  const result = await streamUpload(server, cookie, "file", {
    fileBytes: BIG_UPLOAD_BYTES,
    chunk: Buffer.alloc(1024 * 1024, 7),
    filename: "big.bin",
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (result.status !== 200 && result.status !== 201)
    throw new Error(`the 1 GB upload answered ${result.status}: ${result.body.slice(0, 300)}`);
  const growthMiB = (peak - before) / 2 ** 20;
  ctx.log(
    `1 GB upload${label}: ${seconds.toFixed(1)} s (${(BIG_UPLOAD_BYTES / 2 ** 20 / seconds).toFixed(0)} MiB/s), RSS ${(before / 2 ** 20).toFixed(0)} → peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
  );
  return {
    name: `server RSS growth while a 1 GB upload streams${label}`,
    value: growthMiB,
    unit: "MiB",
    budget: `< ${RSS_GROWTH_BUDGET_MIB} MiB`,
    pass: growthMiB < RSS_GROWTH_BUDGET_MIB,
    note: `${(BIG_UPLOAD_BYTES / 2 ** 20 / seconds).toFixed(0)} MiB/s`,
  };
}

/**
 * The least any server must do with an uploaded image: a bare node:http server
 * that streams the body to a file and reads the header with sharp.
 */
async function startBareImageServer(dir) {
  const { createServer } = await import("node:http");
  const { createWriteStream } = await import("node:fs");
  const { pipeline } = await import("node:stream/promises");
  let count = 0;
  const server = createServer(async (req, res) => {
    const file = path.join(dir, `bare-${count++}.bin`);
    await pipeline(req, createWriteStream(file));
    const { width, height } = await sharp(file, { limitInputPixels: 100_000_000 }).metadata();
    res.end(JSON.stringify({ width, height }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function imagePipeline(ctx, server, cookie) {
  const input = path.join(ctx.tmpDir, "photo.jpg");
  await sharp({ create: { width: 6000, height: 4000, channels: 3, noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .jpeg({ quality: 90 })
    .toFile(input);
  const bareDir = path.join(ctx.tmpDir, "bare-images");
  mkdirSync(bareDir, { recursive: true });
  const bareServer = await startBareImageServer(bareDir);
  const bytes = await readFile(input);
  const ours = [];
  const bare = [];
  try {
    // Both sides send a body built beforehand: the client's multipart encoding is not the server's time.
    const form = new FormData();
    form.append("bucket", BUCKET);
    form.append("file", new Blob([bytes]), "photo.jpg");
    const encoded = new Response(form);
    const contentType = encoded.headers.get("content-type");
    const multipart = Buffer.from(await encoded.arrayBuffer());
    for (let run = 0; run < IMAGE_RUNS; run++) {
      let started = performance.now();
      const answer = await fetch(`${server.url}/api/v1/media/image/upload`, {
        method: "POST",
        headers: { Cookie: cookie, Origin: server.url, "Content-Type": contentType },
        body: multipart,
      });
      const body = await answer.text();
      if (answer.status !== 200) throw new Error(`image upload answered ${answer.status}: ${body}`);
      ours.push(performance.now() - started);
      started = performance.now();
      const response = await fetch(bareServer.url, { method: "POST", body: bytes });
      await response.text();
      bare.push(performance.now() - started);
    }
  } finally {
    await bareServer.close();
    rmSync(bareDir, { recursive: true, force: true });
  }
  const size = (statSync(input).size / 2 ** 20).toFixed(1);
  return ratioRow(
    `image pipeline: upload of a 6000×4000 JPEG (${size} MiB), median of ${IMAGE_RUNS}, vs a bare server (stream to file + sharp metadata)`,
    median(ours),
    median(bare),
  );
}

function runBare(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  return result.stdout;
}

async function videoPipeline(ctx, server, cookie) {
  const worker = await import(pathToFileURL(path.join(ctx.root, ctx.buildDir, "server", "media-worker.js")).href);
  const input = path.join(ctx.tmpDir, "clip.mp4");
  const { width, height, fps, seconds } = VIDEO;
  runBare("ffmpeg", [
    "-y",
    "-loglevel",
    "error",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`,
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:duration=${seconds}`,
    "-c:v",
    "libx264",
    "-preset",
    "ultrafast",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    input,
  ]);

  let started = performance.now();
  const content = await uploadFile(server, cookie, "video", input);
  for (;;) {
    const response = await fetch(`${server.url}/api/v1/buckets/video/content/${content.contentId}/latest`, { headers: { Cookie: cookie } });
    const latest = await response.json();
    if (latest.status === "completed") break;
    if (latest.status === "error") throw new Error(`the video pipeline failed: ${JSON.stringify(latest.jobs)}`);
    await sleep(100);
  }
  const ours = performance.now() - started;

  // Bare: ffprobe, then the worker's own transcode and stills commands, one after the other.
  started = performance.now();
  runBare("ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", input]);
  const outputDir = path.join(ctx.tmpDir, "bare-video");
  mkdirSync(outputDir, { recursive: true });
  const job = { input, outputDir, duration: seconds, stillCount: 5 };
  for (const args of [worker.transcodeArgs(job), worker.stillArgs(job)])
    runBare("ffmpeg", [...worker.INPUT_OPTIONS, "-y", "-loglevel", "error", ...args]);
  const bare = performance.now() - started;
  rmSync(outputDir, { recursive: true, force: true });
  return ratioRow(
    `video pipeline: ${width}×${height} ${seconds} s upload → transcoded + 5 stills vs ffprobe + the same ffmpeg commands`,
    ours,
    bare,
  );
}

function ratioRow(name, oursMs, bareMs) {
  const ratio = oursMs / bareMs;
  return {
    name,
    value: ratio,
    unit: "×",
    budget: `≤ ${PIPELINE_RATIO_BUDGET}×`,
    pass: ratio <= PIPELINE_RATIO_BUDGET,
    note: `ours ${oursMs.toFixed(0)} ms, bare ${bareMs.toFixed(0)} ms`,
  };
}

export async function media(ctx) {
  writeFileSync(path.join(ctx.tmpDir, "warmup.bin"), Buffer.alloc(64 * 1024, 7));
  const server = await ctx.startServer({ profileName: "media" });
  try {
    const cookie = await ctx.signIn(server);
    const rows = [await bigUploadMemory(ctx, server, cookie)];
    rows.push(await imagePipeline(ctx, server, cookie));
    rows.push(await videoPipeline(ctx, server, cookie));
    return rows;
  } finally {
    await server.stop();
  }
}
