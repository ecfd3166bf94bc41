import { execFile } from "node:child_process";
import { HttpError } from "@server/errors";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import type { VideoFacts } from "@core/media/bounds";

const run = promisify(execFile);

export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
  /** "ffmpeg version 5.1.x …", for the start-up log. */
  version: string;
  source: "environment" | "system" | "ffmpeg-static";
}

/** ffmpeg and ffprobe only ever read local files: no network, no pipes to other programs. */
export const PROBE_OPTIONS = ["-hide_banner", "-protocol_whitelist", "file"];
export const INPUT_OPTIONS = [...PROBE_OPTIONS, "-nostdin"];

async function versionOf(binary: string, searchPath: string | undefined): Promise<string | null> {
  try {
    const { stdout } = await run(binary, ["-version"], { encoding: "utf8", timeout: 10_000, env: { PATH: searchPath ?? "" } });
    return (stdout.split("\n")[0] ?? "").trim();
  } catch {
    return null;
  }
}

export interface FfmpegSearch {
  /** FFMPEG_PATH and FFPROBE_PATH. */
  ffmpegPath?: string;
  ffprobePath?: string;
  /** Where the system's binaries are looked up (the PATH). */
  searchPath?: string;
}

/**
 * FFMPEG_PATH/FFPROBE_PATH, else the system's binaries (Debian's ffmpeg
 * package), else the optional ffmpeg-static package (whose install may have
 * failed: it downloads at install time; it has no ffprobe, so the system's or
 * FFPROBE_PATH's is used with it). Null when video cannot be processed.
 * `rejected` names a configured binary that did not answer.
 */
export async function findFfmpeg(search: FfmpegSearch): Promise<{ tools: FfmpegTools | null; rejected: string[] }> {
  const { ffmpegPath, ffprobePath, searchPath } = search;
  const candidates: Array<{ ffmpeg: string; ffprobe: string; source: FfmpegTools["source"] }> = [];
  if (ffmpegPath || ffprobePath)
    candidates.push({ ffmpeg: ffmpegPath ?? "ffmpeg", ffprobe: ffprobePath ?? "ffprobe", source: "environment" });
  candidates.push({ ffmpeg: "ffmpeg", ffprobe: "ffprobe", source: "system" });
  const fromPackage = ffmpegStaticPath();
  if (fromPackage) candidates.push({ ffmpeg: fromPackage, ffprobe: ffprobePath ?? "ffprobe", source: "ffmpeg-static" });
  const rejected: string[] = [];
  for (const { ffmpeg, ffprobe, source } of candidates) {
    const [version, probeVersion] = await Promise.all([versionOf(ffmpeg, searchPath), versionOf(ffprobe, searchPath)]);
    if (version && probeVersion) return { tools: { ffmpeg, ffprobe, version, source }, rejected };
    if (source === "environment")
      rejected.push(...[!version && ffmpegPath, !probeVersion && ffprobePath].filter((path): path is string => !!path));
  }
  return { tools: null, rejected };
}

function ffmpegStaticPath(): string | null {
  try {
    const resolved = createRequire(import.meta.url)("ffmpeg-static") as unknown;
    return typeof resolved === "string" ? resolved : null;
  } catch {
    return null;
  }
}

export interface ProbedVideo extends VideoFacts {
  duration: number;
  hasAudio: boolean;
}

/** Width, height, frame rate, codec and duration, read by ffprobe within a time limit. */
export async function probeVideo(tools: FfmpegTools, path: string): Promise<ProbedVideo> {
  let output: string;
  try {
    const result = await run(
      tools.ffprobe,
      [...PROBE_OPTIONS, "-v", "error", "-print_format", "json", "-show_streams", "-show_format", path],
      { timeout: 30_000, maxBuffer: 4 * 1024 * 1024 },
    );
    output = result.stdout;
  } catch {
    throw new HttpError(422, "mediaChecks.video.damaged");
  }
  const info = JSON.parse(output) as {
    streams?: Array<{
      codec_type?: string;
      codec_name?: string;
      width?: number;
      height?: number;
      avg_frame_rate?: string;
      r_frame_rate?: string;
      duration?: string;
    }>;
    format?: { duration?: string };
  };
  const video = info.streams?.find((stream) => stream.codec_type === "video");
  if (!video || !video.width || !video.height) throw new HttpError(422, "mediaChecks.video.noStream");
  const duration = Number(info.format?.duration ?? video.duration ?? 0);
  if (!Number.isFinite(duration) || duration <= 0) throw new HttpError(422, "mediaChecks.video.unknownDuration");
  return {
    width: video.width,
    height: video.height,
    fps: frameRate(video.avg_frame_rate) || frameRate(video.r_frame_rate),
    codec: video.codec_name ?? "unknown",
    duration,
    hasAudio: Boolean(info.streams?.some((stream) => stream.codec_type === "audio")),
  };
}

function frameRate(value: string | undefined): number {
  const [numerator, denominator] = (value ?? "0/1").split("/").map(Number);
  return numerator && denominator ? numerator / denominator : 0;
}
