// A child process of the job runner (child_process.fork). It holds no state:
// it gets one job at a time over IPC, runs ffmpeg on local files, writes its
// outputs into the directory it was given, and reports progress and the result.
// Its ffmpeg arguments are exported so that the benchmark times the very same
// commands run bare.
import { spawn, type ChildProcess } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { WorkerJob, WorkerMessage } from "../server/jobs/protocol";
import { INPUT_OPTIONS } from "../server/media/ffmpeg";

const TIME_LIMIT_MS = Number(process.env.VITRINE_JOB_TIME_LIMIT_MS ?? 30 * 60 * 1000);

function send(message: WorkerMessage): void {
  process.send?.(message);
}

/** ffmpeg processes running now: killed with the worker when its server goes away. */
const running = new Set<ChildProcess>();

/** Runs ffmpeg with `-progress` on stdout and reports the share of `duration` done. */
function runFfmpeg(job: WorkerJob, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(job.ffmpeg, [...INPUT_OPTIONS, "-y", "-loglevel", "error", "-progress", "pipe:1", "-nostats", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    const timer = setTimeout(() => child.kill("SIGKILL"), TIME_LIMIT_MS);
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
      running.delete(child);
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg ${signal ? `was killed (${signal})` : `exited with ${code}`}: ${stderr.trim()}`));
    });
  });
}

/** H.264/AAC MP4 that browsers play, metadata first for quick start and seeking. */
export function transcodeArgs(job: Pick<WorkerJob, "input" | "outputDir">): string[] {
  return [
    "-i", job.input,
    "-map", "0:v:0", "-map", "0:a:0?",
    "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p",
    "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2",
    "-c:a", "aac", "-b:a", "128k",
    "-movflags", "+faststart",
    path.join(job.outputDir, "rendition.mp4"),
  ];
}

/** A set of evenly spaced stills in one decoding pass. */
export function stillArgs(job: Pick<WorkerJob, "input" | "outputDir" | "duration" | "stillCount">): string[] {
  const count = job.stillCount ?? 5;
  const rate = count / Math.max(job.duration, 0.1);
  return [
    "-i", job.input,
    "-vf", `fps=${rate.toFixed(6)},scale='min(1280,iw)':-2`,
    "-frames:v", String(count),
    "-q:v", "3",
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

// A worker only when forked (with an IPC channel); imported (by the benchmark, for the same commands) it does nothing.
if (process.send) {
  process.on("message", (message: { type: "job"; job: WorkerJob }) => {
    if (message?.type === "job") void runJob(message.job);
  });
  // The server is gone (stopped or killed): its job runs again elsewhere, so stop ffmpeg too rather than leave it
  // running unsupervised until its time limit.
  process.on("disconnect", () => {
    for (const child of running) child.kill("SIGKILL");
    process.exit(0);
  });
  send({ type: "ready" });
}
export { INPUT_OPTIONS };
