import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Db } from "@server/db/client";
import { perPerson, PRESENCE_EVENTS, type PresentEditor } from "@core/content/presence";
import { editorsOf, goLive, latestSave, leave, leaveAll, LIVE_RENEW_MS, PRESENCE_CHANNEL, renewAndSweep, type PresencePage } from "./store";

/** One open page's event stream on this server. */
interface Subscriber {
  page: PresencePage;
  send(event: string, data: unknown): void;
  close(): void;
  /** What it was last told of who else is here, so that a change nobody sees is not sent. */
  lastEditors: string | null;
}

/** How long notices about one document are gathered before its pages are told (a save changes rows and a version). */
const GATHER_MS = 30;
/** A comment on every stream this often keeps proxies and load balancers from closing an idle one. */
const KEEPALIVE_MS = 25_000;

/**
 * This server's open presence streams (issue 32, docs/architecture.md "Presence"). Pages are told what changed by
 * the database's notices (server/presence/store.ts's triggers), whichever server caused it: a document's rows are
 * read once per change for all of this server's pages of it, and nothing is read while nothing changes. While it
 * has streams, the server renews their rows every minute (one statement, however many).
 */
export class PresenceHub {
  readonly serverId = randomUUID();
  readonly #byDocument = new Map<string, Set<Subscriber>>();
  readonly #pending = new Map<string, { editors: boolean; saved: boolean; deleted: boolean; timer: NodeJS.Timeout }>();
  #unlisten: (() => Promise<void>) | null = null;
  #renewal: NodeJS.Timeout | null = null;
  #keepalive: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Listens for the database's notices; without `listen` (a database that has none) pages show presence as of load. */
  async start(): Promise<void> {
    if (!this.db.listen) return;
    this.#unlisten = await this.db.listen(
      PRESENCE_CHANNEL,
      (payload) => this.#heard(payload),
      () => {
        for (const contentId of this.#byDocument.keys()) this.#gather(contentId, "editors");
      },
    );
  }

  /** How many streams this server holds (the bench and the tests read it). */
  get openStreams(): number {
    let count = 0;
    for (const subscribers of this.#byDocument.values()) count += subscribers.size;
    return count;
  }

  /**
   * Opens a page's stream: its row becomes this server's, it is told who else is here, a save by someone else since
   * `knownVersionId` (the version the page loaded; a save while it loaded has no notice left to hear), and then every
   * change. Null when the page is not the user's (the caller answers 404); else the way to close it.
   */
  async open(
    page: PresencePage,
    send: Subscriber["send"],
    close: () => void,
    knownVersionId: string | null = null,
  ): Promise<(() => Promise<void>) | null> {
    if (this.#stopped || !(await goLive(this.db, page, this.serverId))) return null;
    const subscriber: Subscriber = { page, send, close, lastEditors: null };
    let subscribers = this.#byDocument.get(page.contentId);
    if (!subscribers) this.#byDocument.set(page.contentId, (subscribers = new Set()));
    subscribers.add(subscriber);
    this.#startTimers();
    this.#tell(subscriber, await editorsOf(this.db, page.contentId));
    if (knownVersionId) {
      const saved = await latestSave(this.db, page.contentId);
      if (saved && saved.versionId !== knownVersionId && saved.authorId !== page.userId) send(PRESENCE_EVENTS.saved, saved);
    }
    let closed = false;
    return async () => {
      if (closed) return;
      closed = true;
      this.#remove(subscriber);
      if (!this.#stopped) await leave(this.db, page.pageId, this.serverId).catch((error: unknown) => this.#warn(error));
    };
  }

  /** Closes every stream (their browsers reconnect, to another server) and removes this server's rows. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopTimers();
    for (const pending of this.#pending.values()) clearTimeout(pending.timer);
    this.#pending.clear();
    for (const subscribers of this.#byDocument.values()) for (const subscriber of subscribers) subscriber.close();
    this.#byDocument.clear();
    await this.#unlisten?.().catch(() => undefined);
    await leaveAll(this.db, this.serverId).catch((error: unknown) => this.#warn(error));
  }

  #remove(subscriber: Subscriber): void {
    const subscribers = this.#byDocument.get(subscriber.page.contentId);
    subscribers?.delete(subscriber);
    if (subscribers?.size === 0) this.#byDocument.delete(subscriber.page.contentId);
    if (this.#byDocument.size === 0) this.#stopTimers();
  }

  #heard(payload: string): void {
    const [kind, contentId] = payload.split(":");
    if (!contentId || !this.#byDocument.has(contentId)) return;
    if (kind === "presence") this.#gather(contentId, "editors");
    else if (kind === "update") this.#gather(contentId, "saved");
    else if (kind === "delete") this.#gather(contentId, "deleted");
  }

  #gather(contentId: string, what: "editors" | "saved" | "deleted"): void {
    let pending = this.#pending.get(contentId);
    if (!pending) {
      const timer = setTimeout(() => void this.#tellDocument(contentId), GATHER_MS);
      this.#pending.set(contentId, (pending = { editors: false, saved: false, deleted: false, timer }));
    }
    pending[what] = true;
  }

  async #tellDocument(contentId: string): Promise<void> {
    const pending = this.#pending.get(contentId);
    this.#pending.delete(contentId);
    const subscribers = this.#byDocument.get(contentId);
    if (!pending || !subscribers || this.#stopped) return;
    try {
      if (pending.deleted) {
        for (const subscriber of subscribers) subscriber.send(PRESENCE_EVENTS.deleted, {});
      } else if (pending.saved) {
        const saved = await latestSave(this.db, contentId);
        for (const subscriber of subscribers)
          if (saved && saved.authorId !== subscriber.page.userId) subscriber.send(PRESENCE_EVENTS.saved, saved);
      }
      if (pending.editors) {
        const editors = await editorsOf(this.db, contentId);
        for (const subscriber of this.#byDocument.get(contentId) ?? []) this.#tell(subscriber, editors);
      }
    } catch (error) {
      this.#warn(error);
    }
  }

  /** Tells a page who else is here (one entry per person, not its own user), unless that is what it was told last. */
  #tell(subscriber: Subscriber, editors: readonly PresentEditor[]): void {
    const others = perPerson(editors.filter((editor) => editor.userId !== subscriber.page.userId));
    const shown = JSON.stringify(others);
    if (shown === subscriber.lastEditors) return;
    subscriber.lastEditors = shown;
    subscriber.send(PRESENCE_EVENTS.editors, others);
  }

  #startTimers(): void {
    if (this.#renewal) return;
    this.#renewal = setInterval(
      () => void renewAndSweep(this.db, this.serverId).catch((error: unknown) => this.#warn(error)),
      LIVE_RENEW_MS,
    );
    this.#renewal.unref();
    this.#keepalive = setInterval(() => {
      for (const subscribers of this.#byDocument.values()) for (const subscriber of subscribers) subscriber.send("", null);
    }, KEEPALIVE_MS);
    this.#keepalive.unref();
  }

  #stopTimers(): void {
    if (this.#renewal) clearInterval(this.#renewal);
    if (this.#keepalive) clearInterval(this.#keepalive);
    this.#renewal = this.#keepalive = null;
  }

  #warn(error: unknown): void {
    this.logger.warn({ err: error }, "presence: a database statement failed");
  }
}
