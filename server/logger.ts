import pino, { type DestinationStream, type Logger } from "pino";

/*
 * Secrets that travel in URLs: a shareable link's token and a password reset link's token (path segments), an
 * invitation's code (/signup?code=) and a signed media URL's signature (?signature=). They reach log lines in
 * request paths and in messages that quote a path (React Router's "No route matches URL …", "You made a POST
 * request to …"), so every line the logger writes is redacted whole, after it is serialized: whatever field or
 * message holds them. "routes/shareables/view" and the like are route ids, not paths, and are left alone.
 */
const SECRET_SEGMENT = /(?<!routes)(\/|%2F)(shareables|password-reset)(\/|%2F)[^/?#&\s"\\%]+/gi;
const SECRET_PARAMETER = /([?&](?:code|signature)=)[^&#\s"\\]+/gi;

/** Text (a path, a URL, a message, a serialized log line) with every secret of a link replaced by a placeholder. */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_SEGMENT, "$1$2$3[token]").replace(SECRET_PARAMETER, "$1[redacted]");
}

/** The server's logger; `destination` (default: stdout) receives lines already redacted (redactSecrets). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { app: "vitrine" }, redact: ["req.headers.cookie", "password"], hooks: { streamWrite: redactSecrets } };
  return destination ? pino(options, destination) : pino(options);
}
export type { Logger };
