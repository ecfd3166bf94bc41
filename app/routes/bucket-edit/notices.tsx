import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { FlashNotice, StatusNotice } from "~/components/flash-notice";
import { documentPath } from "@core/content/screens";
import type { FormReply, MergeConflicts } from "@server/content/save-form";
import { MERGE_CHOICE_PREFIX } from "@core/content/merge";
import type { BucketEditData } from "./edit.server";

/**
 * The edit page's notices under its heading (page.tsx): a save or restore, a popup's draft and its way back, an
 * older version, a conflict, a stored document that no longer fits its schema or a form that did not validate.
 */
export function EditNotices({
  loaderData,
  actionData,
  returnToken,
  invalid,
  formId,
}: {
  loaderData: BucketEditData;
  actionData?: FormReply;
  returnToken: string | null | undefined;
  invalid: boolean;
  /** The edit form's id: a merge conflict's choices belong to it, though shown above it. */
  formId: string;
}) {
  const { t, i18n } = useTranslation();
  const latestPath = documentPath(loaderData.bucket, loaderData.contentId ?? "");
  return (
    <>
      {loaderData.saved && !actionData && !loaderData.merged ? <FlashNotice>{t("form.saved")}</FlashNotice> : null}
      {loaderData.merged && !actionData ? (
        <StatusNotice tone="success">
          {t(loaderData.merged.author ? "form.merged" : "form.mergedAnonymous", {
            author: loaderData.merged.author,
            fields: new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(loaderData.merged.fields),
          })}
        </StatusNotice>
      ) : null}
      {actionData?.notice === "merge" && actionData.merge ? <MergeChoices merge={actionData.merge} formId={formId} /> : null}
      {loaderData.restored && !actionData ? <FlashNotice>{t("form.restored", { number: loaderData.restored })}</FlashNotice> : null}
      {loaderData.draft && !actionData ? (
        <StatusNotice tone={loaderData.draft.restored ? "success" : "warning"}>
          {t(loaderData.draft.restored ? "subForm.draftRestored" : "subForm.draftGone")}
        </StatusNotice>
      ) : null}
      {returnToken ? (
        <StatusNotice tone="warning">
          {t("subForm.returnTo")} {loaderData.cancelReturn ? <a href={loaderData.cancelReturn}>{t("subForm.goBack")}</a> : null}
        </StatusNotice>
      ) : null}
      {loaderData.latestVersionId ? (
        <StatusNotice tone="warning">
          {t("form.olderVersion")} <Link to={latestPath}>{t("form.openLatestVersion")}</Link>
        </StatusNotice>
      ) : null}
      {actionData?.notice === "conflict" ? (
        <div className="form-error" role="alert">
          <p>{t("form.conflict")}</p>
          <p>
            <a href={latestPath} target="_blank" rel="noreferrer">
              {t("form.openLatest")}
            </a>
          </p>
        </div>
      ) : null}
      {loaderData.storedErrors && !actionData ? (
        <StatusNotice tone="warning">{t("form.schemaImpactNotice")}</StatusNotice>
      ) : invalid && actionData?.notice !== "conflict" && actionData?.notice !== "merge" ? (
        <p className="form-error" role="alert">
          {t("form.invalid")}
        </p>
      ) : null}
    </>
  );
}

/**
 * A stale save whose fields someone else changed too: both values of each, and the choice between them. The radios
 * belong to the edit form (`form`), so that its save, with or without JavaScript, carries the choices.
 */
function MergeChoices({ merge, formId }: { merge: MergeConflicts; formId: string }) {
  const { t } = useTranslation();
  const theirs = merge.author ? t("form.mergeTheirs", { author: merge.author }) : t("form.mergeTheirsAnonymous");
  const shown = (value: string) => (value === "" ? <em>{t("form.mergeEmpty")}</em> : value);
  return (
    <div className="form-error merge-conflicts" role="alert">
      <p>{merge.author ? t("form.mergeConflict", { author: merge.author }) : t("form.mergeConflictAnonymous")}</p>
      {merge.fields.map((field) => (
        <fieldset key={field.name} className="merge-conflict" data-merge-field={field.name}>
          <legend>{field.label}</legend>
          <dl>
            <dt>{t("form.mergeYours")}</dt>
            <dd>{shown(field.mine)}</dd>
            <dt>{theirs}</dt>
            <dd>{shown(field.theirs)}</dd>
          </dl>
          <label>
            <input type="radio" form={formId} name={`${MERGE_CHOICE_PREFIX}${field.name}`} value="mine" defaultChecked />{" "}
            {t("form.mergeKeepMine")}
          </label>
          <label>
            <input type="radio" form={formId} name={`${MERGE_CHOICE_PREFIX}${field.name}`} value="theirs" /> {t("form.mergeTakeTheirs")}
          </label>
        </fieldset>
      ))}
    </div>
  );
}
