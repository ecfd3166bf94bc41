import { useTranslation } from "react-i18next";
import type { Availability, SessionCard } from "../session-overview";

/* What a session's card and row on the session overviews show besides its title (session-overview-page.tsx). */

/** Dates of availability (YYYY-MM-DD, a day, no time zone) as "1 Sep 2026" in the interface language. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function formatDay(iso: string, language: string): string {
  let format = dayFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
    dayFormats.set(language, format);
  }
  const parts = format.formatToParts(new Date(`${iso}T00:00:00Z`));
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? "";
  return `${part("day")} ${part("month")} ${part("year")}`;
}

export function AvailabilityText({ availability }: { availability: Availability }) {
  const { t, i18n } = useTranslation();
  const { from, until, state } = availability;
  const day = (iso: string) => formatDay(iso, i18n.language);
  const range =
    from && until
      ? t("sessionOverview.availableRange", { from: day(from), until: day(until) })
      : from
        ? t("sessionOverview.availableFrom", { from: day(from) })
        : until
          ? t("sessionOverview.availableUntil", { until: day(until) })
          : null;
  return (
    <span className="session-availability" data-state={state}>
      {range ? <span>{range}</span> : null}
      {state === "always" ? <span className="availability-badge">{t("sessionOverview.alwaysAvailable")}</span> : null}
      {state === "notYet" ? <span className="availability-badge">{t("sessionOverview.notYetAvailable")}</span> : null}
      {state === "noLonger" ? <span className="availability-badge">{t("sessionOverview.noLongerAvailable")}</span> : null}
    </span>
  );
}

export function Still({ card, small }: { card: SessionCard; small?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={small ? "session-still small" : "session-still"}>
      {card.still ? (
        <img src={card.still} alt="" loading="lazy" width={small ? 96 : 220} height={small ? 54 : 124} />
      ) : small ? null : (
        <span className="clip-card-no-still">{t("sessionOverview.noStill")}</span>
      )}
    </div>
  );
}
