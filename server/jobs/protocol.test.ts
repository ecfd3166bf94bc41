import { describe, expect, it } from "vitest";
import { isWorkerJobName, parseRunnerMessage, parseWorkerMessage, type RunnerMessage, type WorkerMessage } from "./protocol";

const job: RunnerMessage = {
  type: "job",
  job: {
    jobId: "j1",
    name: "transcode",
    ffmpeg: "ffmpeg",
    input: "/m/files/a.mp4",
    outputDir: "/m/tmp/x.part",
    duration: 2.5,
    stillCount: 5,
    timeLimitMs: 60_000,
  },
};

describe("the worker protocol, runner → worker", () => {
  it("accepts a whole job message as it is", () => {
    expect(parseRunnerMessage(structuredClone(job))).toEqual({ ok: true, message: job });
  });

  it.each([
    ["no message", undefined],
    ["a string", "job"],
    ["an unknown type", { type: "shutdown" }],
    ["a job of an unknown name", { ...job, job: { ...job.job, name: "waveform" } }],
    ["a job without its time limit", { ...job, job: { ...job.job, timeLimitMs: undefined } }],
    ["a job with a still count of 0", { ...job, job: { ...job.job, stillCount: 0 } }],
    ["a job with a negative duration", { ...job, job: { ...job.job, duration: -1 } }],
  ])("refuses %s, naming the problem", (_, value) => {
    const parsed = parseRunnerMessage(value);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toMatch(/\S/);
  });
});

describe("the worker protocol, worker → runner", () => {
  it.each<WorkerMessage>([
    { type: "ready" },
    { type: "started", jobId: "j1", processGroup: 4242 },
    { type: "progress", jobId: "j1", progress: 37 },
    { type: "done", jobId: "j1", outputs: ["still-1.jpg", "still-2.jpg"] },
    { type: "failed", jobId: "j1", error: "ffmpeg exited with 1" },
  ])("accepts %j", (message) => {
    expect(parseWorkerMessage(structuredClone(message))).toEqual({ ok: true, message });
  });

  it.each([
    ["an unknown type", { type: "log", text: "hi" }],
    ["a message without its job", { type: "progress", progress: 3 }],
    ["progress over 100", { type: "progress", jobId: "j1", progress: 101 }],
    // process.kill(-1) would signal every process, process.kill(-0) the runner's own group.
    ["process group 1", { type: "started", jobId: "j1", processGroup: 1 }],
    ["process group 0", { type: "started", jobId: "j1", processGroup: 0 }],
    ["a fractional process group", { type: "started", jobId: "j1", processGroup: 12.5 }],
    ["an output that is a path", { type: "done", jobId: "j1", outputs: ["../../files/x.mp4"] }],
    ["a hidden output", { type: "done", jobId: "j1", outputs: [".x"] }],
    ["no outputs", { type: "done", jobId: "j1", outputs: [] }],
    ["a failure without its error", { type: "failed", jobId: "j1" }],
    ["null", null],
  ])("refuses %s", (_, value) => {
    expect(parseWorkerMessage(value).ok).toBe(false);
  });
});

describe("isWorkerJobName", () => {
  it("knows the jobs a worker runs, and only those", () => {
    expect(["transcode", "still-creation", "waveform", "media-convert"].filter(isWorkerJobName)).toEqual(["transcode", "still-creation"]);
  });
});
