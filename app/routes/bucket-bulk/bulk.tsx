import type { RouteHandle } from "@core/route-handle";
import { useTranslation } from "react-i18next";
import { data, Form, Link } from "react-router";
import { bucketName } from "@core/content/bucket-name";
import { overviewPath, savedDocumentPath } from "@core/content/screens";
import { translate, translateMessage } from "@core/messages";
import {
  bulkDelete,
  bulkDuplicate,
  bulkSetField,
  documentTitles,
  fieldChange,
  MAX_BULK_DOCUMENTS,
  type BulkOutcome,
} from "@server/content/bulk-actions";
import { findWhereUsedOfMany } from "@server/content/where-used";
import { HttpError } from "@server/errors";
import { requireBucketAccess } from "@server/web/guards";
import { formText, readForm } from "@server/web/read-form";
import { getRequestState } from "@server/web/request-state";
import { pageRoute } from "@server/web/respond";
import { WhereUsedList } from "~/components/where-used";
import { pageTitle } from "~/lib/page-title";
import { readBulkAction, readSelectionFields, selectionIds, selectionQuery, settableFieldsOf, type SettableField } from "./bulk.server";
import type { Route } from "./+types/bulk";

export const handle = { messages: ["pages"] } satisfies RouteHandle;

/*
 * /b/{bucket}/bulk?action=set|duplicate|delete (issue 34): what the overview's bulk bar asked, for the documents it
 * selected: the documents (a sample and their number), for a delete the documents elsewhere that refer to them, for
 * a change of a field the field and its value; then the post, and its outcome (the documents skipped and why).
 */

/** The most skipped documents an outcome lists; the rest are counted. */
const LISTED_SKIPS = 100;
/** The most documents the page names before it acts. */
const SAMPLE = 10;

async function bulkTarget(request: Request, context: Route.LoaderArgs["context"], bucketSlug: string | undefined) {
  const { user, bucket } = await requireBucketAccess(request, context, bucketSlug);
  if (bucket.singleton) throw new HttpError(404, "errors.notFound");
  const { locale } = await getRequestState(request, context);
  return { user, bucket, locale };
}

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { user, bucket, locale } = await bulkTarget(request, context, params.bucket);
  const url = new URL(request.url);
  const action = readBulkAction(url.searchParams.get("action"));
  const selection = readSelectionFields(
    (name) => url.searchParams.get(name),
    (name) => url.searchParams.getAll(name),
  );
  const { ids, tooMany } = await selectionIds(context.db, bucket, selection);
  const name = bucketName(bucket, locale);
  const fields = action === "set" ? settableFieldsOf(bucket) : [];
  return {
    title: translate(locale, `bulk.${action}Title`, { bucket: name }),
    bucket: { name, overview: overviewPath(bucket) },
    action,
    selection: selectionQuery(selection),
    count: ids.length,
    tooMany,
    max: MAX_BULK_DOCUMENTS,
    sample: await documentTitles(context.db, bucket, ids.slice(0, SAMPLE)),
    whereUsed:
      action === "delete" && ids.length
        ? await findWhereUsedOfMany(context.db, user, { collection: bucket.collectionName, contentIds: ids, locale })
        : null,
    fields,
    field: fields.find((field) => field.header === url.searchParams.get("field")) ?? null,
  };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, bucket, locale } = await bulkTarget(request, context, params.bucket);
  const form = await readForm(request);
  const action = readBulkAction(formText(form, "action"));
  const selection = readSelectionFields(
    (name) => (form.has(name) ? formText(form, name) : null),
    (name) => form.getAll(name).filter((value): value is string => typeof value === "string"),
  );
  const { ids, tooMany } = await selectionIds(context.db, bucket, selection);
  if (tooMany)
    return data({ refusal: translate(locale, "bulk.tooMany", { max: MAX_BULK_DOCUMENTS.toLocaleString(locale) }) }, { status: 413 });
  const bulk = { services: context, actor: user, bucket, locale };
  let outcome: BulkOutcome;
  if (action === "set") {
    const header = formText(form, "field");
    const change = fieldChange(bucket, header, formText(form, "value"));
    if (!change.ok) return data({ refusal: translateMessage(locale, change.message) }, { status: 422 });
    outcome = await bulkSetField(bulk, ids, change.change, header);
  } else outcome = action === "duplicate" ? await bulkDuplicate(bulk, ids) : await bulkDelete(bulk, ids);
  return {
    outcome: {
      action,
      done: outcome.done,
      unchanged: outcome.unchanged,
      skippedCount: outcome.skipped.length,
      skipped: outcome.skipped.slice(0, LISTED_SKIPS).map((skip) => ({ ...skip, path: savedDocumentPath(bucket, skip.contentId) })),
    },
  };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

type LoaderData = Route.ComponentProps["loaderData"];

export default function BulkPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { bucket, count } = loaderData;
  const outcome = actionData && "outcome" in actionData ? actionData.outcome : null;
  return (
    <section className="bulk-page">
      <h1>{loaderData.title}</h1>
      {actionData && "refusal" in actionData ? (
        <p className="form-error" role="alert">
          {actionData.refusal}
        </p>
      ) : null}
      {outcome ? (
        <OutcomeReport outcome={outcome} />
      ) : loaderData.tooMany ? (
        <p className="form-error">{t("bulk.tooMany", { max: loaderData.max.toLocaleString(i18n.language) })}</p>
      ) : count === 0 ? (
        <p>{t("bulk.nothingSelected")}</p>
      ) : (
        <>
          <p>{t("bulk.selected", { count })}</p>
          <ul className="bulk-sample">
            {loaderData.sample.map((document) => (
              <li key={document.contentId}>{document.title || t("overview.untitled")}</li>
            ))}
          </ul>
          {count > loaderData.sample.length ? (
            <p className="muted">{t("bulk.andMore", { count: count - loaderData.sample.length })}</p>
          ) : null}
          <ActionForms data={loaderData} />
        </>
      )}
      <p className="bulk-links">
        <Link to={bucket.overview}>{t("transfer.backToOverview", { bucket: bucket.name })}</Link>
      </p>
    </section>
  );
}

function SelectionInputs({ selection, action }: { selection: LoaderData["selection"]; action: string }) {
  return (
    <>
      <input type="hidden" name="action" value={action} />
      {selection.map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

function ActionForms({ data: loaderData }: { data: LoaderData }) {
  const { t } = useTranslation();
  const { action, selection, count } = loaderData;
  if (action === "set") return <SetFieldForms data={loaderData} />;
  return (
    <>
      {loaderData.whereUsed ? <WhereUsedList whereUsed={loaderData.whereUsed} ofSelection /> : null}
      <Form method="post" className="bulk-confirm">
        <SelectionInputs selection={selection} action={action} />
        <button type="submit" className={action === "delete" ? "button danger" : "button primary"}>
          {t(`bulk.${action}Button`, { count })}
        </button>
      </Form>
    </>
  );
}

/** First the field (a GET, so its input can be the field's own without JavaScript), then its value (the post). */
function SetFieldForms({ data: loaderData }: { data: LoaderData }) {
  const { t } = useTranslation();
  const { selection, count, fields, field } = loaderData;
  return (
    <>
      <Form method="get" className="bulk-field-choice">
        <SelectionInputs selection={selection} action="set" />
        <label htmlFor="bulk-field">{t("bulk.field")}</label>
        <select id="bulk-field" name="field" defaultValue={field?.header ?? ""} key={field?.header ?? ""}>
          <option value="" disabled>
            {t("bulk.chooseField")}
          </option>
          {fields.map((option) => (
            <option key={option.header} value={option.header}>
              {option.label}
            </option>
          ))}
        </select>
        <button type="submit" className="button">
          {t("bulk.choose")}
        </button>
      </Form>
      {field ? (
        <Form method="post" className="bulk-set" key={field.header}>
          <SelectionInputs selection={selection} action="set" />
          <input type="hidden" name="field" value={field.header} />
          <label htmlFor="bulk-value">{t("bulk.value", { field: field.label })}</label>
          <ValueInput field={field} />
          <p className="hint">{t("bulk.valueHint")}</p>
          <button type="submit" className="button primary">
            {t("bulk.setButton", { count })}
          </button>
        </Form>
      ) : null}
    </>
  );
}

function ValueInput({ field }: { field: SettableField }) {
  const { t } = useTranslation();
  if (field.options || field.kind === "boolean") {
    const options = field.options ?? ["true", "false"];
    return (
      <select id="bulk-value" name="value" defaultValue={options[0]}>
        {options.map((option) => (
          <option key={option} value={option}>
            {field.kind === "boolean" ? t(option === "true" ? "bulk.yes" : "bulk.no") : option}
          </option>
        ))}
        <option value="">{t("bulk.empty")}</option>
      </select>
    );
  }
  if (field.kind === "json") return <textarea id="bulk-value" name="value" rows={4} spellCheck={false} />;
  return <input id="bulk-value" name="value" type="text" inputMode={field.kind === "text" ? undefined : "decimal"} />;
}

function OutcomeReport({
  outcome,
}: {
  outcome: NonNullable<Extract<Route.ComponentProps["actionData"], { outcome: unknown }>>["outcome"];
}) {
  const { t } = useTranslation();
  return (
    <div role="status" className="bulk-outcome">
      <p>{t(`bulk.${outcome.action}Done`, { count: outcome.done })}</p>
      {outcome.unchanged ? <p>{t("bulk.unchanged", { count: outcome.unchanged })}</p> : null}
      {outcome.skippedCount ? (
        <>
          <p>{t("bulk.skipped", { count: outcome.skippedCount })}</p>
          <ul className="bulk-skipped">
            {outcome.skipped.map((skip) => (
              <li key={skip.contentId}>
                <Link to={skip.path}>{skip.title || t("overview.untitled")}</Link>
                <ul>
                  {skip.messages.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          {outcome.skippedCount > outcome.skipped.length ? (
            <p className="muted">{t("bulk.moreSkipped", { count: outcome.skippedCount - outcome.skipped.length })}</p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
