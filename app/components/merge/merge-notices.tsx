import { useTranslation } from "react-i18next";
import { StatusNotice } from "~/components/flash-notice";
// The `history` catalogue part comes with this code (core/catalogue-parts.ts): its `merge` messages are here.
import "~/components/history/history-messages";
import { MERGE_CHOICE_FIELD } from "@core/form/resolve";
import type { MergeConflicts } from "@core/content/merge";

/*
 * What a stored document's edit page says about merging (server/content/merge-save.ts): after a save merged with
 * someone else's, whose changes to which fields it took; after a stale save that changed the same fields, both
 * values of each and the choice. Passed by the stored document's routes only (a new document cannot conflict), so
 * that a new document's page does not load it (issue 36's JavaScript budget).
 */

export function MergeNotices({
  loaderData: { merged },
  actionData,
  formId,
}: {
  /** After a merged save: whose changes were taken, to which fields. */
  loaderData: { merged: { author: string | null; fields: string[] } | null };
  /** After a stale save that changed the same fields: the conflicts ("merge"). */
  actionData?: { notice: string | null; merge?: MergeConflicts };
  /** The edit form's id: the choices belong to it, though shown above it. */
  formId: string;
}) {
  const { t, i18n } = useTranslation();
  if (actionData?.notice === "merge" && actionData.merge) return <MergeChoices merge={actionData.merge} formId={formId} />;
  // The page's first render after the merged save only (a later post's reply replaces it).
  if (!merged || actionData) return null;
  return (
    <StatusNotice tone="success">
      {t(merged.author ? "merge.saved" : "merge.savedAnonymous", {
        author: merged.author,
        fields: new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(merged.fields),
      })}
    </StatusNotice>
  );
}

/** Both values of each field both sides changed, and radios of the edit form (`form`) to choose, with or without JavaScript. */
function MergeChoices({ merge, formId }: { merge: MergeConflicts; formId: string }) {
  const { t } = useTranslation();
  const theirs = merge.author ? t("merge.theirs", { author: merge.author }) : t("merge.theirsAnonymous");
  const shown = (value: string) => (value === "" ? <em>{t("merge.empty")}</em> : value);
  return (
    <div className="form-error merge-conflicts" role="alert">
      <p>{merge.author ? t("merge.conflict", { author: merge.author }) : t("merge.conflictAnonymous")}</p>
      {merge.fields.map((field) => (
        <fieldset key={field.name} className="merge-conflict" data-merge-field={field.name}>
          <legend>{field.label}</legend>
          <dl>
            <dt>{t("merge.yours")}</dt>
            <dd>{shown(field.mine)}</dd>
            <dt>{theirs}</dt>
            <dd>{shown(field.theirs)}</dd>
          </dl>
          <label>
            <input type="radio" form={formId} name={`${MERGE_CHOICE_FIELD}.${field.name}`} value="mine" defaultChecked />{" "}
            {t("merge.keepMine")}
          </label>
          <label>
            <input type="radio" form={formId} name={`${MERGE_CHOICE_FIELD}.${field.name}`} value="theirs" /> {t("merge.takeTheirs")}
          </label>
        </fieldset>
      ))}
    </div>
  );
}
