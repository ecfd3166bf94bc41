/**
 * The background loop of the job runner and the webhook dispatcher: `work` runs every `intervalMs`, when kicked
 * (new work was queued) and when a wake-up falls due, never twice at once; a kick while it runs is dropped, since
 * the running pass looks at the queue again anyway. Its timers never keep the process alive.
 */
export class PollingLoop {
  private interval: NodeJS.Timeout | undefined;
  private readonly wakeUps = new Set<NodeJS.Timeout>();
  private running = false;
  private started = false;

  constructor(
    private readonly options: {
      intervalMs: number;
      work: () => Promise<void>;
      onError: (error: unknown) => void;
    },
  ) {}

  get isStarted(): boolean {
    return this.started;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.interval = setInterval(() => this.kick(), this.options.intervalMs);
    this.interval.unref();
    this.kick();
  }

  /** Runs the work now unless it is running or the loop is stopped. */
  kick(): void {
    if (this.running || !this.started) return;
    this.running = true;
    void this.options
      .work()
      .catch(this.options.onError)
      .finally(() => (this.running = false));
  }

  /** Kicks after `delayMs` when that comes before the next tick of the interval. */
  wakeAfter(delayMs: number): void {
    if (delayMs >= this.options.intervalMs || !this.started) return;
    const timer = setTimeout(() => {
      this.wakeUps.delete(timer);
      this.kick();
    }, delayMs);
    timer.unref();
    this.wakeUps.add(timer);
  }

  stop(): void {
    this.started = false;
    clearInterval(this.interval);
    for (const timer of this.wakeUps) clearTimeout(timer);
    this.wakeUps.clear();
  }
}
