import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A real SMTP server in the test process: what the app mails arrives in `messages`. */
export interface TestMailServer {
  url: string;
  messages: ParsedMail[];
  /** Resolves with the first message to `to` (received now or later), or rejects after `timeoutMs`. */
  waitForMail(to: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

function isTo(message: ParsedMail, to: string): boolean {
  const addresses = [message.to].flat().flatMap((entry) => entry?.value ?? []);
  return addresses.some((address) => address.address?.toLowerCase() === to.toLowerCase());
}

export async function startMailServer(): Promise<TestMailServer> {
  const messages: ParsedMail[] = [];
  const waiters: Array<{ to: string; resolve: (message: ParsedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((message) => {
          messages.push(message);
          for (const waiter of waiters.filter((w) => isTo(message, w.to))) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(message);
          }
          callback();
        })
        .catch((error: unknown) => callback(error as Error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail(to, timeoutMs = 15_000) {
      const found = messages.find((message) => isTo(message, to));
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = {
          to,
          resolve: (message: ParsedMail) => {
            clearTimeout(timer);
            resolve(message);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`No mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
