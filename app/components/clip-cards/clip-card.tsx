import type { HTMLAttributes, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDuration, type CaseCard } from "@core/content/cases";
import { PublicationBadge } from "~/components/publishing/publication-badge";

/**
 * A clip card (spec §2: 220 px wide): the case video's chosen still, its title and subtitle. `actions` go under
 * the text (remove, delete); `control` makes the card selectable (a checkbox or a toggle button over it).
 */
export function ClipCard(props: {
  card: CaseCard | null;
  missingId?: string;
  selected?: boolean;
  control?: ReactNode;
  actions?: ReactNode;
  /** More on the card's <li> (the cases field's drag and drop), and a class added to its own. */
  itemProps?: HTMLAttributes<HTMLLIElement>;
}) {
  const { t } = useTranslation();
  const { card } = props;
  const className = `clip-card${props.selected ? " selected" : ""}${props.itemProps?.className ? ` ${props.itemProps.className}` : ""}`;
  const duration = card?.video?.duration;
  return (
    <li {...props.itemProps} className={className} data-case={card?.contentId ?? props.missingId}>
      <div className="clip-card-still">
        {duration ? (
          <span className="clip-card-duration">
            <span className="visually-hidden">{t("sessionEditor.cases.duration", { duration: formatDuration(duration) })}</span>
            <span aria-hidden="true">{formatDuration(duration)}</span>
          </span>
        ) : null}
        {/* A deleted case has no still to wait for: the title below says it was deleted. */}
        {card?.still ? (
          <img src={card.still} alt="" loading="lazy" width={220} height={124} draggable={false} />
        ) : card ? (
          <span className="clip-card-no-still">{card.processing ? t("cases.processing") : t("cases.noStill")}</span>
        ) : null}
      </div>
      <div className={props.actions ? "clip-card-text" : "clip-card-text alone"}>
        {card ? (
          <>
            <strong className="clip-card-title">{card.title || t("cases.untitled")}</strong>
            {card.subtitle ? <span className="clip-card-subtitle">{card.subtitle}</span> : null}
            {card.state ? <PublicationBadge state={card.state} /> : null}
          </>
        ) : (
          <strong className="clip-card-title missing">{t("cases.deleted")}</strong>
        )}
      </div>
      {props.control}
      {props.actions ? <div className="clip-card-actions">{props.actions}</div> : null}
    </li>
  );
}

/** The add card: a button (or a submit button without JavaScript) in the clip cards' place. */
export function AddCard(props: {
  buttonProps: React.ButtonHTMLAttributes<HTMLButtonElement> & { name?: string; value?: string };
  label: string;
}) {
  return (
    <li className="clip-card add-card">
      <button {...props.buttonProps} className="add-card-button">
        <span aria-hidden="true" className="add-card-plus">
          +
        </span>
        <span>{props.label}</span>
      </button>
    </li>
  );
}
