import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useLocation } from "react-router";
import { createReleaseShareable, createShareable, listShareables, revokeShareable } from "@server/content/shareables";
import { requireBucketAccess, requireUser } from "@server/web/guards";
import { HttpError } from "@server/errors";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { hasPermission } from "@server/accounts/users";
import { createReleaseShareSchema, createShareSchema, revokeShareSchema, sharePaths } from "@core/content/shareables";
import { translate } from "@core/messages";
import { ConfirmIntentDialog } from "~/components/confirm-dialog";
import "~/components/share/share-messages";
import { FlashNotice } from "~/components/flash-notice";
import { CreatedLink } from "~/components/share/created-link";
import { When } from "~/components/when";
import "~/styles/shareables.css";
import type { Route } from "./+types/list";
import { pageTitle } from "~/lib/page-title";
import { readForm } from "@server/web/read-form";
import "~/components/history/history-messages";

/*
 * /shareables: the links the user made (an admin: everyone's), with their document, bucket, version, expiry and
 * state; revoking asks first (?revoke={id}: a confirm dialog whose button posts, so it works without JavaScript).
 * The edit page's share panel posts here, and a release page's share form (with `releaseId`:
 * app/components/publishing/release-share-form.tsx): the answer shows the new link once (only its hash is stored, so
 * it is never shown again, and never put in a URL of ours but its own).
 */

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  const user = await requireUser(request, context);
  const { locale } = await getRequestState(request, context);
  const shares = await listShareables(context.db, user, locale);
  const search = new URL(request.url).searchParams;
  const revoking = shares.find((share) => share.id === search.get("revoke") && share.state === "active") ?? null;
  const revoked = shares.find((share) => share.id === search.get("revoked") && share.state === "revoked") ?? null;
  return {
    title: translate(locale, "shareables.title"),
    shares,
    admin: hasPermission(user, "admin"),
    revoking,
    revoked: revoked?.title ?? null,
  };
});

export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireUser(request, context);
  const formData = await readForm(request);
  if (formData.get("intent") === "revoke") {
    const submission = parseWithZod(formData, { schema: revokeShareSchema });
    if (submission.status !== "success" || !(await revokeShareable(context.db, user, submission.value.id))) {
      return data({ intent: "revoke" as const, revokeFailed: true }, { status: 404 });
    }
    context.logger.info({ shareableId: submission.value.id }, "shareable link revoked");
    throw redirect(`/shareables?revoked=${encodeURIComponent(submission.value.id)}`);
  }
  const posted = formData.get("back");
  // Where the form was: a document's or a release's page (the error links back to it), never another site.
  const back = typeof posted === "string" && (posted.startsWith("/b/") || posted.startsWith("/releases/")) ? posted : null;
  let made: Awaited<ReturnType<typeof createShareable>>;
  let result;
  if (formData.has("releaseId")) {
    // A link to a release: any signed-in user who may use the product (the guard above); it shows what its maker sees.
    const submission = parseWithZod(formData, { schema: createReleaseShareSchema });
    if (submission.status !== "success")
      return data({ intent: "create" as const, result: submission.reply(), created: null, back }, { status: 400 });
    made = await createReleaseShareable(context.db, user, submission.value);
    result = submission.reply();
  } else {
    const submission = parseWithZod(formData, { schema: createShareSchema });
    if (submission.status !== "success")
      return data({ intent: "create" as const, result: submission.reply(), created: null, back }, { status: 400 });
    const { bucket } = await requireBucketAccess(request, context, submission.value.bucket);
    made = await createShareable(context.db, user, bucket, submission.value);
    result = submission.reply();
  }
  if (!made) throw new HttpError(404, "errors.notFound");
  context.logger.info({ shareableId: made.id }, "shareable link created");
  const origin = context.config.PUBLIC_URL ? new URL(context.config.PUBLIC_URL).origin : new URL(request.url).origin;
  // Rendered in this answer only: the token is never stored, logged, or put in another URL.
  return data(
    {
      intent: "create" as const,
      // The choices stay as they were: another link is often made with the same ones.
      result,
      created: { id: made.id, url: origin + sharePaths(made.token).page, expiresAt: made.expiresAt.toISOString() },
      back,
    },
    { status: 201, headers: { "Referrer-Policy": "no-referrer" } },
  );
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function Shareables({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const { shares, revoking } = loaderData;
  const createResult = actionData?.intent === "create" ? actionData : undefined;
  const createErrors = createResult && !createResult.created ? Object.values(createResult.result.error ?? {}).flat() : [];
  return (
    <section className="shareables-page">
      <h1>{t("shareables.title")}</h1>
      <p className="muted">{loaderData.admin ? t("shareables.introAdmin") : t("shareables.intro")}</p>
      {createResult?.created ? <CreatedLink url={createResult.created.url} expiresAt={createResult.created.expiresAt} /> : null}
      {createErrors.length ? (
        <div className="form-error" role="alert">
          <p>{t("shareables.errors.notCreated")}</p>
          {[...new Set(createErrors)].map((key) => (
            <p key={key}>{t(key as "shareables.errors.notCreated")}</p>
          ))}
          {createResult?.back ? (
            <Link to={createResult.back}>
              {t(createResult.back.startsWith("/releases/") ? "shareables.release.backToRelease" : "shareables.backToDocument")}
            </Link>
          ) : null}
        </div>
      ) : null}
      {loaderData.revoked ? <FlashNotice>{t("shareables.revoked", { title: loaderData.revoked })}</FlashNotice> : null}
      {actionData?.intent === "revoke" ? (
        <div className="form-error" role="alert">
          <p>{t("shareables.errors.revokeFailed")}</p>
        </div>
      ) : null}
      {shares.length === 0 ? (
        <p className="empty">{t("shareables.empty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="content-table shareables-table">
            <caption className="visually-hidden">{t("shareables.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("shareables.columns.document")}</th>
                <th scope="col">{t("shareables.columns.version")}</th>
                <th scope="col">{t("shareables.columns.expires")}</th>
                <th scope="col">{t("shareables.columns.state")}</th>
                {loaderData.admin ? <th scope="col">{t("shareables.columns.madeBy")}</th> : null}
                <th scope="col">
                  <span className="visually-hidden">{t("shareables.columns.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shares.map((share) => (
                <tr key={share.id} data-shareable={share.id} data-state={share.state}>
                  <th scope="row">
                    <Link to={share.documentPath}>{share.title}</Link>
                    <span className="shareable-bucket muted">{share.bucketName}</span>
                  </th>
                  <td>
                    {share.kind === "release"
                      ? t("shareables.release.version")
                      : share.versionNumber === null
                        ? t("shareables.latest")
                        : t("history.version", { number: share.versionNumber })}
                  </td>
                  <td>
                    <When iso={share.expiresAt} />
                  </td>
                  <td>
                    <span className={`shareable-state state-${share.state}`}>{t(`shareables.state.${share.state}`)}</span>
                  </td>
                  {loaderData.admin ? <td>{share.createdByName}</td> : null}
                  <td>
                    {share.state === "active" ? (
                      <Link
                        to={`/shareables?revoke=${share.id}`}
                        className="button small danger"
                        aria-label={t("shareables.revokeLabel", { title: share.title })}
                        preventScrollReset
                      >
                        {t("shareables.revoke")}
                      </Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {revoking ? (
        <ConfirmIntentDialog
          title={t("shareables.revokeTitle")}
          cancelTo={location.pathname}
          intent="revoke"
          action="/shareables"
          fields={{ id: revoking.id }}
          confirmText={t("shareables.revokeConfirm")}
        >
          <p>{t("shareables.revokeText", { title: revoking.title })}</p>
        </ConfirmIntentDialog>
      ) : null}
    </section>
  );
}
