/*
 * A test's reader of a server-sent event stream (text/event-stream) over real HTTP, as a browser's EventSource
 * reads it: events with a name and JSON data, waited for by name and predicate with a deadline.
 */

export interface StreamEvent {
  event: string;
  data: unknown;
}

export interface OpenEventStream {
  response: Response;
  /** Every event read so far, in order. */
  events: StreamEvent[];
  /** The first event read from `from` on (an index into `events`) with this name that `matches`; rejects at the deadline. */
  next(event: string, matches?: (data: unknown) => boolean, options?: { from?: number; timeoutMs?: number }): Promise<unknown>;
  close(): void;
}

export async function openEventStream(baseUrl: string, path: string, cookie: string): Promise<OpenEventStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    headers: { Cookie: cookie, Accept: "text/event-stream" },
    signal: controller.signal,
    redirect: "manual",
  });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = "";
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffered += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffered.indexOf("\n\n")) >= 0) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const name = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (name && data !== undefined) events.push({ event: name, data: JSON.parse(data) as unknown });
            for (const wake of waiters) wake();
          }
        }
      } catch {
        // aborted by close()
      } finally {
        ended = true;
        for (const wake of waiters) wake();
      }
    })();
  }
  return {
    response,
    events,
    next(event, matches = () => true, { from = 0, timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = events.slice(from).find((entry) => entry.event === event && matches(entry.data));
          if (found) {
            finish(() => resolve(found.data));
            return;
          }
          if (ended) finish(() => reject(new Error(`the stream ended before a "${event}" event: ${JSON.stringify(events)}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`no "${event}" event within ${timeoutMs} ms: ${JSON.stringify(events)}`))),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(look);
          settle();
        };
        waiters.add(look);
        look();
      });
    },
    close: () => controller.abort(),
  };
}
