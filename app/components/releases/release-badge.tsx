import { useTranslation } from "react-i18next";
import { dateTimeFormat } from "@core/date-formats";
import type { ReleaseState } from "@core/content/release";
import "./release-messages";

/** A release's state as a badge (open, scheduled, published, rolled back). */
export function ReleaseBadge({ state }: { state: ReleaseState }) {
  const { t } = useTranslation();
  return <span className={`release-badge release-${state}`}>{t(`releases.state.${state}`)}</span>;
}

/**
 * A release's moment in the exhibits' time zone (the one its schedule is entered in), named: the server and the
 * browser render the same text.
 */
export function ReleaseTime({ iso, zone }: { iso: string; zone: string }) {
  const { i18n } = useTranslation();
  const format = dateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone: zone });
  return <time dateTime={iso}>{format.format(new Date(iso))}</time>;
}
