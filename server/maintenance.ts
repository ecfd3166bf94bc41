import type { Db } from "./db/client";
import { refreshPlannerStatistics } from "./db/statistics";
import type { Logger } from "./logger";
import { deleteExpiredSessions } from "./accounts/sessions";
import { removeExpired as removeExpiredPresence } from "./presence/store";

/*
 * A running server's housekeeping: every hour, expired sessions and presence rows go (and PGlite, which has no
 * autovacuum daemon, is vacuumed and analysed); every minute, PGlite's tables are checked for stale planner statistics.
 */

/** How often PGlite's tables are checked for missing or stale planner statistics (a cheap query; rarely an ANALYZE). */
const STATISTICS_CHECK_MS = 60_000;
const HOURLY_MS = 60 * 60 * 1000;

/** Analyses the tables whose statistics are missing or stale; a failure is logged, never thrown. */
export async function analyseStaleTables(db: Db, logger: Logger): Promise<void> {
  try {
    const started = performance.now();
    const analysed = await refreshPlannerStatistics(db);
    if (analysed.length) logger.info({ tables: analysed, ms: Math.round(performance.now() - started) }, "planner statistics refreshed");
  } catch (error) {
    logger.warn({ err: error }, "refreshing planner statistics failed");
  }
}

/** Starts the housekeeping timers (they keep no process alive); the function returned stops them. */
export function startMaintenance(db: Db, logger: Logger): () => void {
  const maintain = async () => {
    await deleteExpiredSessions(db);
    await removeExpiredPresence(db);
    // PGlite has no autovacuum daemon: without fresh statistics the planner would not know when the search index
    // pays off. PostgreSQL's autovacuum does this itself.
    if (db.kind === "pglite") await db.exec("VACUUM ANALYZE");
  };
  const hourly = setInterval(
    () => void maintain().catch((error: unknown) => logger.warn({ err: error }, "hourly maintenance failed")),
    HOURLY_MS,
  );
  hourly.unref();
  // A bucket that grew by thousands of documents (an import, a script) is searched with fresh statistics within a minute.
  const statistics = db.kind === "pglite" ? setInterval(() => void analyseStaleTables(db, logger), STATISTICS_CHECK_MS) : null;
  statistics?.unref();
  return () => {
    clearInterval(hourly);
    if (statistics) clearInterval(statistics);
  };
}
