import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import { listReleases } from "@server/content/releases";
import { createRelease } from "@server/content/release-editing";
import { pageRoute } from "@server/web/respond";
import { formText, readForm } from "@server/web/read-form";
import { getRequestState } from "@server/web/request-state";
import { translate } from "@core/messages";
import { ReleaseBadge, ReleaseTime } from "~/components/releases/release-badge";
import { ReleaseNameField } from "~/components/releases/release-name-field";
import { pageTitle } from "~/lib/page-title";
import { exhibitTimeZone, refusalOf, requireReleases } from "./releases.server";
import type { Route } from "./+types/list";
import "~/components/releases/release-messages";
import "~/styles/releases.css";

/*
 * /releases (docs/publishing.md, Releases): every release, newest first, with its state, documents and when it goes
 * (or went) live; a form that creates one by its name. For users who may publish.
 */

export const loader = pageRoute(async ({ request, context }: Route.LoaderArgs) => {
  await requireReleases(request, context);
  const { locale } = await getRequestState(request, context);
  const releases = await listReleases(context.db, { limit: 200 });
  return {
    title: translate(locale, "releases.title"),
    zone: exhibitTimeZone(),
    releases: releases.map((release) => ({
      id: release.id,
      name: release.name,
      state: release.state,
      itemCount: release.itemCount,
      scheduledAt: release.scheduledAt?.toISOString() ?? null,
      publishedAt: release.publishedAt?.toISOString() ?? null,
      rolledBackAt: release.rolledBackAt?.toISOString() ?? null,
    })),
  };
});

export const action = pageRoute(async ({ request, context }: Route.ActionArgs) => {
  const user = await requireReleases(request, context);
  const form = await readForm(request);
  const name = formText(form, "name");
  let created = "";
  const refusal = await refusalOf(async () => {
    created = (await createRelease(context.db, { id: user.id, name: user.name }, { name })).id;
  });
  if (refusal) return data({ refusal, name }, { status: refusal.status });
  throw redirect(`/releases/${created}?notice=created`);
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

export default function Releases({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { releases, zone } = loaderData;
  const refusal = actionData?.refusal;
  return (
    <section className="releases-page">
      <h1>{t("releases.title")}</h1>
      <p className="muted">{t("releases.intro")}</p>
      <Form method="post" className="release-create">
        <ReleaseNameField
          label={t("releases.newName")}
          rowClassName="release-create-row"
          defaultValue={actionData?.name ?? ""}
          errorId={refusal ? "release-name-error" : undefined}
        >
          <button type="submit" className="button primary">
            {t("releases.create")}
          </button>
        </ReleaseNameField>
        {refusal ? (
          <p id="release-name-error" className="field-error" role="alert">
            {t(refusal.message, refusal.params)}
          </p>
        ) : null}
      </Form>
      {releases.length === 0 ? (
        <p className="empty">{t("releases.empty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="content-table releases-table">
            <caption className="visually-hidden">{t("releases.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("releases.columns.name")}</th>
                <th scope="col">{t("releases.columns.state")}</th>
                <th scope="col">{t("releases.columns.documents")}</th>
                <th scope="col">{t("releases.columns.when")}</th>
              </tr>
            </thead>
            <tbody>
              {releases.map((release) => {
                const when = release.rolledBackAt ?? release.publishedAt ?? release.scheduledAt;
                return (
                  <tr key={release.id} data-release={release.id}>
                    <th scope="row">
                      <Link to={`/releases/${release.id}`}>{release.name}</Link>
                    </th>
                    <td>
                      <ReleaseBadge state={release.state} />
                    </td>
                    <td>{t("releases.documents", { count: release.itemCount })}</td>
                    <td>{when ? <ReleaseTime iso={when} zone={zone} /> : null}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
