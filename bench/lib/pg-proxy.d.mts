// Types of pg-proxy.mjs for its unit test (tests/unit/bench-pg-proxy.test.ts).
export interface PgCounts {
  syncs: number;
  roundTrips: number;
  parses: number;
  executes: number;
}
export function messageSplitter(onMessage: (type: string, body: Buffer) => void, options?: { startup?: boolean }): (chunk: Buffer) => void;
export function emptyCounts(): PgCounts;
export function connectionCounter(countsOf: () => PgCounts): { fromClient(chunk: Buffer): void; fromServer(chunk: Buffer): void };
export function startPgProxy(target: { host: string; port: number }): Promise<{
  port: number;
  counts(): PgCounts;
  reset(): void;
  close(): Promise<void>;
}>;
