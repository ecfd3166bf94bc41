import { createContext, useContext } from "react";
import type { PendingFile } from "@core/media/pending";
import type { MediaContent } from "@core/media/wire";
import type { fetchLatestMedia, pollMedia } from "~/lib/media-client";

/** Where media fields load a content and follow its jobs. */
export interface MediaSource {
  fetchLatest: typeof fetchLatestMedia;
  poll: typeof pollMedia;
}

export interface MediaFormSettings {
  /** The bucket that owns uploads of this form; null: the page's bucket (from the URL). */
  bucketSlug: string | null;
  /** Media contents the server loaded for the document's media fields, by contentId (first render, no JavaScript). */
  contents: Record<string, MediaContent>;
  /** Files chosen without JavaScript in a post that did not save: saved with the document (core/media/pending.ts). */
  pending?: readonly PendingFile[];
  /** False when the server has no ffmpeg: video fields say so. */
  videoProcessing: boolean;
  /**
   * The form's fields use the library: `documentId`, the document they edit (null: a new one), makes a crop of an
   * item others use this use's own; `choose`: "leave" (the page's form leaves for the library to choose an item or
   * write a use's texts, its post keeping the input as a draft) or "dialog" (a sub-form's dialog, which cannot leave
   * its page, chooses in a dialog of its own).
   */
  library?: { documentId: string | null; choose: "leave" | "dialog" };
  /** Default: the media API (media-field.tsx); a page of fixtures (the style guide) brings its own. */
  source?: MediaSource;
}

export const MediaFormContext = createContext<MediaFormSettings>({ bucketSlug: null, contents: {}, videoProcessing: true });

export const useMediaForm = () => useContext(MediaFormContext);
