import type { Locale } from "@core/locales";
import { translate, translateMessage, type Message, type MessageKey, type MessageParams } from "@core/messages";

export type HttpStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503;

export interface HttpErrorOptions {
  /** A machine-readable code answered as `error` (the message then goes in `message`), e.g. DOCUMENT_VERSION_CONFLICT. */
  code?: string;
  /** More fields of the JSON answer (latestVersionId, errors by field …). */
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Further messages of the same refusal, each on its own line (an image both too wide and too low). */
  more?: readonly Message[];
}

/**
 * The one way server code refuses: a status and a message of the catalogue. Domain code throws it knowing nothing
 * of HTTP beyond the status's meaning; the web layer (server/web/respond.ts) alone turns it into a page, JSON or an
 * RFC 9457 answer, in the reader's language.
 */
export class HttpError extends Error {
  constructor(
    readonly status: HttpStatus,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
    readonly options: HttpErrorOptions = {},
  ) {
    super(key);
    this.name = "HttpError";
  }
}

/** One refusal for several messages (the first says the status's reason, the rest follow on their own lines). */
export function refusal(status: HttpStatus, messages: readonly Message[]): HttpError {
  const [first, ...more] = messages;
  if (!first) throw new Error("a refusal needs at least one message");
  return new HttpError(status, first.key, first.params, { more });
}

/** The refusal in words: its message, and the further ones on their own lines. */
export function errorText(error: HttpError, locale: Locale): string {
  return [translate(locale, error.key, error.params), ...(error.options.more ?? []).map((more) => translateMessage(locale, more))].join(
    "\n",
  );
}

/** The refusal's messages: its own, then the further ones. */
export const messagesOf = (error: HttpError): Message[] => [{ key: error.key, params: error.params }, ...(error.options.more ?? [])];
