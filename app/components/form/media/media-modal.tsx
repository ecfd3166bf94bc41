import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { PLAYBACK_RATES } from "@core/media/wire";
import { ButtonRow } from "~/components/button-row";
import { ModalDialog } from "~/components/modal-dialog";

/**
 * A modal <dialog> (focus kept inside, Escape closes) rendered into <body>:
 * opened from a field, it must not sit inside the page's form. Without
 * `onClose` it cannot be closed or cancelled (forceCrop).
 */
export function MediaModal(props: { title: string; className?: string; onClose?: () => void; children: ReactNode; actions?: ReactNode }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return createPortal(
    <ModalDialog ref={dialog} className={`media-modal ${props.className ?? ""}`} labelledBy={titleId} onCancel={props.onClose}>
      <div className="media-modal-header">
        <h2 id={titleId}>{props.title}</h2>
        {props.onClose ? (
          <button type="button" className="media-modal-close" aria-label={t("media.close")} onClick={props.onClose}>
            ×
          </button>
        ) : null}
      </div>
      <div className="media-modal-body">{props.children}</div>
      <div className="modal-actions">
        {props.actions}
        {props.onClose && !props.actions ? (
          <button type="button" className="button" onClick={props.onClose}>
            {t("media.close")}
          </button>
        ) : null}
      </div>
    </ModalDialog>,
    document.body,
  );
}

/** View: the image, whole, in a modal. */
export function ImagePreviewModal(props: { url: string; title: string; onClose: () => void }) {
  return (
    <MediaModal title={props.title} className="media-preview" onClose={props.onClose}>
      <img className="media-preview-image" src={props.url} alt={props.title} />
    </MediaModal>
  );
}

/** View: a video player with the spec's playback rates (0.7, 1, 1.3, 1.5, 1.7). */
export function VideoPlayerModal(props: { url: string; poster?: string | null; title: string; onClose: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [rate, setRate] = useState(1);
  useEffect(() => {
    if (video.current) video.current.playbackRate = rate;
  }, [rate]);
  return (
    <MediaModal title={props.title} className="media-player" onClose={props.onClose}>
      {/* eslint-disable-next-line jsx-a11y/media-has-caption -- plays a user's uploaded video, which comes with no captions to offer */}
      <video ref={video} className="media-player-video" src={props.url} poster={props.poster ?? undefined} controls preload="metadata" />
      <PlaybackRates rate={rate} onChange={setRate} />
    </MediaModal>
  );
}

/** The spec's playback rates as toggle buttons (the player sets the video's rate). */
export function PlaybackRates(props: { rate: number; onChange: (rate: number) => void }) {
  const { t } = useTranslation();
  return (
    <ButtonRow<number>
      kind="toggles"
      className="playback-rates"
      label={t("media.playbackRate")}
      options={PLAYBACK_RATES}
      chosen={props.rate}
      onChoose={props.onChange}
      text={(value) => `${value}×`}
      buttonClass={() => "playback-rate"}
    />
  );
}
