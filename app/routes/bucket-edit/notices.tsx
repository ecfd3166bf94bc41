import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { FlashNotice, StatusNotice } from "~/components/flash-notice";
import { documentPath } from "@core/content/screens";
import type { FormReply } from "@server/content/save-form";
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
}: {
  loaderData: BucketEditData;
  actionData?: FormReply;
  returnToken: string | null | undefined;
  invalid: boolean;
}) {
  const { t } = useTranslation();
  const latestPath = documentPath(loaderData.bucket, loaderData.contentId ?? "");
  return (
    <>
      {loaderData.saved && !actionData ? <FlashNotice>{t("form.saved")}</FlashNotice> : null}
      {loaderData.restored && !actionData ? <FlashNotice>{t("form.restored", { number: loaderData.restored })}</FlashNotice> : null}
      {loaderData.draft && !actionData ? (
        <StatusNotice tone={loaderData.draft.restored && !loaderData.draft.notice ? "success" : "warning"}>
          {loaderData.draft.notice ?? t(loaderData.draft.restored ? "subForm.draftRestored" : "subForm.draftGone")}
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
      ) : invalid && actionData?.notice !== "conflict" ? (
        <p className="form-error" role="alert">
          {t("form.invalid")}
        </p>
      ) : null}
    </>
  );
}
