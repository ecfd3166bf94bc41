import { useEffect, useRef, useState } from "react";
import { parseLocaleList } from "@core/content/bucket-definition";
import type { Message } from "@core/messages";
import { checkSchemaDialect } from "@core/schema/dialect";
import { parseJsonText } from "@core/schema/json-text";
import type { JsonSchema } from "@core/schema/normalize";

/*
 * The bucket settings' live check: as the admin types (debounced), the schema text's problems, or the form it
 * produces. Without JavaScript the 'Preview' button asks the server for the same.
 */

const LIVE_DELAY_MS = 300;

/** A schema and the locales its preview shows. */
export interface Preview {
  schema: JsonSchema;
  locales: string[];
}

/** What the live check makes of the schema text: its problems, or the preview it produces. */
export function liveCheck(
  text: string,
  localesText: string,
  collections: readonly string[],
  ownCollection: string,
): { errors: Message[]; preview: Preview | null; parseError: { line: number; column: number } | null } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { errors: [parsed.error], preview: null, parseError: { line: parsed.line, column: parsed.column } };
  const locales = parseLocaleList(localesText);
  const shown = locales.length ? locales : ["en"];
  const errors = checkSchemaDialect(parsed.value, {
    locales: shown,
    collections: [...collections, ownCollection.trim()].filter(Boolean),
    compile: false,
  });
  return { errors, preview: errors.length ? null : { schema: parsed.value as JsonSchema, locales: shown }, parseError: null };
}

export type LiveCheck = ReturnType<typeof liveCheck>;

/**
 * The check of what the admin typed, once hydrated and the typing pauses, and the last schema that passed (shown,
 * marked stale, while the text has errors). `others`: the other buckets' collections, which references may name.
 */
export function useLiveSchemaCheck(
  input: { text: string; locales: string; collection: string },
  others: readonly string[],
  hydrated: boolean,
): { live: LiveCheck | null; lastGood: Preview | null } {
  const [live, setLive] = useState<LiveCheck | null>(null);
  const [lastGood, setLastGood] = useState<Preview | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (!hydrated) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const checked = liveCheck(input.text, input.locales, others, input.collection);
      setLive(checked);
      if (checked.preview) setLastGood(checked.preview);
    }, LIVE_DELAY_MS);
    return () => clearTimeout(timer.current);
  }, [hydrated, input, others]);
  return { live, lastGood };
}
