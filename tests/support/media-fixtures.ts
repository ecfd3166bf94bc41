import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { sameOrigin } from "./http";

/** A PNG of exactly this size, with enough noise to be above the 1024-byte minimum. */
export async function pngOfSize(width: number, height: number): Promise<Buffer> {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let i = 0; i < pixels.length; i += 97) pixels[i] = (i * 31) % 256;
  return sharp(pixels, { raw: { width, height, channels } }).png({ compressionLevel: 1 }).toBuffer();
}

export async function jpegOfSize(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();
}

function crc32(buffer: Buffer): number {
  let crc = ~0;
  for (const byte of buffer) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small, valid PNG whose header claims 100,000 × 100,000 pixels: a decompression bomb. */
export function decompressionBombPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.alloc(1 + 100_000 * 3); // one filter byte and a black row
  const data = deflateSync(Buffer.concat(Array.from({ length: 8 }, () => row)), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", data),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const videoDir = mkdtempSync(path.join(tmpdir(), "vitrine-video-"));
process.once("exit", () => rmSync(videoDir, { recursive: true, force: true }));

/** A video from ffmpeg's lavfi test sources: exact size, frame rate and codec, with a tone. */
export function videoOf(options: {
  width: number;
  height: number;
  fps: number;
  seconds: number;
  codec?: "libx264" | "mpeg4" | "libvpx-vp9";
}): Buffer {
  const codec = options.codec ?? "libx264";
  const ext = codec === "libvpx-vp9" ? "webm" : "mp4";
  const file = path.join(videoDir, `${options.width}x${options.height}-${options.fps}-${options.seconds}-${codec}.${ext}`);
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=${options.width}x${options.height}:rate=${options.fps}:duration=${options.seconds}`,
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:duration=${options.seconds}`,
    "-c:v",
    codec,
    ...(codec === "libx264" ? ["-preset", "ultrafast", "-pix_fmt", "yuv420p"] : []),
    ...(codec === "libvpx-vp9" ? ["-deadline", "realtime", "-cpu-used", "8", "-c:a", "libopus"] : ["-c:a", "aac"]),
    "-shortest",
    file,
  ]);
  return readFileSync(file);
}

export function wavOf(seconds: number): Buffer {
  const file = path.join(videoDir, `tone-${seconds}.wav`);
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`, file]);
  return readFileSync(file);
}

/** POST a multipart upload with fields in order, then the file; never follows redirects. */
export function upload(
  baseUrl: string,
  kind: "image" | "video" | "file",
  cookie: string | undefined,
  fields: Record<string, string>,
  file: { data: Buffer; name: string; type?: string } | null,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("file", new Blob([new Uint8Array(file.data)], { type: file.type ?? "application/octet-stream" }), file.name);
  return fetch(`${baseUrl}/api/v1/media/${kind}/upload${kind === "file" ? "" : "/"}`, {
    method: "POST",
    redirect: "manual",
    headers: cookie ? { Cookie: cookie, ...sameOrigin(baseUrl) } : {},
    body: form,
  });
}

export async function webpOfSize(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 89) pixels[i] = (i * 17) % 256;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .webp({ quality: 90 })
    .toBuffer();
}

/** A JPEG stored `width`×`height` whose EXIF Orientation (6: rotate 90° clockwise) shows it `height`×`width`. */
export async function rotatedJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 61) pixels[i] = (i * 13) % 256;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** POST /api/v1/media/image/crop/{id}: a body object is sent as JSON, a string as is. */
export function postCrop(baseUrl: string, id: string, cookie: string | undefined, body: unknown, contentType = "application/json") {
  return fetch(`${baseUrl}/api/v1/media/image/crop/${id}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": contentType, ...(cookie ? { Cookie: cookie, ...sameOrigin(baseUrl) } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** PUT /api/v1/media/video/{id}/thumb: a body object is sent as JSON, a string as is. */
export function putThumb(baseUrl: string, id: string, cookie: string | undefined, body: unknown) {
  return fetch(`${baseUrl}/api/v1/media/video/${id}/thumb`, {
    method: "PUT",
    redirect: "manual",
    headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie, ...sameOrigin(baseUrl) } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** POST /api/v1/media/{contentId}/still: a custom still, multipart with one file (or several, to test refusals). */
export function uploadStill(
  baseUrl: string,
  contentId: string,
  cookie: string | undefined,
  ...files: Array<{ data: Buffer; name: string; type?: string }>
) {
  const form = new FormData();
  for (const file of files)
    form.append("file", new Blob([new Uint8Array(file.data)], { type: file.type ?? "application/octet-stream" }), file.name);
  return fetch(`${baseUrl}/api/v1/media/${contentId}/still`, {
    method: "POST",
    redirect: "manual",
    headers: cookie ? { Cookie: cookie, ...sameOrigin(baseUrl) } : {},
    body: form,
  });
}
