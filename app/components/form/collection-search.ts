import { useEffect, useRef, useState } from "react";
import type { ReferenceOption } from "@core/content/references";
import type { PublicationState } from "@core/content/publication";
import { requestJson } from "~/lib/api-client";

/** How long typing pauses before the server is asked. */
export const REFERENCE_SEARCH_DEBOUNCE_MS = 250;

interface SearchResult {
  contentId: string;
  title: string;
  thumbnail: string | null;
  state: PublicationState | null;
}

/** Asks the server for a collection's documents matching `text` (GET /api/v1/buckets/any/content?…&search=). */
export async function searchCollection(collection: string, text: string, signal?: AbortSignal): Promise<ReferenceOption[]> {
  const query = new URLSearchParams({ collection, search: text, limit: "20" });
  const results = await requestJson<SearchResult[]>(`/api/v1/buckets/any/content?${query}`, { signal });
  return results.map((result) => ({
    value: result.contentId,
    label: result.title,
    thumbnail: result.thumbnail,
    ...(result.state ? { state: result.state } : {}),
  }));
}

export type CollectionSearchStatus = "idle" | "loading" | "error" | "done";

/**
 * A collection's search as the editor types: asks the server after a pause in typing, drops the answer a newer
 * search replaces, and cancels what is pending when the component goes. `idle` until the first search.
 */
export function useCollectionSearch(collection: string, firstPage: ReferenceOption[]) {
  const [found, setFound] = useState<ReferenceOption[]>(firstPage);
  const [status, setStatus] = useState<CollectionSearchStatus>("idle");
  const request = useRef<AbortController | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      request.current?.abort();
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  /** Searches for `text`; `onFound` runs with the answer unless a newer search replaced it. */
  function search(text: string, onFound?: (options: ReferenceOption[]) => void) {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      setStatus("loading");
      searchCollection(collection, text, controller.signal).then(
        (options) => {
          if (controller.signal.aborted) return;
          setFound(options);
          setStatus("done");
          onFound?.(options);
        },
        () => {
          if (!controller.signal.aborted) setStatus("error");
        },
      );
    }, REFERENCE_SEARCH_DEBOUNCE_MS);
  }

  return { found, status, search };
}
