import { useTranslation } from "react-i18next";
import { HistoryList, type HistoryListProps } from "./history-list";
import { SharePanel } from "~/components/share/share-panel";
import "~/components/history/history-messages";

/**
 * The edit page's history panel: a disclosure (a <details>, so it opens without JavaScript) over the first page of
 * the document's versions; open on an older version's page, where the editor came to look at history. Below it,
 * the 'Share' action: a read-only link to the version shown or to the latest (components/share/).
 */
export function HistoryPanel(props: HistoryListProps & { open?: boolean }) {
  const { t } = useTranslation();
  const { open, ...list } = props;
  const { history, currentVersionId, bucketSlug } = props;
  const shown = currentVersionId ?? history.latestVersionId;
  const shownNumber = history.entries.find((entry) => entry.versionId === shown)?.number ?? null;
  return (
    <>
      <details className="history-panel" open={open}>
        <summary>
          {t("history.title")} <span className="muted">({history.total})</span>
        </summary>
        <HistoryList {...list} inline />
      </details>
      <SharePanel
        bucketSlug={bucketSlug}
        contentId={history.contentId}
        versionId={shown}
        versionNumber={shownNumber}
        latestVersionId={history.latestVersionId}
      />
    </>
  );
}
