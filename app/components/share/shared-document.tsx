import { useTranslation } from "react-i18next";
import type { SharedDocument } from "@core/content/shareables";
import type { DiffValue } from "@core/content/version-diff";
import { labelText } from "~/components/history/version-compare";
import { When } from "~/components/when";
import "./share-messages";
import "~/styles/shareables.css";
import "~/components/history/history-messages";

/*
 * A shared document, read-only: each filled value under its label along the schema (a translated field once per
 * locale, list items numbered), images shown, videos playable with their poster, files to download, references by
 * the referenced document's title. Media come through the link's own routes.
 */

function Value({ value, shared }: { value: DiffValue; shared: SharedDocument }) {
  const { t } = useTranslation();
  switch (value.kind) {
    case "empty":
      return <span className="muted">{t("history.empty")}</span>;
    case "text":
      return <span className="shared-text">{value.text}</span>;
    case "boolean":
      return <span>{value.value ? t("history.yes") : t("history.no")}</span>;
    case "date":
      return <When iso={value.iso} dateOnly={value.dateOnly} />;
    case "reference": {
      const title = shared.references[value.contentId];
      return title ? <span>{title}</span> : <span className="muted">{t("history.referenceGone")}</span>;
    }
    case "media": {
      const media = shared.media[value.contentId];
      if (!media) return <span className="muted">{t("history.mediaGone")}</span>;
      const size = media.width && media.height ? { width: media.width, height: media.height } : {};
      if (media.kind === "image") {
        const caption = [media.caption, media.credits].filter(Boolean).join(" · ");
        return (
          <figure className="shared-figure">
            <img src={media.url} alt={media.alt ?? media.filename} className="shared-image" {...size} />
            {caption ? <figcaption>{caption}</figcaption> : null}
          </figure>
        );
      }
      if (media.kind === "video") {
        return (
          // eslint-disable-next-line jsx-a11y/media-has-caption -- plays an uploaded video, which comes with no captions to offer
          <video src={media.url} poster={media.poster ?? undefined} controls preload="metadata" className="shared-video" {...size}>
            <a href={media.download}>{t("shareables.view.download", { filename: media.filename })}</a>
          </video>
        );
      }
      return (
        <span className="shared-file">
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- an uploaded sound file comes without captions */}
          {media.mimetype.startsWith("audio/") ? <audio src={media.url} controls preload="none" /> : null}
          <a href={media.download} download={media.filename}>
            {t("shareables.view.download", { filename: media.filename })}
          </a>
        </span>
      );
    }
  }
}

/** A shared document: the page's own (level 1), or one of a shared release's (level 2, without the link's expiry). */
export function SharedDocumentView({ shared, level = 1 }: { shared: SharedDocument; level?: 1 | 2 }) {
  const { t } = useTranslation();
  const item = (index: number) => t("history.item", { number: index + 1 });
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <article className={level === 1 ? "shared-document" : "shared-document shared-release-document"}>
      <p className="eyebrow">{shared.bucketName}</p>
      <Heading>{shared.title}</Heading>
      <p className="shared-about muted">
        {shared.latest
          ? t("shareables.view.latest", { number: shared.version.number })
          : t("shareables.view.version", { number: shared.version.number })}
        {" · "}
        <When iso={shared.version.createdAt} />
        {level === 1 ? (
          <>
            {" · "}
            {t("shareables.view.expires")} <When iso={shared.expiresAt} />
          </>
        ) : null}
      </p>
      {shared.rows.length ? (
        <dl className="shared-fields">
          {shared.rows.map((row) => (
            <div key={row.name} className="shared-field" data-field={row.name}>
              <dt>{labelText(row.labels, item)}</dt>
              <dd>
                <Value value={row.value} shared={shared} />
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">{t("shareables.view.empty")}</p>
      )}
    </article>
  );
}
