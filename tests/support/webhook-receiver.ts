import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A webhook receiver in the test process (node:http on 127.0.0.1): records every request and answers what the
 * test says (by default 204). Tests wait on it with a deadline, never a fixed sleep.
 */

export interface ReceivedRequest {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed, when it is JSON. */
  json: Record<string, unknown> | null;
  at: number;
}

/** What to answer: a status (and body), or "hang" to never answer. */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export interface Receiver {
  /** http://127.0.0.1:<port><path> */
  url(path: string): string;
  readonly received: ReceivedRequest[];
  /** Decides the answer per request (default 204). */
  answer: (request: ReceivedRequest) => Answer;
  /** The first request (already received or to come) that matches, or a failure at the deadline. */
  waitFor(match: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const waiting = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const receiver = {
    received: [] as ReceivedRequest[],
    answer: (() => ({ status: 204 })) as Receiver["answer"],
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        json = null;
      }
      const entry: ReceivedRequest = {
        path: request.url ?? "/",
        method: request.method ?? "",
        headers: request.headers,
        body,
        json,
        at: Date.now(),
      };
      receiver.received.push(entry);
      for (const wake of waiting) wake();
      const answer = receiver.answer(entry);
      if (answer === "hang") {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    waitFor(match: (request: ReceivedRequest) => boolean, timeoutMs = 15_000) {
      return new Promise<ReceivedRequest>((resolve, reject) => {
        const check = () => {
          const found = receiver.received.find(match);
          if (!found) return false;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`no matching webhook request within ${timeoutMs} ms (received ${receiver.received.length})`));
        }, timeoutMs);
        if (!check()) waiting.add(check);
      });
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
