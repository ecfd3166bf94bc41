import type { JobName } from "../media/store";

/** What the runner sends a worker: everything the job needs, as local paths. */
export interface WorkerJob {
  jobId: string;
  name: JobName;
  ffmpeg: string;
  input: string;
  /** An empty temporary directory for the outputs; the runner renames them into place. */
  outputDir: string;
  /** Seconds, for progress. */
  duration: number;
  stillCount?: number;
}

export type WorkerMessage =
  | { type: "ready" }
  | { type: "progress"; jobId: string; progress: number }
  | { type: "done"; jobId: string; outputs: string[] }
  | { type: "failed"; jobId: string; error: string };
