import { createContext, useContext } from "react";
import type { MediaContent } from "../../../../core/media/wire";

export interface MediaFormSettings {
  /** The bucket that owns uploads of this form; null: the page's bucket (from the URL). */
  bucketSlug: string | null;
  /** Media contents the server loaded for the document's media fields, by contentId (first render, no JavaScript). */
  contents: Record<string, MediaContent>;
  /** False when the server has no ffmpeg: video fields say so. */
  videoProcessing: boolean;
}

export const MediaFormContext = createContext<MediaFormSettings>({ bucketSlug: null, contents: {}, videoProcessing: true });

export const useMediaForm = () => useContext(MediaFormContext);
