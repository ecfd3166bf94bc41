import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * A server's requests in flight and whether it is stopping (docs/operations.md, "Stopping a server"). Once draining,
 * /readyz answers 503 and every response not yet begun closes its connection, so that clients reconnect, through the
 * load balancer, to another server; `settled` tells when the last request in flight has been answered.
 */
export class RequestDrain {
  private readonly inFlight = new Set<ServerResponse>();
  private readonly waiting = new Set<() => void>();
  private draining = false;

  get isDraining(): boolean {
    return this.draining;
  }

  track(_request: IncomingMessage, response: ServerResponse): void {
    this.inFlight.add(response);
    if (this.draining) response.setHeader("Connection", "close");
    response.once("close", () => {
      this.inFlight.delete(response);
      if (this.inFlight.size === 0) for (const resolve of this.waiting) resolve();
    });
  }

  start(): void {
    this.draining = true;
    for (const response of this.inFlight) if (!response.headersSent) response.setHeader("Connection", "close");
  }

  /** Resolves true once no request is in flight, or false when `timeoutMs` pass first. */
  settled(timeoutMs: number): Promise<boolean> {
    if (this.inFlight.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (settled: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(onIdle);
        resolve(settled);
      };
      const onIdle = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiting.add(onIdle);
    });
  }
}
