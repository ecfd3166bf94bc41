import type { Db } from "./client";

/**
 * Planner statistics on PGlite, which has no autovacuum daemon to keep them. Without them the planner guesses that a
 * bucket holds a few dozen documents and that a search matches one in two hundred: on a bucket of 10,000 documents
 * it then tests every document against the search instead of asking the trigram index (half a second instead of
 * milliseconds), and a later page of the overview reads every document to skip the earlier ones.
 *
 * A table is analysed when it has no statistics yet, or when it grew by a fifth since its last analysis (what
 * autovacuum does, counted in pages: PGlite does not keep its change counters across restarts). Tables under
 * MIN_PAGES are left alone: the planner's guesses cost little there, and the start of a small database stays quick.
 */
export const STATISTICS_TABLES = ["contents", "versions", "media_items", "media_uses"] as const;
const MIN_PAGES = 8;
const GROWTH = 1.2;
/**
 * ANALYZE's sample is 300 rows per unit of target, each held whole: at Postgres's default of 100, 30,000 contents
 * rows of about 1.7 kB (their search text) grew PGlite's memory by 56 MiB at 100,000 documents, for good, since
 * WebAssembly memory never shrinks. 30 samples 9,000 rows, stays inside the memory PGlite starts with, and still
 * tells the planner a bucket's size and a search's selectivity (issue 36, point 16; docs/benchmarks.md).
 */
export const STATISTICS_TARGET = 30;

interface TableSize {
  name: string;
  /** Pages when the table was last analysed (or vacuumed); 0 before that. */
  analysedPages: number;
  pages: number;
  hasStatistics: boolean;
}

export function needsAnalyze(table: TableSize): boolean {
  if (table.pages < MIN_PAGES) return false;
  return !table.hasStatistics || table.pages > table.analysedPages * GROWTH;
}

/**
 * Analyses the tables of STATISTICS_TABLES whose statistics are missing or stale; answers their names. Runs before the
 * server listens: it reads pg_statistic itself, not the pg_stats view (a join of five catalogs with a privilege check
 * per column, whose planning made this the slowest statement of a start).
 */
export async function refreshPlannerStatistics(db: Db): Promise<string[]> {
  const { rows } = await db.query<TableSize>(
    `SELECT c.relname AS name, c.relpages AS "analysedPages",
            (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
            EXISTS (SELECT 1 FROM pg_statistic s WHERE s.starelid = c.oid) AS "hasStatistics"
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY($1::text[])`,
    [[...STATISTICS_TABLES]],
  );
  const stale = rows.filter(needsAnalyze).map((row) => row.name);
  // The names come from STATISTICS_TABLES (through pg_class), never from input.
  for (const name of stale) {
    await db.transaction(async (tx) => {
      await tx.exec(`SET LOCAL default_statistics_target = ${STATISTICS_TARGET}`);
      await tx.exec(`ANALYZE ${name}`);
    });
  }
  return stale;
}
