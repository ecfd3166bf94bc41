import type * as Pg from "pg";
import type { Logger } from "pino";

interface Listener {
  channel: string;
  onPayload: (payload: string) => void;
  onResumed?: () => void;
}

/** How long a lost connection waits before it is opened again; doubled per failure up to the last. */
const RECONNECT_DELAYS_MS = [250, 500, 1000, 2000, 5000];

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * PostgreSQL's notices (LISTEN) for one process: one connection of its own, outside the pool (a pooled connection
 * goes back after each statement and would stop hearing), opened at the first `listen` and opened again when
 * lost, each channel listened to again; its listeners are then told (`onResumed`) that notices may have been
 * missed.
 */
export class NoticeConnection {
  readonly #listeners = new Set<Listener>();
  #client: Pg.Client | null = null;
  #connecting: Promise<Pg.Client> | null = null;
  #failures = 0;
  #retry: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(
    private readonly newClient: () => Pg.Client,
    private readonly logger?: Logger,
  ) {}

  async listen(channel: string, onPayload: (payload: string) => void, onResumed?: () => void): Promise<() => Promise<void>> {
    const listener: Listener = { channel, onPayload, onResumed };
    const alreadyHeard = this.#channels().has(channel);
    this.#listeners.add(listener);
    const client = await this.#connected();
    if (!alreadyHeard) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    return async () => {
      this.#listeners.delete(listener);
      if (this.#channels().has(channel) || !this.#client) return;
      await this.#client.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#listeners.clear();
    const client = this.#client ?? (await this.#connecting?.catch(() => null));
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  #channels(): Set<string> {
    return new Set([...this.#listeners].map((listener) => listener.channel));
  }

  #connected(): Promise<Pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= this.#open().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  async #open(): Promise<Pg.Client> {
    const client = this.newClient();
    client.on("notification", (notice) => {
      for (const listener of this.#listeners) if (listener.channel === notice.channel) listener.onPayload(notice.payload ?? "");
    });
    client.on("error", (error) => {
      this.logger?.warn({ err: error }, "the connection for database notices was lost");
      this.#lost(client);
    });
    client.on("end", () => this.#lost(client));
    await client.connect();
    for (const channel of this.#channels()) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    this.#client = client;
    this.#failures = 0;
    return client;
  }

  #lost(client: Pg.Client): void {
    if (this.#client !== client) return;
    this.#client = null;
    void client.end().catch(() => undefined);
    this.#reconnect();
  }

  #reconnect(): void {
    if (this.#closed || this.#retry || this.#listeners.size === 0) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(this.#failures, RECONNECT_DELAYS_MS.length - 1)];
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#connected().then(
        () => {
          if (this.#closed) return;
          for (const listener of this.#listeners) listener.onResumed?.();
        },
        (error: unknown) => {
          this.#failures += 1;
          this.logger?.warn({ err: error }, "reopening the connection for database notices failed");
          this.#reconnect();
        },
      );
    }, delay);
    this.#retry.unref();
  }
}
