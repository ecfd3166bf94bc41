import type { PGlite } from "@electric-sql/pglite";
import type * as Pg from "pg";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import type { Logger } from "pino";
import { claimDataDir, type DataDirLock } from "./data-dir-lock";
import type { ReadCache } from "./read-cache";
import { limitWasmCompilationTasks } from "./wasm-compilation";
import { holdEventLoop } from "@server/event-loop-hold";
import { NoticeConnection } from "./notices";

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs a script of several statements, without parameters. */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** PGlite only: this process's claim on the data directory, through which the CLI can reach it. */
  readonly dataDirLock?: DataDirLock;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Calls `onPayload` with each notice (pg_notify) on `channel`; answers the way to stop. PGlite calls it before the
   * statement that sent it settles. PostgreSQL delivers it after the sender's commit, on a connection of its own
   * (db/notices.ts), which comes back by itself when lost: `onResumed` is then called, since notices sent meanwhile
   * are gone.
   */
  listen?(channel: string, onPayload: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>>;
  /** PGlite only, set by the server: what every request reads, kept true by the database's notices (read-cache.ts). */
  readonly readCache?: ReadCache;
  /**
   * PGlite only: runs `fn` while no other statement or transaction runs, with `query` to read meanwhile: what it
   * reads and the data directory's files are then one state (a backup copies them: server/backup/pglite-snapshot.ts).
   */
  exclusively?<T>(fn: (query: Queryable["query"]) => Promise<T>): Promise<T>;
}

/** Thrown when the database cannot be reached; the web layer answers 503. */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super("The database is unavailable", { cause });
    this.name = "DatabaseUnavailableError";
  }
}

const CONNECTION_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? "";
  return (
    CONNECTION_ERROR_CODES.has(code) ||
    code.startsWith("08") ||
    /Connection terminated|connection timeout|Client has encountered a connection error/i.test(error.message)
  );
}

function wrapConnectionErrors<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error: unknown) => {
    throw isConnectionError(error) ? new DatabaseUnavailableError(error) : error;
  });
}

/**
 * PGlite's Postgres would keep 128 MB of shared buffers, all of it touched at start: most of an idle server's
 * memory. Pages it does not keep are read back through the operating system's cache, so a small pool costs little.
 */
export const PGLITE_SHARED_BUFFERS_DEFAULT = "16MB";

/** Opens the embedded database, claiming DATA_DIR for this process (DataDirInUseError when another holds it). */
export async function openPglite(dataDir: string, options: { sharedBuffers?: string } = {}): Promise<Db> {
  const dir = path.resolve(dataDir, "pgdata");
  mkdirSync(dir, { recursive: true });
  const lock = await claimDataDir(path.resolve(dataDir), dir);
  limitWasmCompilationTasks();
  // Loaded here, not at the top: a server on PostgreSQL never needs the embedded database.
  const [{ PGlite }, { pg_trgm }, { PgliteStatements }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("./pglite-statements"),
  ]);
  let db: PGlite;
  // The command line opens it with nothing else in the loop (event-loop-hold.ts).
  const releaseEventLoop = holdEventLoop();
  try {
    db = await PGlite.create(dir, {
      extensions: { pg_trgm },
      startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${options.sharedBuffers ?? PGLITE_SHARED_BUFFERS_DEFAULT}`],
    });
  } catch (error) {
    await lock.release();
    throw error;
  } finally {
    releaseEventLoop();
  }
  const toResult = <T>(result: { rows: T[]; affectedRows?: number }): QueryResult<T> => ({
    rows: result.rows,
    rowCount: result.affectedRows ?? result.rows.length,
  });
  const statements = new PgliteStatements(db);
  return {
    kind: "pglite",
    dataDirLock: lock,
    async query<T>(sql: string, params?: unknown[]) {
      // PGlite's locks, as its own `query` takes them: no statement runs inside another caller's transaction.
      return toResult(await db._runExclusiveTransaction(() => db.runExclusive(() => statements.run<T>(sql, params))));
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    exclusively: (fn) =>
      db._runExclusiveTransaction(() =>
        db.runExclusive(() => fn(async <T>(sql: string, params?: unknown[]) => toResult(await statements.run<T>(sql, params)))),
      ),
    transaction(fn) {
      return db.transaction((tx) =>
        fn({
          // The transaction's lock is held by this callback: only the query lock is taken per statement.
          query: async <T>(sql: string, params?: unknown[]) => toResult(await db.runExclusive(() => statements.run<T>(sql, params))),
          exec: async (sql: string) => {
            await tx.exec(sql);
          },
        }),
      );
    },
    async close() {
      try {
        await db.close();
      } finally {
        await lock.release();
      }
    },
  };
}

const preparedNames = new Map<string, string>();

/**
 * Marks a hot statement (one of every request's): on PostgreSQL each pooled connection parses and plans it once,
 * as a named prepared statement, and then only binds and runs it. Answers the text unchanged. Only for fixed texts
 * (each distinct text is one prepared statement per connection) whose plan does not depend on the values.
 */
export function prepared(sql: string): string {
  if (!preparedNames.has(sql)) preparedNames.set(sql, `vitrine_${preparedNames.size + 1}`);
  return sql;
}

/**
 * node-postgres's query config: a prepared statement's name with its text, else the text. Without named statements
 * (`preparedStatements: false`) every statement goes as the unnamed one, as PgBouncer's transaction pooling needs
 * before its version 1.21: a named statement prepared on one server connection is unknown on the next.
 */
function pgQuery(sql: string, params: unknown[] | undefined, preparedStatements: boolean): Pg.QueryConfig {
  const name = preparedStatements ? preparedNames.get(sql) : undefined;
  return name ? { name, text: sql, values: params } : { text: sql, values: params };
}

export interface PostgresOptions {
  logger?: Logger;
  /** Connections this process keeps at most (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** Whether hot statements are named prepared statements (DATABASE_PREPARED_STATEMENTS). */
  preparedStatements?: boolean;
}

let pgModule: typeof Pg | undefined;
/** The PostgreSQL driver, loaded by the first pool: a server on the embedded database never needs it. */
const loadPg = (): typeof Pg => (pgModule ??= createRequire(import.meta.url)("pg") as typeof Pg);

export function openPostgres(connectionString: string, options: PostgresOptions = {}): Db {
  const { logger, poolSize = 10, preparedStatements = true } = options;
  let notices: NoticeConnection | undefined;
  const pool = new (loadPg().Pool)({
    connectionString,
    max: poolSize,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on("error", (error) => logger?.warn({ err: error }, "idle database connection lost"));
  const asResult = <T>(result: Pg.QueryResult): QueryResult<T> => ({
    rows: result.rows as T[],
    rowCount: result.rowCount ?? 0,
  });
  return {
    kind: "postgres",
    query: <T>(sql: string, params?: unknown[]) =>
      wrapConnectionErrors(pool.query(pgQuery(sql, params, preparedStatements))).then((result) => asResult<T>(result)),
    exec: (sql: string) => wrapConnectionErrors(pool.query(sql)).then(() => undefined),
    async transaction(fn) {
      const client = await wrapConnectionErrors(pool.connect());
      // Only for as long as this transaction holds the client: pooled clients are reused, listeners would pile up.
      const onError = (error: Error) => logger?.warn({ err: error }, "database connection lost in transaction");
      client.on("error", onError);
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await fn({
          query: async <T>(sql: string, params?: unknown[]) => asResult<T>(await client.query(pgQuery(sql, params, preparedStatements))),
          exec: async (sql: string) => {
            await client.query(sql);
          },
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        broken = isConnectionError(error);
        if (!broken) await client.query("ROLLBACK").catch(() => undefined);
        throw broken ? new DatabaseUnavailableError(error) : error;
      } finally {
        client.off("error", onError);
        client.release(broken);
      }
    },
    listen(channel, onPayload, onResumed) {
      notices ??= new NoticeConnection(() => new (loadPg().Client)({ connectionString, connectionTimeoutMillis: 5000 }), logger);
      return notices.listen(channel, onPayload, onResumed);
    },
    async close() {
      await notices?.close();
      await pool.end();
    },
  };
}

export function openDatabase(
  options: {
    databaseUrl?: string;
    dataDir: string;
    pgliteSharedBuffers?: string;
  } & PostgresOptions,
): Promise<Db> {
  return options.databaseUrl
    ? Promise.resolve(openPostgres(options.databaseUrl, options))
    : openPglite(options.dataDir, { sharedBuffers: options.pgliteSharedBuffers });
}
