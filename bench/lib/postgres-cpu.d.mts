// Types of postgres-cpu.mjs for its unit test (tests/unit/bench-report.test.ts).
export function backendDatabase(title: string): string | null;
export function samplePostgresCpu(databases: string[]): { stop(): number | null };
