import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MediaContent, Thumb } from "@core/media/wire";
import { selectThumb, uploadCustomStill } from "~/lib/media-client";
import { ButtonRow } from "~/components/button-row";
import { MediaModal } from "./media-modal";

const TABS = ["select", "custom"] as const;

const sameThumb = (a: Thumb | null | undefined, b: Thumb | null | undefined) =>
  !!a && !!b && ("isCustom" in a ? "isCustom" in b : !("isCustom" in b) && a.index === b.index);

/**
 * 'Select Thumbnail' (spec §2): a carousel of the video's stills and, when
 * the field allows custom stills, a 'Custom Still' tab to upload one. A
 * custom still smaller than the video asks 'Incorrect Size' first. Save makes
 * the choice the thumb; Cancel changes nothing.
 */
export function ThumbModal(props: {
  content: MediaContent;
  /** The video field's schema property (sent with a custom still: the server checks allowCustomStill). */
  property: Record<string, unknown>;
  onSaved: () => void;
  onClose: () => void;
}) {
  const allowCustom = props.property.allowCustomStill === true;
  const { t } = useTranslation();
  const stills = props.content.thumbs.flatMap(({ index, url }) => (typeof index === "number" ? [{ index, url }] : []));
  const [tab, setTab] = useState<"select" | "custom">("select");
  const [chosen, setChosen] = useState<Thumb | null>(props.content.thumb ?? null);
  const [position, setPosition] = useState(() =>
    Math.max(
      0,
      stills.findIndex((still) => sameThumb({ index: still.index }, props.content.thumb)),
    ),
  );
  const [custom, setCustom] = useState<string | null>(
    props.content.thumbs.find((thumb) => thumb.isCustom || thumb.filename === "custom")?.url ?? null,
  );
  const [pendingSmall, setPendingSmall] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function uploadStill(file: File | undefined) {
    if (!file) return;
    setProblem(null);
    setBusy(true);
    try {
      const answer = await uploadCustomStill(props.content.contentId, file, props.property);
      const url = answer.thumb.url ?? `/api/v1/still/${props.content.contentId}/custom`;
      if (answer.smallerThanVideo) setPendingSmall(url);
      else {
        setCustom(url);
        setChosen({ isCustom: true });
      }
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function save() {
    if (!chosen) {
      props.onClose();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await selectThumb(props.content.contentId, chosen);
      props.onSaved();
    } catch (error) {
      setProblem((error as Error).message);
      setBusy(false);
    }
  }

  const current = stills[position];
  const actions = (
    <>
      <button type="button" className="button" onClick={props.onClose}>
        {t("media.cancel")}
      </button>
      <button type="button" className="button primary" onClick={() => void save()} disabled={busy}>
        {t("media.save")}
      </button>
    </>
  );
  return (
    <MediaModal title={t("media.selectThumbnail")} className="thumb-modal" onClose={props.onClose} actions={actions}>
      {allowCustom ? (
        <ButtonRow
          kind="tabs"
          className="tabs"
          options={TABS}
          chosen={tab}
          onChoose={setTab}
          text={(option) => t(option === "select" ? "media.selectStill" : "media.customStillTab")}
        />
      ) : null}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {tab === "select" ? (
        current ? (
          <div className="thumb-carousel">
            <button
              type="button"
              className="button small"
              aria-label={t("media.previous")}
              disabled={position === 0}
              onClick={() => setPosition(position - 1)}
            >
              ‹
            </button>
            <figure>
              <img src={current.url} alt={t("media.stillNumber", { number: position + 1 })} />
              <figcaption>
                {position + 1} / {stills.length}
              </figcaption>
            </figure>
            <button
              type="button"
              className="button small"
              aria-label={t("media.next")}
              disabled={position === stills.length - 1}
              onClick={() => setPosition(position + 1)}
            >
              ›
            </button>
            <button
              type="button"
              className="button small thumb-use"
              aria-pressed={sameThumb(chosen, { index: current.index })}
              onClick={() => setChosen({ index: current.index })}
            >
              {t("media.useThisStill")}
            </button>
          </div>
        ) : (
          <p>{t("media.noStills")}</p>
        )
      ) : (
        <div className="custom-still">
          {custom ? <img src={custom} alt={t("media.customStillTab")} /> : null}
          <label>
            {t("media.chooseStill")}
            <input
              type="file"
              accept="image/jpeg,image/png,image/webp"
              disabled={busy}
              onChange={(event) => void uploadStill(event.target.files?.[0])}
            />
          </label>
          {chosen && "isCustom" in chosen ? <p className="notice-success">{t("media.customChosen")}</p> : null}
        </div>
      )}
      {pendingSmall ? (
        <div className="modal-backdrop" role="alertdialog" aria-labelledby="incorrect-size-title">
          <div className="modal">
            <h3 id="incorrect-size-title">{t("media.incorrectSizeTitle")}</h3>
            <p>{t("media.incorrectSize")}</p>
            <div className="modal-actions">
              <button type="button" className="button" onClick={() => setPendingSmall(null)}>
                {t("media.cancel")}
              </button>
              <button
                type="button"
                className="button primary"
                onClick={() => {
                  setCustom(pendingSmall);
                  setChosen({ isCustom: true });
                  setPendingSmall(null);
                }}
              >
                {t("media.ok")}
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </MediaModal>
  );
}
