import { z } from "zod";
import type { JobName } from "@core/media/wire";

/*
 * The messages between the job runner and a media worker, both ways. Each side parses what it receives with
 * these schemas: a message that does not fit is logged and ignored, never acted on.
 */

export const WORKER_JOB_NAMES = ["transcode", "still-creation"] as const satisfies readonly JobName[];

// Adding a JobName without a worker for it is a compile error here.
const _everyJobNameRuns: JobName extends (typeof WORKER_JOB_NAMES)[number] ? true : false = true;

export function isWorkerJobName(name: string): name is JobName {
  return (WORKER_JOB_NAMES as readonly string[]).includes(name);
}

const jobId = z.string().min(1);

/** Everything one job needs, as local paths: the worker keeps nothing between jobs. */
const workerJobSchema = z.object({
  jobId,
  name: z.enum(WORKER_JOB_NAMES),
  ffmpeg: z.string().min(1),
  input: z.string().min(1),
  /** An empty temporary directory for the outputs; the runner renames them into place. */
  outputDir: z.string().min(1),
  /** Seconds, for progress. */
  duration: z.number().nonnegative(),
  stillCount: z.number().int().positive(),
  /** Each ffmpeg run is killed after this long. */
  timeLimitMs: z.number().int().positive(),
});

const runnerMessageSchema = z.discriminatedUnion("type", [z.object({ type: z.literal("job"), job: workerJobSchema })]);

/** Output names are joined to the output directory by the runner: a plain file name, never a path. */
const outputName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must be a plain file name");

const workerMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready") }),
  // ffmpeg leads a process group of its own; the runner SIGKILLs the group when the worker dies. Below 2 it would
  // name every process (-1) or the runner's own group (0).
  z.object({ type: z.literal("started"), jobId, processGroup: z.number().int().min(2) }),
  z.object({ type: z.literal("progress"), jobId, progress: z.number().min(0).max(100) }),
  z.object({ type: z.literal("done"), jobId, outputs: z.array(outputName).min(1) }),
  z.object({ type: z.literal("failed"), jobId, error: z.string() }),
]);

export type WorkerJob = z.infer<typeof workerJobSchema>;
/** Runner → worker. */
export type RunnerMessage = z.infer<typeof runnerMessageSchema>;
/** Worker → runner. */
export type WorkerMessage = z.infer<typeof workerMessageSchema>;

export type Parsed<T> = { ok: true; message: T } | { ok: false; problem: string };

function parseWith<T>(schema: z.ZodType<T>, value: unknown): Parsed<T> {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, message: result.data } : { ok: false, problem: z.prettifyError(result.error) };
}

export const parseRunnerMessage = (value: unknown): Parsed<RunnerMessage> => parseWith(runnerMessageSchema, value);
export const parseWorkerMessage = (value: unknown): Parsed<WorkerMessage> => parseWith(workerMessageSchema, value);
