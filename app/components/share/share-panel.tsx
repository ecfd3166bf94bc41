import { getFormProps, parse, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLocation } from "react-router";
import { LATEST } from "@core/content/share-choices";
import type { CreateShareInput } from "@core/content/shareables";
import { FieldError, FormError } from "~/components/form-errors";
import { CreatedLink } from "./created-link";
import { ShareExpiry } from "./share-expiry";
import "./share-messages";
import "~/styles/shareables.css";

/*
 * The edit page's 'Share' action: a read-only link to the version shown or to whatever is the latest, with an
 * expiry. A disclosure over a plain form posted to /shareables (without JavaScript the answer is that page, with
 * the new link); with JavaScript the form is a fetcher's and the link shows here, with a copy button.
 */

type ValidateShare = typeof import("./share-validation").validateShare;

/**
 * The form's check in the browser (createShareSchema, with zod) loads when the panel is first opened, so zod is
 * not part of the edit page's first load. Until it is here, the form goes to /shareables, which checks it the same.
 */
let validateShare: ValidateShare | null = null;
function loadShareValidation() {
  if (validateShare) return;
  import("./share-validation").then(
    (module) => (validateShare = module.validateShare),
    () => undefined,
  );
}
const uncheckedSubmission = (formData: FormData) =>
  parse<CreateShareInput, string[]>(formData, { resolve: (value) => ({ value: value as CreateShareInput }) });

interface CreateAnswer {
  intent: "create";
  result: SubmissionResult;
  created: { id: string; url: string; expiresAt: string } | null;
}

export function SharePanel({
  bucketSlug,
  contentId,
  versionId,
  versionNumber,
  latestVersionId,
}: {
  bucketSlug: string;
  contentId: string;
  /** The version the page shows. */
  versionId: string;
  versionNumber: number | null;
  latestVersionId: string;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const fetcher = useFetcher<CreateAnswer>();
  const answer = fetcher.data?.intent === "create" ? fetcher.data : undefined;
  const [form, fields] = useForm<CreateShareInput>({
    id: `share-${contentId}`,
    lastResult: fetcher.state === "idle" ? answer?.result : undefined,
    onValidate: ({ formData }) => (validateShare ?? uncheckedSubmission)(formData),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const older = versionId !== latestVersionId;
  const thisVersion =
    versionNumber === null ? t("shareables.panel.thisVersion") : t("shareables.panel.thisVersionNumber", { number: versionNumber });
  return (
    <details className="share-panel" open={answer ? true : undefined} onToggle={loadShareValidation}>
      <summary>{t("shareables.panel.title")}</summary>
      <p className="muted">{t("shareables.panel.intro")}</p>
      {answer?.created ? <CreatedLink url={answer.created.url} expiresAt={answer.created.expiresAt} /> : null}
      <fetcher.Form method="post" action="/shareables" className="share-form" {...getFormProps(form)}>
        <FormError errors={form.errors} />
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" name="bucket" value={bucketSlug} />
        <input type="hidden" name="contentId" value={contentId} />
        <input type="hidden" name="back" value={location.pathname} />
        <fieldset>
          <legend>{t("shareables.panel.what")}</legend>
          <label className="share-choice">
            <input type="radio" name="version" value={versionId} defaultChecked={older} /> {thisVersion}
          </label>
          <label className="share-choice">
            <input type="radio" name="version" value={LATEST} defaultChecked={!older} /> {t("shareables.panel.latest")}
          </label>
          <FieldError field={fields.version} />
        </fieldset>
        <ShareExpiry formId={form.id} expiry={fields.expiry} expiresOn={fields.expiresOn} />
        <button type="submit" className="button primary" disabled={fetcher.state !== "idle"}>
          {t("shareables.panel.submit")}
        </button>
      </fetcher.Form>
    </details>
  );
}
