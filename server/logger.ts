import pino, { type Logger } from "pino";

export function createLogger(level: string): Logger {
  return pino({ level, base: { app: "vitrine" }, redact: ["req.headers.cookie", "password"] });
}
export type { Logger };
