import { useTranslation } from "react-i18next";
import { data, Form, redirect } from "react-router";
import { listReleases, releasesOfDocument } from "@server/content/releases";
import { addToRelease, createRelease } from "@server/content/release-editing";
import { historyEntries } from "@server/content/history";
import { pageRoute } from "@server/web/respond";
import { formText, readForm } from "@server/web/read-form";
import { interfaceBucketName } from "@server/web/request-state";
import { savedDocumentPath } from "@core/content/screens";
import { documentTitle } from "@core/content/title";
import { RELEASE_NAME_MAX } from "@core/content/release";
import { pageTitle } from "~/lib/page-title";
import { ReleaseBadge } from "~/components/releases/release-badge";
import { requirePublishing, versionToPublish } from "../bucket-publish/publish.server";
import { refusalOf, type ReleaseRefusal } from "../releases/releases.server";
import type { Route } from "./+types/add";
import "~/components/releases/release-messages";
import "~/styles/releases.css";
import { SubmitOrCancel } from "~/components/submit-or-cancel";

/*
 * /b/{bucket}/{contentId}/release (docs/publishing.md, Releases): adds the document to a release that can still be
 * changed, or to a new one named here, at its newest version when the release goes live or at the version the editor
 * came from (?versionId=). A page and a form post, with or without JavaScript; then the release's page.
 */

const NEW = "new";

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { bucket, contentId, publication } = await requirePublishing(request, context, params);
  const version = await versionToPublish(context, bucket, contentId, publication, new URL(request.url).searchParams.get("versionId") ?? "");
  const [entry] = await historyEntries(context.db, bucket.id, contentId, [version.versionId]);
  const [releases, containing] = await Promise.all([
    listReleases(context.db, { states: ["open", "scheduled"], limit: 200 }),
    releasesOfDocument(context.db, contentId),
  ]);
  const inRelease = new Set(containing.map((release) => release.id));
  return {
    bucketName: await interfaceBucketName(request, context, bucket),
    title: documentTitle(version.data, bucket.jsonSchema, bucket.locales),
    documentPath: savedDocumentPath(bucket, contentId),
    versionId: version.versionId,
    versionNumber: entry?.number ?? null,
    releases: releases.map((release) => ({
      id: release.id,
      name: release.name,
      state: release.state,
      contains: inRelease.has(release.id),
    })),
  };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, bucket, contentId, publication } = await requirePublishing(request, context, params);
  const form = await readForm(request);
  const field = (name: string) => formText(form, name);
  const refused = (refusal: ReleaseRefusal) =>
    data({ refusal, releaseId: field("releaseId"), name: field("name"), versionId: field("versionId") }, { status: refusal.status });
  const chosen = field("releaseId");
  if (!chosen) return refused({ status: 400, message: "releases.errors.noRelease" });
  const versionId = field("versionId")
    ? (await versionToPublish(context, bucket, contentId, publication, field("versionId"))).versionId
    : null;
  const actor = { id: user.id, name: user.name };
  let releaseId = chosen;
  const refusal = await refusalOf(async () => {
    if (chosen === NEW) releaseId = (await createRelease(context.db, actor, { name: field("name") })).id;
    await addToRelease(context.db, actor, releaseId, { bucketId: bucket.id, contentId, versionId });
  });
  if (refusal) return refused(refusal);
  throw redirect(`/releases/${releaseId}?notice=added`);
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title || loaderData.bucketName);

export default function AddToRelease({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { releases } = loaderData;
  const name = loaderData.title || loaderData.bucketName;
  const chosen = actionData?.releaseId ?? releases[0]?.id ?? NEW;
  const version = actionData?.versionId ?? "";
  return (
    <section className="release-add">
      <p className="eyebrow">{loaderData.bucketName}</p>
      <h1>{t("releases.addTitle", { title: name })}</h1>
      {actionData?.refusal ? (
        <div className="form-error" role="alert">
          <p>{t(actionData.refusal.message, actionData.refusal.params)}</p>
        </div>
      ) : null}
      <Form method="post" className="release-add-form">
        <fieldset>
          <legend>{t("releases.addChoose")}</legend>
          {releases.map((release) => (
            <label key={release.id} className="release-choice">
              <input type="radio" name="releaseId" value={release.id} defaultChecked={chosen === release.id} />
              <span>
                {release.name} <ReleaseBadge state={release.state} />
                {release.contains ? <span className="muted"> · {t("releases.inRelease")}</span> : null}
              </span>
            </label>
          ))}
          <label className="release-choice">
            <input type="radio" name="releaseId" value={NEW} defaultChecked={chosen === NEW} />
            <span>{t("releases.addNew")}</span>
          </label>
          <input
            type="text"
            name="name"
            aria-label={t("releases.newName")}
            maxLength={RELEASE_NAME_MAX}
            defaultValue={actionData?.name ?? ""}
            className="release-new-name"
          />
        </fieldset>
        <fieldset>
          <legend>{t("releases.addVersion")}</legend>
          <label className="release-choice">
            <input type="radio" name="versionId" value="" defaultChecked={version === ""} />
            <span>{t("releases.addVersionNewest")}</span>
          </label>
          <label className="release-choice">
            <input type="radio" name="versionId" value={loaderData.versionId} defaultChecked={version === loaderData.versionId} />
            <span>{t("releases.addVersionThis", { number: loaderData.versionNumber ?? "?" })}</span>
          </label>
        </fieldset>
        <SubmitOrCancel
          className="release-actions"
          submit={t("releases.add")}
          cancel={t("releases.cancel")}
          cancelTo={loaderData.documentPath}
        />
      </Form>
    </section>
  );
}
