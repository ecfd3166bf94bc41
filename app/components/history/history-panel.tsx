import { useTranslation } from "react-i18next";
import { HistoryList, type HistoryListProps } from "./history-list";

/**
 * The edit page's history panel: a disclosure (a <details>, so it opens without JavaScript) over the first page of
 * the document's versions; open on an older version's page, where the editor came to look at history.
 */
export function HistoryPanel(props: HistoryListProps & { open?: boolean }) {
  const { t } = useTranslation();
  const { open, ...list } = props;
  return (
    <details className="history-panel" open={open}>
      <summary>
        {t("history.title")} <span className="muted">({props.history.total})</span>
      </summary>
      <HistoryList {...list} inline />
    </details>
  );
}
