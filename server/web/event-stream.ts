/*
 * Server-sent events (text/event-stream, the HTML standard's EventSource): one long response per open page, written
 * to as things happen. An event with an empty name is a comment, which keeps an idle connection open through
 * proxies.
 */

const encoder = new TextEncoder();

/** How long a browser waits before it reconnects a lost stream (a server that stopped: to another one). */
const RECONNECT_AFTER_MS = 3000;

export function eventText(event: string, data: unknown): string {
  if (!event) return ": keepalive\n\n";
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface EventStream {
  send(event: string, data: unknown): void;
  close(): void;
}

/**
 * A response whose body is an event stream: `open` is called with the stream once it can be written to and
 * answers what to do when it ends (the browser left, `close` was called, or the request was aborted).
 */
export function eventStreamResponse(signal: AbortSignal, open: (stream: EventStream) => () => void): Response {
  let ended = false;
  let onEnd: () => void = () => {};
  const end = () => {
    if (ended) return;
    ended = true;
    signal.removeEventListener("abort", end);
    onEnd();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const stream: EventStream = {
        send(event, data) {
          if (ended) return;
          try {
            controller.enqueue(encoder.encode(eventText(event, data)));
          } catch {
            end();
          }
        },
        close() {
          if (ended) return;
          end();
          try {
            controller.close();
          } catch {
            // already closed by the browser leaving
          }
        },
      };
      controller.enqueue(encoder.encode(`retry: ${RECONNECT_AFTER_MS}\n\n`));
      onEnd = open(stream);
      if (signal.aborted) end();
      else signal.addEventListener("abort", end);
    },
    cancel: end,
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // A proxy that buffers answers (nginx) would hold the events back.
      "X-Accel-Buffering": "no",
    },
  });
}
