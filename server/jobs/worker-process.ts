import { fork, type ChildProcess } from "node:child_process";
import type { Logger } from "pino";
import { killProcessGroup } from "./process-group";
import { parseWorkerMessage, type RunnerMessage, type WorkerJob, type WorkerMessage } from "./protocol";

interface RunningJob {
  jobId: string;
  onProgress(progress: number): void;
  settle(error: Error | null, outputs?: string[]): void;
}

/**
 * One forked media worker, running one job at a time. ffmpeg runs in a process group of its own, which the
 * worker reports; when the worker dies, however it dies (SIGKILL included), that group is killed too: ffmpeg
 * ignores SIGPIPE, so losing the worker's end of its pipes would not stop it.
 */
export class WorkerProcess {
  private readonly child: ChildProcess;
  private ffmpegGroup: number | null = null;
  private job: RunningJob | null = null;
  private exited = false;

  /** `env` is the worker's whole environment: it needs no more than the PATH to find ffmpeg, and no secrets. */
  constructor(
    workerPath: string,
    env: NodeJS.ProcessEnv,
    private readonly logger: Logger,
  ) {
    this.child = fork(workerPath, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], serialization: "json", env });
    // A worker that dies while a message is on its way fails that send (EPIPE) as an 'error' event: the job's
    // own exit handling deals with it; without a listener it would end the whole server.
    this.child.on("error", (error) => logger.warn({ err: error, pid: this.child.pid }, "media worker error"));
    this.child.on("message", (raw: unknown) => this.receive(raw));
    this.child.on("exit", (code, signal) => {
      this.exited = true;
      this.endFfmpeg();
      this.job?.settle(new Error(`the worker stopped (${signal ?? code})`));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Can take a job: alive (its 'exit' can come before its channel closes), connected, not busy. */
  get usable(): boolean {
    return !this.job && !this.exited && this.child.connected && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Runs one job; resolves with the names of its outputs in `job.outputDir`, rejects when it failed. */
  run(job: WorkerJob, onProgress: (progress: number) => void): Promise<string[]> {
    if (this.job) return Promise.reject(new Error("the worker is running another job"));
    return new Promise((resolve, reject) => {
      const running: RunningJob = {
        jobId: job.jobId,
        onProgress,
        settle: (error, outputs) => {
          if (this.job !== running) return;
          this.job = null;
          if (error) reject(error);
          else resolve(outputs ?? []);
        },
      };
      this.job = running;
      const message: RunnerMessage = { type: "job", job };
      this.child.send(message, (error) => {
        if (!error) return;
        running.settle(new Error(`the job could not be handed to the worker: ${error.message}`));
        this.kill();
      });
    });
  }

  /** Ends the worker and its ffmpeg at once (the server stops). */
  kill(): void {
    this.child.kill("SIGKILL");
    this.endFfmpeg();
  }

  private endFfmpeg(): void {
    if (this.ffmpegGroup !== null) killProcessGroup(this.ffmpegGroup);
    this.ffmpegGroup = null;
  }

  private receive(raw: unknown): void {
    const parsed = parseWorkerMessage(raw);
    if (!parsed.ok) {
      this.logger.warn({ pid: this.child.pid, problem: parsed.problem }, "media worker: a malformed message was ignored");
      return;
    }
    this.handle(parsed.message);
  }

  private handle(message: WorkerMessage): void {
    if (message.type === "ready") return;
    const job = this.job;
    if (message.type === "started") {
      // An ffmpeg no job is waiting for (its worker already gone, or its job given up) must not run on.
      if (this.exited || message.jobId !== job?.jobId) killProcessGroup(message.processGroup);
      else this.ffmpegGroup = message.processGroup;
      return;
    }
    if (!job || message.jobId !== job.jobId) return;
    if (message.type === "progress") job.onProgress(message.progress);
    else {
      // The worker answers only once its ffmpeg has exited: the group id is no longer ours to kill.
      this.ffmpegGroup = null;
      if (message.type === "done") job.settle(null, message.outputs);
      else job.settle(new Error(message.error));
    }
  }
}
