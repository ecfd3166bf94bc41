import { useTranslation } from "react-i18next";
import type { HistoryEntry } from "@core/content/history";
import { dateTimeFormat } from "@core/date-formats";
import "~/components/history/history-messages";

const VERSION_TIME: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
};

/** The time of a version in the interface language (UTC, so that the server's and the browser's render agree). */
export function useVersionTime() {
  const { i18n } = useTranslation();
  const format = dateTimeFormat(i18n.language, VERSION_TIME);
  return (value: Date | string) => format.format(new Date(value));
}

/** Who saved a version: the user's name, or that no user did (an API client's save, or an account since deleted). */
export function useAuthorName() {
  const { t } = useTranslation();
  return (entry: Pick<HistoryEntry, "authorName">) => entry.authorName ?? t("history.apiClient");
}
