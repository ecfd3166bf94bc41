// A child process of the job runner (child_process.fork). It holds no state:
// it gets one job at a time over IPC, runs ffmpeg on local files, writes its
// outputs into the directory it was given, and reports progress and the result.
// Its ffmpeg arguments are exported so that the benchmark times the very same
// commands run bare.
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { killProcessGroup } from "@server/jobs/process-group";
import { parseRunnerMessage, type WorkerJob, type WorkerMessage } from "@server/jobs/protocol";
import { INPUT_OPTIONS } from "@server/media/ffmpeg";

function send(message: WorkerMessage): void {
  process.send?.(message);
}

/** Process groups of the ffmpeg runs going on now. */
const running = new Set<number>();

/** Runs ffmpeg with `-progress` on stdout and reports the share of `duration` done. */
function runFfmpeg(job: WorkerJob, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // detached: ffmpeg leads a process group of its own, which the runner kills should this worker die. ffmpeg
    // ignores SIGPIPE itself, so a dead worker's closed pipes would not stop it.
    const child = spawn(job.ffmpeg, [...INPUT_OPTIONS, "-y", "-loglevel", "error", "-progress", "pipe:1", "-nostats", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const group = child.pid;
    if (group !== undefined) {
      running.add(group);
      send({ type: "started", jobId: job.jobId, processGroup: group });
    }
    const timer = setTimeout(() => group !== undefined && killProcessGroup(group), job.timeLimitMs);
    const ended = () => {
      if (group !== undefined) running.delete(group);
      clearTimeout(timer);
    };
    let stderr = "";
    let lastReported = -1;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      const match = /out_time_(?:us|ms)=(\d+)/.exec(chunk.split("\n").reverse().join("\n"));
      if (!match || !job.duration) return;
      const progress = Math.min(99, Math.floor((Number(match[1]) / 1e6 / job.duration) * 100));
      if (progress > lastReported) {
        lastReported = progress;
        send({ type: "progress", jobId: job.jobId, progress });
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.on("error", (error) => {
      ended();
      reject(error);
    });
    child.on("close", (code, signal) => {
      ended();
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg ${signal ? `was killed (${signal})` : `exited with ${code}`}: ${stderr.trim()}`));
    });
  });
}

/** H.264/AAC MP4 that browsers play, metadata first for quick start and seeking. */
export function transcodeArgs(job: Pick<WorkerJob, "input" | "outputDir">): string[] {
  return [
    "-i",
    job.input,
    "-map",
    "0:v:0",
    "-map",
    "0:a:0?",
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "23",
    "-pix_fmt",
    "yuv420p",
    "-vf",
    "scale=trunc(iw/2)*2:trunc(ih/2)*2",
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    "-movflags",
    "+faststart",
    path.join(job.outputDir, "rendition.mp4"),
  ];
}

/** A set of evenly spaced stills in one decoding pass. */
export function stillArgs(job: Pick<WorkerJob, "input" | "outputDir" | "duration" | "stillCount">): string[] {
  const rate = job.stillCount / Math.max(job.duration, 0.1);
  return [
    "-i",
    job.input,
    "-vf",
    `fps=${rate.toFixed(6)},scale='min(1280,iw)':-2`,
    "-frames:v",
    String(job.stillCount),
    "-q:v",
    "3",
    path.join(job.outputDir, "still-%d.jpg"),
  ];
}

async function runJob(job: WorkerJob): Promise<void> {
  try {
    await runFfmpeg(job, job.name === "transcode" ? transcodeArgs(job) : stillArgs(job));
    const outputs = (await readdir(job.outputDir)).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    if (!outputs.length) throw new Error("ffmpeg wrote no output");
    send({ type: "done", jobId: job.jobId, outputs });
  } catch (error) {
    send({ type: "failed", jobId: job.jobId, error: error instanceof Error ? error.message : String(error) });
  }
}

/** The server is gone or stops us: its job runs again elsewhere, so ffmpeg must not run on unsupervised. */
function endFfmpegAndExit(): void {
  for (const group of running) killProcessGroup(group);
  process.exit(0);
}

// A worker only when forked (with an IPC channel); imported (by the benchmark, for the same commands) it does nothing.
if (process.send) {
  process.on("message", (raw: unknown) => {
    const parsed = parseRunnerMessage(raw);
    if (parsed.ok) void runJob(parsed.message.job);
    else console.error(`media worker ${process.pid}: a malformed message was ignored: ${parsed.problem}`);
  });
  process.on("disconnect", endFfmpegAndExit);
  // Ctrl-C reaches the terminal's process group, which ffmpeg has left: pass it on.
  process.on("SIGINT", endFfmpegAndExit);
  process.on("SIGTERM", endFfmpegAndExit);
  send({ type: "ready" });
}
export { INPUT_OPTIONS };
