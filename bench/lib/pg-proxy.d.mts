// Types of pg-proxy.mjs for its unit test (tests/unit/bench-pg-proxy.test.ts).
export interface PgCounts {
  syncs: number;
  roundTrips: number;
  parses: number;
  executes: number;
}
export function messageSplitter(onMessage: (type: string, body: Buffer) => void, options?: { startup?: boolean }): (chunk: Buffer) => void;
export function emptyCounts(): PgCounts;
export function statementReader(onStatement: (text: string) => void): (type: string, body: Buffer) => void;
export function connectionCounter(
  countsOf: () => PgCounts,
  onStatement?: (text: string) => void,
): { fromClient(chunk: Buffer): void; fromServer(chunk: Buffer): void };
export function startPgProxy(target: { host: string; port: number }): Promise<{
  port: number;
  counts(): PgCounts;
  statements(): Record<string, number>;
  reset(): void;
  close(): Promise<void>;
}>;
