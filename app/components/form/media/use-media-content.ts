import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { mediaFailure, type MediaContent } from "@core/media/wire";
import type { MediaKind } from "@core/media/bounds";
import { messageText } from "~/lib/i18n";
import type { MediaSource } from "./context";

/**
 * A media field's content and its problem (spec §4): with `follow` (hydrated, and the value no pending upload), a
 * field with a value loads its latest content on mount and polls every 2 s while jobs run, so progress survives a
 * reload. Polling stops at completed or error, and when the value changes. A content that failed before the page
 * loaded says so at once; later failures come from loading and polling.
 */
export function useMediaContent(options: {
  kind: MediaKind;
  contentId: string;
  initial: MediaContent | null;
  follow: boolean;
  source: MediaSource;
}) {
  const { kind, contentId, follow, source } = options;
  const { t } = useTranslation();
  const [content, setContent] = useState<MediaContent | null>(options.initial);
  const [problem, setProblem] = useState<string | null>(() =>
    options.initial?.status === "error" ? messageText(t, mediaFailure(options.initial)) : null,
  );
  /** The content as last rendered, for the loading effect below, which must not restart on every change of it. */
  const contentRef = useRef(content);
  useEffect(() => {
    contentRef.current = content;
  }, [content]);

  useEffect(() => {
    if (!follow || !contentId) return;
    let stop: () => void = () => undefined;
    let cancelled = false;
    const onContent = (next: MediaContent) => {
      setContent(next);
      if (next.status === "error") setProblem(messageText(t, mediaFailure(next)));
    };
    const watch = (current: MediaContent) => {
      if (current.status === "processing") stop = source.poll(kind, contentId, onContent, (error) => setProblem(error.message));
    };
    const known = contentRef.current?.contentId === contentId ? contentRef.current : null;
    if (known) watch(known);
    else {
      source.fetchLatest(kind, contentId).then(
        (loaded) => {
          if (cancelled) return;
          onContent(loaded);
          watch(loaded);
        },
        (error: unknown) => !cancelled && setProblem(error instanceof Error ? error.message : String(error)),
      );
    }
    return () => {
      cancelled = true;
      stop();
    };
  }, [follow, contentId, kind, t, source]);

  return { content, setContent, problem, setProblem };
}
