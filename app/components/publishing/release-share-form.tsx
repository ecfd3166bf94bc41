import { getFormProps, parse, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { useFetcher, useLocation } from "react-router";
import type { CreateReleaseShareInput } from "@core/content/shareables";
import { FieldError, FormError } from "~/components/form-errors";
import { CreatedLink } from "~/components/share/created-link";
import { ShareExpiry } from "~/components/share/share-expiry";
import "~/components/share/share-messages";
import "~/styles/shareables.css";

/*
 * A release page's 'Share this release': a read-only link to the release (each of its documents as the release
 * shows it) with an expiry, as the edit page's share panel makes one for a document. A disclosure over a plain form
 * posted to /shareables with `releaseId` (without JavaScript the answer is that page, showing the new link once);
 * with JavaScript the form is a fetcher's and the link shows here, with a copy button. The server checks the form
 * (createReleaseShareSchema); its refusals show at the fields.
 *
 *   <ReleaseShareForm releaseId={release.id} />
 */

interface CreateAnswer {
  intent: "create";
  result: SubmissionResult;
  created: { id: string; url: string; expiresAt: string } | null;
}

const uncheckedSubmission = (formData: FormData) =>
  parse<CreateReleaseShareInput, string[]>(formData, { resolve: (value) => ({ value: value as CreateReleaseShareInput }) });

export function ReleaseShareForm({ releaseId, open }: { releaseId: string; /** Open at first (default: closed). */ open?: boolean }) {
  const { t } = useTranslation();
  const location = useLocation();
  const fetcher = useFetcher<CreateAnswer>();
  const answer = fetcher.data?.intent === "create" ? fetcher.data : undefined;
  const [form, fields] = useForm<CreateReleaseShareInput>({
    id: `share-release-${releaseId}`,
    lastResult: fetcher.state === "idle" ? answer?.result : undefined,
    onValidate: ({ formData }) => uncheckedSubmission(formData),
    shouldValidate: "onSubmit",
  });
  return (
    <details className="share-panel release-share" open={answer || open ? true : undefined}>
      <summary>{t("shareables.release.form.title")}</summary>
      <p className="muted">{t("shareables.release.form.intro")}</p>
      {answer?.created ? <CreatedLink url={answer.created.url} expiresAt={answer.created.expiresAt} /> : null}
      <fetcher.Form method="post" action="/shareables" className="share-form" {...getFormProps(form)}>
        <FormError errors={form.errors} />
        <FieldError field={fields.releaseId} />
        <input type="hidden" name="intent" value="create" />
        <input type="hidden" name="releaseId" value={releaseId} />
        <input type="hidden" name="back" value={location.pathname} />
        <ShareExpiry formId={form.id} expiry={fields.expiry} expiresOn={fields.expiresOn} />
        <button type="submit" className="button primary" disabled={fetcher.state !== "idle"}>
          {t("shareables.release.form.submit")}
        </button>
      </fetcher.Form>
    </details>
  );
}
