import { execFileSync } from "node:child_process";
import { closeSync, constants, createWriteStream, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";

const CHUNK_BYTES = 64 * 1024;

export interface HeldInput {
  /** Hands the reader the next chunk once it reads; false when only the held-back tail is left. */
  feed(): Promise<boolean>;
  /**
   * Feeds a chunk every `intervalMs` until `reached` holds; fails when the tail is all that is left, or at the
   * deadline. The pace keeps a fast ffmpeg from reading all it may have before the runner records its progress
   * (once a second).
   */
  feedUntil(reached: () => Promise<boolean>, options?: { timeoutMs?: number; intervalMs?: number }): Promise<void>;
  /** Puts the real file back in place of the FIFO (idempotent). */
  release(): void;
}

/**
 * Swaps a stored media file for a FIFO that hands ffmpeg the file's bytes only as the test feeds them, and never
 * its last chunk: a job reading it can never finish before the test lets it, however fast or loaded the machine.
 * ffmpeg reads a FIFO as a stream, which an MP4 with its index first (faststart) allows.
 */
export function holdInput(file: string): HeldInput {
  const bytes = readFileSync(file);
  rmSync(file);
  execFileSync("mkfifo", [file]);
  // Opening a FIFO for writing waits, in libuv's thread pool, until a reader opens it.
  const writer = createWriteStream(file);
  // EPIPE once the reader is killed: the test checks what it cares about itself.
  writer.on("error", () => undefined);
  let fed = 0;
  let released = false;

  const feed = () => {
    if (released || fed + CHUNK_BYTES >= bytes.length) return Promise.resolve(false);
    const chunk = bytes.subarray(fed, fed + CHUNK_BYTES);
    fed += chunk.length;
    return new Promise<boolean>((resolve) => writer.write(chunk, (error) => resolve(!error)));
  };

  return {
    feed,
    async feedUntil(reached, { timeoutMs = 30_000, intervalMs = 25 } = {}) {
      const deadline = Date.now() + timeoutMs;
      while (!(await reached())) {
        if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms (${fed} of ${bytes.length} bytes fed)`);
        if (!(await feed())) throw new Error(`not reached with all but the held-back tail fed (${fed} of ${bytes.length} bytes)`);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
    release() {
      if (released) return;
      released = true;
      // A writer still waiting for its reader is let through by one that opens and closes at once.
      if (writer.pending) closeSync(openSync(file, constants.O_RDONLY | constants.O_NONBLOCK));
      writer.destroy();
      rmSync(file, { force: true });
      writeFileSync(file, bytes);
    },
  };
}

/** Live processes with `argument` among their command-line arguments (zombies have none left). */
export function processesWithArgument(argument: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").includes(argument)) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
