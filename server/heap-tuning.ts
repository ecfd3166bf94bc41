import v8 from "node:v8";

/**
 * V8 flags that keep the server's heap near what it holds (issue 36, point 16). Under a read load at 100,000
 * documents on PGlite the heap grew to 120–143 MiB for 30–45 MiB of live objects, and an idle server never gave it
 * back: RSS 374–405 MiB after the load. With these, the heap stayed at 43 MiB and RSS at 282–284 MiB after the same
 * load (budget 300), with the same throughput within the noise (docs/benchmarks.md).
 * - The young generation stays at its first size (1 MiB semi-spaces) instead of doubling up to 16 MiB: overlapping
 *   requests then promote less garbage than a large young generation lets pile up before each scavenge.
 * - A major collection comes once the old generation grew by 30 % over what the last one kept, not by 100 % or more.
 * Both are read by V8 whenever it sizes the heap, so scripts/start.mjs sets them as the server starts (tests/unit/heap-tuning.test.ts
 * proves they still take effect).
 */
export const HEAP_TUNING_FLAGS = ["--semi-space-growth-factor=1", "--heap-growing-percent=30"] as const;

export function tuneHeapForMemory(): void {
  for (const flag of HEAP_TUNING_FLAGS) v8.setFlagsFromString(flag);
}
