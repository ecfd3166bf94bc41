import { useTranslation } from "react-i18next";
import type { PublicationState } from "@core/content/publication";
import { PublicationBadge } from "./publication-badge";
import "~/components/publishing/publishing-messages";

export interface UnpublishedReferenceItem {
  contentId: string;
  title: string;
  bucketName: string;
  state: PublicationState;
}

/**
 * The documents a publish would leave exhibits pointing at without content, each a checkbox `include` (ticked):
 * published together with the document (or, `inRelease`, joining the release) when left ticked. `form`: the id of the
 * form they belong to, when they are not inside it (the edit page's dialog).
 */
export function UnpublishedReferences({
  references,
  form,
  inRelease = false,
}: {
  references: readonly UnpublishedReferenceItem[];
  form?: string;
  inRelease?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="unpublished-references">
      <legend>{t(inRelease ? "publishing.releaseReferencesTitle" : "publishing.referencesTitle", { count: references.length })}</legend>
      <p className="muted">{t(inRelease ? "publishing.releaseReferencesHint" : "publishing.referencesHint")}</p>
      <ul>
        {references.map((reference) => (
          <li key={reference.contentId}>
            <label>
              <input type="checkbox" name="include" value={reference.contentId} form={form} defaultChecked />{" "}
              <strong>{reference.title || reference.contentId}</strong> <span className="muted">{reference.bucketName}</span>{" "}
              <PublicationBadge state={reference.state} />
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
