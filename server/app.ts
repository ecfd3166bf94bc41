import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { version } from "../package.json";
import type { OutputStream } from "./db/data-dir-lock";
import { checkServerConfig, loadConfig, type Config } from "./config";
import { openDatabase, type Db } from "./db/client";
import { migrate } from "./db/migrate";
import { withReadCache } from "./db/read-cache";
import { holdEventLoop } from "./event-loop-hold";
import { createLogger, type Logger } from "./logger";
import { findFfmpeg } from "./media/ffmpeg";
import type { MediaServices } from "./services";
import type { SeedResult } from "./seed";
import type { WebhookDispatcher } from "./webhooks/dispatcher";
import type { ReleaseScheduler } from "./content/release-scheduler";
import { ImportRunner } from "./content/import-runner";
import type { PresenceHub } from "./presence/hub";
// The composition root hands the specialised screens' table to the engine (docs/decisions/006-screens-as-modules.md).
import { SCREEN_TABLE } from "@screens/table";
import { registerScreens } from "@core/content/screens";

registerScreens(SCREEN_TABLE);

/*
 * The composition root: startServer opens and migrates the database, starts media, seeds a first start, builds the
 * HTTP app and the background work (jobs, webhooks, releases, imports, housekeeping), and stops them in order.
 */

export { loadConfig } from "./config";
// For the server's own process (scripts/start.mjs), not for servers a test runs inside its worker.
export { tuneHeapForMemory } from "./heap-tuning";

/** `npm run vitrine -- <command>` (server/cli.ts), which needs neither the web layer nor React Router's build. */
export async function runCli(
  argv: string[],
  env?: NodeJS.ProcessEnv,
  print?: (stream: OutputStream, text: string) => void,
): Promise<number> {
  const cli = await import("./cli");
  return cli.runCli(argv, SCREEN_TABLE, env, print);
}

export interface StartOptions {
  config?: Config;
  env?: NodeJS.ProcessEnv;
  /** Use this database instead of opening one from the configuration. */
  db?: Db;
  seed?: boolean;
  logger?: Logger;
  build?: ServerBuild | (() => Promise<ServerBuild>);
  clientDir?: string | null;
  mode?: "production" | "development";
  /** Development only: Vite's middleware, run before the app. */
  devMiddleware?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  db: Db;
  config: Config;
  server: Server;
  media: MediaServices;
  /** Sends the webhooks' deliveries (server/webhooks/dispatcher.ts). */
  webhooks: WebhookDispatcher;
  /** Who has which document open (server/presence/hub.ts). */
  presence: PresenceHub;
  /** Imports of documents running in the background (server/content/import-runner.ts). */
  imports: ImportRunner;
  /** Publishes scheduled releases when they are due (server/content/release-scheduler.ts). */
  releases: ReleaseScheduler;
  /** The admin account a first start (no users yet) created: the caller says how to sign in. */
  seeded: SeedResult | null;
  logger: Logger;
  /**
   * Resolves once the media jobs a first start queued for the demo's videos are done (or at the deadline), so the
   * demo shows its stills at once and `npm start` prints its sign-in block after their logs.
   */
  demoMediaSettled(deadlineMs: number): Promise<void>;
  /**
   * Resolves once the job runner, the webhook dispatcher, the release poller and the stale-file sweep have begun (1 s
   * after listening).
   */
  backgroundWorkStarted: Promise<void>;
  close(): Promise<void>;
}

const DEMO_MEDIA_POLL_MS = 200;

/**
 * How long after listening the background work begins: the job runner's and the webhook dispatcher's first look
 * at what a previous run left, and the sweep of stale temporary files. The first requests do not queue behind it:
 * the embedded database answers one query at a time, in this process, and a first query of each table is slow.
 */
export const BACKGROUND_WORK_DELAY_MS = 1000;

// Milliseconds since the process started, when this bundle and its dependencies had been imported.
const IMPORTED_AT = performance.now();

/** Waits while a job the runner may take now is queued or running; a job waiting out a retry's backoff does not count. */
async function jobsSettled(db: Db, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ busy: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM jobs WHERE status = 'processing' OR (status = 'new' AND run_after <= now())) AS busy",
    );
    if (!rows[0]?.busy) return;
    await new Promise((resolve) => setTimeout(resolve, DEMO_MEDIA_POLL_MS));
  }
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  // Until the server listens (its socket then keeps the loop): see event-loop-hold.ts.
  const releaseEventLoop = holdEventLoop();
  try {
    return await start(options);
  } finally {
    releaseEventLoop();
  }
}

async function start(options: StartOptions): Promise<RunningServer> {
  const at: Record<string, number> = { imported: IMPORTED_AT, called: performance.now() };
  const mark = (step: string) => (at[step] = performance.now());
  const config = options.config ?? loadConfig(options.env);
  checkServerConfig(config);
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  mark("configured");
  // The rest of the server (React Router's build with every route, the web layer, media, webhooks) is imported
  // while the database opens and migrates and ffmpeg tells its version: none of them waits for the others.
  const serving = import("./serving");
  serving.catch(() => undefined); // awaited below; a failure to open the database must not leave it unhandled
  const ffmpegFound = findFfmpeg({ ffmpegPath: config.FFMPEG_PATH, ffprobePath: config.FFPROBE_PATH, searchPath: config.PATH });
  const opened =
    options.db ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      logger,
      pgliteSharedBuffers: config.PGLITE_SHARED_BUFFERS,
      poolSize: config.DATABASE_POOL_SIZE,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    }));
  mark("opened");
  await migrate(opened);
  mark("migrated");
  // PGlite: what every request reads, kept in this process (server/db/read-cache.ts).
  const cached = await withReadCache(opened);
  const { db } = cached;
  const {
    analyseStaleTables,
    createHttpApp,
    PresenceHub,
    ReleaseScheduler,
    seedDemoContent,
    serverBuild,
    startMaintenance,
    startMedia,
    WebhookDispatcher,
  } = await serving;
  mark("servingImported");
  // The worker is the build's second entry, beside this file.
  const media = startMedia(config, db, logger, fileURLToPath(new URL("./media-worker.js", import.meta.url)), await ffmpegFound);
  mark("media");
  const seeded =
    (options.seed ?? true)
      ? await seedDemoContent(db, { adminEmail: config.ADMIN_EMAIL, adminPassword: config.ADMIN_PASSWORD, media, screens: SCREEN_TABLE })
      : null;
  mark("seedChecked");
  // PGlite keeps no statistics by itself: a database that was filled while no server ran gets them before the first
  // request, not at the hourly maintenance (server/db/statistics.ts).
  if (db.kind === "pglite") await analyseStaleTables(db, logger);
  mark("statisticsChecked");
  const webhooks = new WebhookDispatcher({
    db,
    logger,
    userAgent: `Vitrine-Webhooks/${version}`,
    settings: {
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
      maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    },
  });
  // Who has which document open, told by the database's notices (server/presence/hub.ts).
  const presence = new PresenceHub(db, logger);
  await presence.start();
  // Scheduled releases: due ones (also those that fell due while no server ran) are published at the first poll.
  const releases = new ReleaseScheduler({ db, logger });
  // Imports of documents started from the web, and those a stop cut off (resumed with the background work).
  const imports = new ImportRunner({
    db,
    media,
    screens: SCREEN_TABLE,
    logger,
    dataDir: config.DATA_DIR,
    defaultLocale: config.DEFAULT_LOCALE,
  });
  const app = createHttpApp({
    build: options.build ?? serverBuild,
    db,
    config,
    logger,
    version,
    media,
    screens: SCREEN_TABLE,
    presence,
    imports,
    clientDir: options.clientDir === null ? undefined : (options.clientDir ?? fileURLToPath(new URL("../client", import.meta.url))),
    mode: options.mode,
  });
  mark("app");
  const devMiddleware = options.devMiddleware;
  const server = createServer(devMiddleware ? (req, res) => devMiddleware(req, res, () => app.listener(req, res)) : app.listener);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
  const url = config.PUBLIC_URL ?? `http://${shownHost}:${port}`;
  mark("listening");
  logger.info({ url, database: db.kind, version }, "Vitrine is listening");
  logger.debug(
    { msSinceProcessStart: Object.fromEntries(Object.entries(at).map(([step, ms]) => [step, Math.round(ms)])) },
    "start-up steps",
  );
  let backgroundWorkBegun = () => {};
  const backgroundWorkStarted = new Promise<void>((resolve) => (backgroundWorkBegun = resolve));
  const startBackgroundWork = () => {
    media.startBackgroundWork();
    if (config.WEBHOOK_DISPATCHER) webhooks.start();
    releases.start();
    imports.begin();
    backgroundWorkBegun();
  };
  // A first start's demo videos wait as jobs (transcode, stills): the runner takes them at once.
  const backgroundStart = seeded ? undefined : setTimeout(startBackgroundWork, BACKGROUND_WORK_DELAY_MS);
  if (seeded) startBackgroundWork();
  // `npm run vitrine -- <command>` while this server holds the embedded database runs here, on the live data.
  db.dataDirLock?.setCommandHandler(async (argv, print) => {
    logger.info({ command: argv[0] }, "running a command-line command");
    const { runCommand } = await import("./cli");
    return runCommand(db, argv, print, { config, storage: media.storage, screens: SCREEN_TABLE });
  });
  const stopMaintenance = startMaintenance(db, logger);
  return {
    url: `http://${shownHost}:${port}`,
    port,
    db,
    config,
    server,
    media,
    webhooks,
    releases,
    presence,
    imports,
    seeded,
    logger,
    backgroundWorkStarted,
    demoMediaSettled: (deadlineMs) => (seeded && config.MEDIA_WORKERS > 0 ? jobsSettled(db, deadlineMs) : Promise.resolve()),
    async close() {
      clearTimeout(backgroundStart);
      stopMaintenance();
      // /readyz answers 503 from now on; responses close their connections.
      app.drain.start();
      // Open pages' event streams end (their browsers reconnect, to another server) and their rows go.
      await presence.stop();
      // The background work first: the jobs and deliveries it holds go back to the queue, for another server at once.
      await webhooks.stop();
      await releases.stop();
      await imports.stop();
      await media.stop();
      if (config.SHUTDOWN_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (!(await app.drain.settled(config.SHUTDOWN_GRACE_MS)))
        logger.warn(
          { graceMs: config.SHUTDOWN_GRACE_MS },
          "stopping: requests still in flight at the end of the grace period were cut off",
        );
      server.closeAllConnections();
      await closed;
      // Only now: uploads in flight wrote into this server's temporary folder until the last request ended.
      await media.storage.close();
      await cached.stop();
      if (!options.db) await db.close();
    },
  };
}
