import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { publishReleaseWithReferences, scheduleReleaseWithReferences } from "@server/content/release-references";
import { getRelease } from "@server/content/releases";
import { removeFromRelease, renameRelease, unscheduleRelease } from "@server/content/release-editing";
import { rollbackRelease } from "@server/content/release-rollout";
import { pageRoute } from "@server/web/respond";
import { formText, readForm } from "@server/web/read-form";
import { zonedTimeToInstant } from "@core/zoned-time";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { IntentForm } from "~/components/intent-form";
import { FlashNotice } from "~/components/flash-notice";
import { UnpublishedReferences } from "~/components/publishing/unpublished-references";
import { ReleaseBadge } from "~/components/releases/release-badge";
import { ReleaseFacts } from "~/components/releases/release-facts";
import { ReleaseNameField } from "~/components/releases/release-name-field";
import { ReleaseItemsTable } from "~/components/releases/release-items-table";
import { ReleaseShareForm } from "~/components/publishing/release-share-form";
import { pageTitle } from "~/lib/page-title";
import { exhibitTimeZone, refusalOf, requireReleases, type ReleaseRefusal } from "./releases.server";
import { releasePage } from "./release.server";
import { instantToZonedTime } from "@core/zoned-time";
import type { Route } from "./+types/release";
import "~/components/releases/release-messages";
import "~/components/publishing/publishing-messages";
import "~/styles/releases.css";

/*
 * /releases/{id} (docs/publishing.md, Releases): a release's documents, each with its version, its state now and its
 * changes against what exhibits show; while it can be changed, its name, its documents' removal, its time (a
 * datetime-local input in the exhibits' time zone) and Publish now; once published, Roll back. Publish and Roll back
 * ask first (?confirm=publish|rollback, a dialog whose button posts: it works without JavaScript). Every action
 * posts here (intent) and comes back with ?notice=; a refusal re-renders the page with its message and the input.
 */

const NOTICES = ["created", "added", "removed", "renamed", "scheduled", "unscheduled", "published", "rolledBack"] as const;
type Notice = (typeof NOTICES)[number];

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const user = await requireReleases(request, context);
  const page = await releasePage(request, context, user, params.releaseId);
  const search = new URL(request.url).searchParams;
  const notice = NOTICES.find((name) => name === search.get("notice")) ?? null;
  const asked = search.get("confirm");
  const confirm =
    asked === "publish" && page.editable ? "publish" : asked === "rollback" && page.release.state === "published" ? "rollback" : null;
  const scheduleValue = page.release.scheduledAt ? instantToZonedTime(new Date(page.release.scheduledAt), page.zone) : "";
  return { ...page, notice, confirm, scheduleValue };
});

const includeOf = (form: FormData) => form.getAll("include").filter((value): value is string => typeof value === "string");

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const user = await requireReleases(request, context);
  const actor = { id: user.id, name: user.name };
  const releaseId = params.releaseId;
  const form = await readForm(request);
  const field = (name: string) => formText(form, name);
  const intent = field("intent");
  const refused = (refusal: ReleaseRefusal) => data({ intent, refusal, name: field("name"), at: field("at") }, { status: refusal.status });
  const done = (notice: Notice) => redirect(`/releases/${releaseId}?notice=${notice}`);
  const itemCount = async () => (await getRelease(context.db, releaseId).catch(() => null))?.itemCount ?? 0;
  let refusal: ReleaseRefusal | null;
  switch (intent) {
    case "rename":
      refusal = await refusalOf(() => renameRelease(context.db, actor, releaseId, field("name")));
      return refusal ? refused(refusal) : done("renamed");
    case "remove":
      refusal = await refusalOf(() => removeFromRelease(context.db, actor, releaseId, field("contentId")));
      return refusal ? refused(refusal) : done("removed");
    case "schedule": {
      const at = zonedTimeToInstant(field("at"), exhibitTimeZone());
      if (!at) return refused({ status: 400, message: "releases.errors.timeInvalid" });
      if (!(await itemCount()) && !includeOf(form).length) return refused({ status: 400, message: "releases.errors.noItems" });
      refusal = await refusalOf(() => scheduleReleaseWithReferences(context.db, user, releaseId, at, includeOf(form)));
      return refusal ? refused(refusal) : done("scheduled");
    }
    case "unschedule":
      refusal = await refusalOf(() => unscheduleRelease(context.db, actor, releaseId));
      return refusal ? refused(refusal) : done("unscheduled");
    case "publish":
      if (!(await itemCount())) return refused({ status: 400, message: "releases.errors.noItems" });
      refusal = await refusalOf(() => publishReleaseWithReferences(context.db, user, releaseId, includeOf(form)));
      return refusal ? refused(refusal) : done("published");
    case "rollback":
      refusal = await refusalOf(() => rollbackRelease(context.db, actor, releaseId));
      return refusal ? refused(refusal) : done("rolledBack");
    default:
      return refused({ status: 400, message: "api.formUnreadable" });
  }
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.release.name);

export default function ReleasePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const { release, items, editable, zone, references } = loaderData;
  const refusal = actionData?.refusal;
  const here = location.pathname;
  return (
    <section className="release-page">
      <p className="eyebrow">
        <Link to="/releases">{t("releases.all")}</Link>
      </p>
      <div className="release-heading">
        <h1>{release.name}</h1>
        <ReleaseBadge state={release.state} />
      </div>
      <ReleaseFacts release={release} zone={zone} />
      {loaderData.notice ? <FlashNotice key={loaderData.notice}>{t(`releases.notice.${loaderData.notice}`)}</FlashNotice> : null}
      {refusal ? (
        <div className="form-error" role="alert">
          <p>{t(refusal.message, refusal.params)}</p>
        </div>
      ) : null}

      {editable ? (
        <Form method="post" className="release-rename">
          <ReleaseNameField
            label={t("releases.nameLabel")}
            rowClassName="release-row"
            defaultValue={actionData?.intent === "rename" ? actionData.name : release.name}
          >
            <button type="submit" name="intent" value="rename" className="button">
              {t("releases.rename")}
            </button>
          </ReleaseNameField>
        </Form>
      ) : null}

      <h2>{t("releases.itemsTitle")}</h2>
      {items.length === 0 && loaderData.hiddenItems === 0 ? <p className="empty">{t("releases.noItems")}</p> : null}
      {items.length ? <ReleaseItemsTable items={items} editable={editable} /> : null}
      {loaderData.hiddenItems ? <p className="muted">{t("releases.hiddenItems", { count: loaderData.hiddenItems })}</p> : null}
      {release.state !== "rolled_back" && items.length ? <ReleaseShareForm releaseId={release.id} /> : null}

      {editable ? (
        <section className="release-schedule" aria-labelledby="release-schedule-title">
          <h2 id="release-schedule-title">{t("releases.scheduleTitle")}</h2>
          <Form method="post">
            {references.length ? <UnpublishedReferences references={references} inRelease /> : null}
            <label htmlFor="release-at">{t("releases.scheduleLabel")}</label>
            <div className="release-row">
              <input
                id="release-at"
                name="at"
                type="datetime-local"
                required
                defaultValue={actionData?.intent === "schedule" ? actionData.at : loaderData.scheduleValue}
                aria-describedby="release-at-hint"
              />
              <button type="submit" name="intent" value="schedule" className="button">
                {t(release.state === "scheduled" ? "releases.reschedule" : "releases.schedule")}
              </button>
            </div>
            <p id="release-at-hint" className="muted">
              {t("releases.scheduleHint", { zone })}
            </p>
          </Form>
          <div className="release-actions">
            {release.state === "scheduled" ? (
              <IntentForm intent="unschedule" className="button">
                {t("releases.unschedule")}
              </IntentForm>
            ) : null}
            <Link to="?confirm=publish" className="button primary" preventScrollReset>
              {t("releases.publishNow")}
            </Link>
          </div>
        </section>
      ) : null}
      {release.state === "published" ? (
        <div className="release-actions">
          <Link to="?confirm=rollback" className="button danger" preventScrollReset>
            {t("releases.rollback")}
          </Link>
        </div>
      ) : null}

      {loaderData.confirm === "publish" ? (
        <ConfirmDialog
          title={t("releases.confirmPublishTitle", { name: release.name })}
          cancelTo={here}
          confirm={
            <button type="submit" form="release-publish" name="intent" value="publish" className="button primary">
              {t("releases.publishNow")}
            </button>
          }
        >
          <Form method="post" id="release-publish" action={here}>
            <p>{t("releases.confirmPublishText", { count: release.itemCount })}</p>
            {references.length ? <UnpublishedReferences references={references} inRelease /> : null}
          </Form>
        </ConfirmDialog>
      ) : null}
      {loaderData.confirm === "rollback" ? (
        <ConfirmDialog
          title={t("releases.confirmRollbackTitle", { name: release.name })}
          cancelTo={here}
          confirm={
            <IntentForm intent="rollback" action={here} className="button danger">
              {t("releases.rollback")}
            </IntentForm>
          }
        >
          <p>{t("releases.confirmRollbackText")}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
