import type { Locale } from "@core/locales";
import { isMessageKey, translateMessage, type Message } from "@core/messages";

/**
 * The message of one AJV error, its {{param}} placeholders filled; a format's name is a message too ('geen geldige
 * datum').
 */
export function validationProblem(keyword: string, params: Readonly<Record<string, unknown>>): Message {
  const key = `validation.${keyword}`;
  const filled: Record<string, string | number | boolean | Message> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") filled[name] = value;
  }
  if (keyword === "format" && typeof params.format === "string") {
    const formatKey = `validation.formats.${params.format}`;
    if (isMessageKey(formatKey)) filled.format = { key: formatKey };
  }
  return { key: keyword !== "formats" && isMessageKey(key) ? key : "validation.default", params: filled };
}

/** The message of one AJV error in `locale` (validationProblem put into words). */
export const validationMessage = (locale: Locale, keyword: string, params: Readonly<Record<string, unknown>>): string =>
  translateMessage(locale, validationProblem(keyword, params));
