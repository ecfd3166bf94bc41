import type { Logger } from "pino";
import type { Db } from "@server/db/client";
import { PollingLoop } from "@server/background/polling-loop";
import { publishDueReleases } from "./release-rollout";

/*
 * The release poller: every server runs one (started with the server's other background work, stopped before its
 * database closes). Every few seconds it publishes the scheduled releases that are due (publishDueReleases): the
 * schedule lives in the database, so it survives restarts (a release that fell due while no server ran is published
 * at the next start's first poll), and each release is claimed with FOR UPDATE SKIP LOCKED in the transaction that
 * publishes it, so that with several servers on one PostgreSQL it is published exactly once.
 */

export interface ReleaseSchedulerOptions {
  db: Db;
  logger: Logger;
  /** The clock: when a release is due (tests set it). */
  now?: () => Date;
  /** How often the due releases are looked for. */
  pollMs?: number;
}

export const RELEASE_POLL_MS = 5000;

export class ReleaseScheduler {
  private readonly loop: PollingLoop;
  private readonly now: () => Date;
  private current: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ReleaseSchedulerOptions) {
    this.now = options.now ?? (() => new Date());
    this.loop = new PollingLoop({
      intervalMs: options.pollMs ?? RELEASE_POLL_MS,
      work: async () => {
        await this.track(this.publishDue());
      },
      onError: (error) => options.logger.warn({ err: error }, "releases: looking for due releases failed"),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Looks for due releases now. */
  kick(): void {
    this.loop.kick();
  }

  /**
   * One look, outside the loop (a test's, or a command's): the ids of the releases it published. `at`: the moment it
   * looks at (a browser test's clock; the scheduler's own by default).
   */
  runOnce(at?: Date): Promise<string[]> {
    return this.track(this.publishDue(at));
  }

  /** Stops looking and waits for a publish under way. Call it before the database closes. */
  async stop(): Promise<void> {
    this.loop.stop();
    await this.current.catch(() => undefined);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    const previous = this.current;
    this.current = Promise.all([previous.catch(() => undefined), work.catch(() => undefined)]);
    return work;
  }

  private async publishDue(at = this.now()): Promise<string[]> {
    const { db, logger } = this.options;
    const published = await publishDueReleases(db, at, (releaseId, error) =>
      logger.error({ err: error, releaseId }, "releases: publishing a scheduled release failed; it stays scheduled"),
    );
    for (const releaseId of published) logger.info({ releaseId }, "scheduled release published");
    return published;
  }
}
