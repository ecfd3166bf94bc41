import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatDuration } from "@core/content/cases";
import { MediaModal, PlaybackRates } from "~/components/form/media/media-modal";
import type { SessionEntry } from "./session-entries";

/**
 * The session's preview (JavaScript): its ready cases' videos one after another in a modal, from `start`. Each
 * video's end starts the next; Previous and Next skip; the spec's playback rates hold for the whole session. The
 * order of play lists every case, the ones that cannot play marked.
 */
export function SessionPlayer(props: { entries: readonly SessionEntry[]; start: number; onClose: () => void }) {
  const { t } = useTranslation();
  const queue = props.entries.filter((entry) => entry.video?.ready);
  const [index, setIndex] = useState(Math.min(props.start, Math.max(0, queue.length - 1)));
  const [rate, setRate] = useState(1);
  const video = useRef<HTMLVideoElement>(null);
  const current = queue[index];

  // A new source resets the rate to the default one: both follow the chosen rate.
  useEffect(() => {
    const element = video.current;
    if (!element) return;
    element.defaultPlaybackRate = rate;
    element.playbackRate = rate;
  }, [rate, index]);
  // Opening the player (a click) and each next case start playing; a browser that refuses keeps the controls.
  useEffect(() => {
    video.current?.play().catch(() => undefined);
  }, [index]);

  return (
    <MediaModal title={t("sessionEditor.preview.title")} className="session-player" onClose={props.onClose}>
      {current?.video ? (
        <>
          <p className="session-player-now" aria-live="polite">
            {t("sessionEditor.preview.nowPlaying", { index: index + 1, count: queue.length, title: current.title })}
          </p>
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- plays a user's uploaded video, which comes with no captions to offer */}
          <video
            ref={video}
            className="media-player-video session-player-video"
            src={current.video.url}
            poster={current.still ?? undefined}
            controls
            preload="auto"
            onEnded={() => setIndex((at) => (at + 1 < queue.length ? at + 1 : at))}
          />
          <div className="session-player-controls">
            <button
              type="button"
              className="button small session-player-previous"
              disabled={index === 0}
              onClick={() => setIndex(index - 1)}
            >
              ← {t("sessionEditor.preview.previous")}
            </button>
            <PlaybackRates rate={rate} onChange={setRate} />
            <button
              type="button"
              className="button small session-player-next"
              disabled={index + 1 >= queue.length}
              onClick={() => setIndex(index + 1)}
            >
              {t("sessionEditor.preview.next")} →
            </button>
          </div>
        </>
      ) : (
        <p className="empty">{t("sessionEditor.preview.noPlayable")}</p>
      )}
      <h3 className="session-player-queue-title">{t("sessionEditor.preview.queue")}</h3>
      <ol className="session-queue">
        {props.entries.map((entry, position) => {
          const at = queue.indexOf(entry);
          const playing = at !== -1 && at === index;
          return (
            <li key={`${entry.id}-${position}`} className={playing ? "playing" : undefined} aria-current={playing ? "true" : undefined}>
              {at === -1 ? (
                <span className="session-queue-title">{entry.title}</span>
              ) : (
                <button type="button" className="session-queue-play" onClick={() => setIndex(at)}>
                  {entry.title}
                </button>
              )}
              <EntryState entry={entry} />
            </li>
          );
        })}
      </ol>
    </MediaModal>
  );
}

/** A case's length, or why it does not play. */
export function EntryState({ entry }: { entry: SessionEntry }) {
  const { t } = useTranslation();
  if (!entry.video) return <span className="session-entry-state muted">{t("sessionEditor.preview.noVideo")}</span>;
  const duration = entry.video.duration ? <span className="session-entry-duration">{formatDuration(entry.video.duration)}</span> : null;
  return entry.video.ready ? (
    duration
  ) : (
    <span className="session-entry-state">
      {t("sessionEditor.preview.processing")} {duration}
    </span>
  );
}
