import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PollingLoop } from "./polling-loop";

/** A loop whose work counts its runs and finishes when the test says so. */
function countingLoop(intervalMs = 1000) {
  const finishers: Array<() => void> = [];
  const errors: unknown[] = [];
  let runs = 0;
  const loop = new PollingLoop({
    intervalMs,
    work: () => {
      runs++;
      return new Promise<void>((resolve) => finishers.push(resolve));
    },
    onError: (error) => errors.push(error),
  });
  const finishAll = async () => {
    for (const finish of finishers.splice(0)) finish();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { loop, runs: () => runs, finishAll, errors };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the polling loop", () => {
  it("runs at start and every interval, never twice at once", async () => {
    const { loop, runs, finishAll } = countingLoop();
    loop.start();
    expect(runs()).toBe(1);
    loop.kick();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs()).toBe(1); // the first pass still runs: neither the kick nor the tick starts a second
    await finishAll();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs()).toBe(2);
    await finishAll();
    loop.kick();
    expect(runs()).toBe(3);
    loop.stop();
  });

  it("does nothing before start and after stop, and forgets its wake-ups when stopped", async () => {
    const { loop, runs, finishAll } = countingLoop();
    loop.kick();
    loop.wakeAfter(10);
    expect(runs()).toBe(0);
    loop.start();
    await finishAll();
    loop.wakeAfter(200);
    loop.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs()).toBe(1);
    expect(loop.isStarted).toBe(false);
  });

  it("wakes up for work due before the next tick, and leaves later work to the interval", async () => {
    const { loop, runs, finishAll } = countingLoop(1000);
    loop.start();
    await finishAll();
    loop.wakeAfter(300);
    loop.wakeAfter(1000);
    await vi.advanceTimersByTimeAsync(299);
    expect(runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs()).toBe(2);
    await finishAll();
    await vi.advanceTimersByTimeAsync(699);
    expect(runs()).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs()).toBe(3); // the interval's tick, not a wake-up of its own
    loop.stop();
  });

  it("hands a failed pass to onError and runs again at the next tick", async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const loop = new PollingLoop({
      intervalMs: 100,
      work: () => {
        runs++;
        return Promise.reject(new Error(`pass ${runs}`));
      },
      onError: (error) => errors.push(error),
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    expect(errors.map((error) => (error as Error).message)).toEqual(["pass 1", "pass 2"]);
    loop.stop();
  });
});
