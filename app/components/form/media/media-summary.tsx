import { useTranslation } from "react-i18next";
import type { MediaKind } from "@core/media/bounds";
import type { PendingFile } from "@core/media/pending";
import type { MediaContent } from "@core/media/wire";

/** The URL of a media version's file, changed by every new version so that a browser cache never shows an old one. */
export const freshUrl = (content: MediaContent) => `${content.url}?v=${encodeURIComponent(content._id)}`;

/** What the field holds now: a preview of the image, the video's still, the file's name (an audio player for WAV). */
export function MediaSummary(props: { content: MediaContent; kind: MediaKind; label: string }) {
  const { t } = useTranslation();
  const { content, kind } = props;
  const still = content.still ?? content.thumbs[0]?.url ?? null;
  return (
    <div className="media-summary">
      {kind === "image" ? <img className="media-thumb" src={freshUrl(content)} alt={props.label} /> : null}
      {kind === "video" && still ? <img className="media-thumb" src={still} alt={props.label} /> : null}
      <span className="media-filename">{content.originalFilename}</span>
      {content.dimensions ? (
        <span className="media-dimensions">
          {content.dimensions.width} × {content.dimensions.height}
        </span>
      ) : null}
      {content.status === "completed" ? <span className="media-state">{t("media.completed")}</span> : null}
      {kind === "file" && /^audio\/(wav|x-wav|wave|vnd\.wave)$/.test(content.mimetype) ? (
        // eslint-disable-next-line jsx-a11y/media-has-caption -- an uploaded sound file comes without captions
        <audio className="media-audio" controls preload="none" src={freshUrl(content)} />
      ) : null}
    </div>
  );
}

/**
 * The name of the file a field holds as a pending upload: chosen without JavaScript in a post that did not
 * save, waiting on the server (not served), saved with the document. Null: the value is not pending.
 */
export function pendingFilename(pending: readonly PendingFile[] | undefined, contentId: string): string | null {
  return (contentId && pending?.find((file) => file.contentId === contentId)?.originalFilename) || null;
}

/** A pending upload under its field. */
export function PendingSummary(props: { filename: string }) {
  const { t } = useTranslation();
  return (
    <div className="media-summary media-pending">
      <span className="media-filename">{props.filename}</span>
      <span className="media-state">{t("media.pending")}</span>
    </div>
  );
}
