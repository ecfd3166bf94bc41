import { useTranslation } from "react-i18next";
import { dateTimeFormat } from "@core/date-formats";

/**
 * The server formats in its time zone, the browser in the user's: the hydration warning of that difference is
 * expected (as on the bucket overview).
 */
function formatOf(language: string, withTime: boolean): Intl.DateTimeFormat {
  return dateTimeFormat(language, withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium", timeZone: "UTC" });
}

/** A moment in the reader's language: a date and time, or only the (UTC) date with `dateOnly`. */
export function When({ iso, dateOnly = false }: { iso: string; dateOnly?: boolean }) {
  const { i18n } = useTranslation();
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {formatOf(i18n.language, !dateOnly).format(new Date(iso))}
    </time>
  );
}

/** The same text outside JSX (inside a translated sentence). */
export function formatWhen(language: string, iso: string, dateOnly = false): string {
  return formatOf(language, !dateOnly).format(new Date(iso));
}
