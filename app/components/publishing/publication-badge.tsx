import { useTranslation } from "react-i18next";
import type { PublicationState } from "@core/content/publication";

/** A document's publication state as a short label (docs/publishing.md): what exhibits get of it. */
export function PublicationBadge({ state }: { state: PublicationState }) {
  const { t } = useTranslation();
  return (
    <span className={`publication-badge publication-${state}`} title={t(`publicationStateHint.${state}`)}>
      {t(`publicationState.${state}`)}
    </span>
  );
}
