import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import { findBucketBySlug } from "@server/content/buckets";
import { assessSchemaChange } from "@server/content/schema-impact";
import { requireAdmin } from "@server/web/guards";
import { getRequestState } from "@server/web/request-state";
import { HttpError } from "@server/errors";
import { pageRoute } from "@server/web/respond";
import { readSchemaText, SCHEMA_FIELD } from "@core/schema/impact";
import { SchemaImpactProgress, SchemaImpactReport, useSchemaImpact } from "~/components/schema-impact";
import { messageText } from "~/lib/i18n";
import type { Route } from "./+types/bucket-impact";
import { interfaceBucketName } from "@server/web/request-state";
import { pageTitle } from "~/lib/page-title";
import { readForm } from "@server/web/read-form";

/*
 * /settings/buckets/{slug}/impact: what a proposed schema would do to the bucket's documents, before it is saved.
 * With JavaScript the form's submit streams the check (POST …/impact/stream) with a progress bar; without, the form
 * posts here and the check runs before the page answers. Nothing is saved.
 */

async function findBucket(context: Route.LoaderArgs["context"], slug: string) {
  const bucket = await findBucketBySlug(context.db, slug);
  if (!bucket) throw new HttpError(404, "errors.notFound");
  return bucket;
}

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  await requireAdmin(request, context);
  const bucket = await findBucket(context, params.slug);
  return {
    bucket: { slug: bucket.slug, name: await interfaceBucketName(request, context, bucket) },
    schemaText: JSON.stringify(bucket.jsonSchema, null, 2),
  };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  await requireAdmin(request, context);
  const bucket = await findBucket(context, params.slug);
  const text = (await readForm(request)).get(SCHEMA_FIELD);
  const schemaText = typeof text === "string" ? text : "";
  const proposed = readSchemaText(text);
  if (!proposed.ok) return data({ schemaText, error: proposed.error, report: null }, { status: 400 });
  const report = await assessSchemaChange(context.db, bucket, proposed.schema, {
    messageLocale: (await getRequestState(request, context)).locale,
    signal: request.signal,
  });
  return { schemaText, error: null, report };
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.bucket.name);

export default function BucketImpact({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { bucket } = loaderData;
  const impact = useSchemaImpact(bucket.slug);
  const schema = useRef<HTMLTextAreaElement>(null);
  const { state } = impact;
  // The streamed check (JavaScript) replaces the posted one (no JavaScript) once it starts.
  const report = state.status === "done" ? state.report : state.status === "idle" ? actionData?.report : null;
  const running = state.status === "running" || navigation.state === "submitting";
  const error =
    state.status === "error"
      ? state.key
        ? t(state.key, { reason: state.message })
        : state.message
      : state.status === "idle" && actionData?.error
        ? messageText(t, actionData.error)
        : null;

  return (
    <section className="bucket-impact">
      <p className="eyebrow">
        <Link to={`/settings/buckets/${bucket.slug}`}>{bucket.name}</Link>
      </p>
      <h1>{t("schemaImpact.heading", { bucket: bucket.name })}</h1>
      <p className="impact-intro">{t("schemaImpact.intro")}</p>
      <Form
        method="post"
        className="impact-form"
        onSubmit={(event) => {
          event.preventDefault();
          impact.check(schema.current?.value ?? "");
        }}
      >
        <label htmlFor="impact-schema">{t("schemaImpact.schemaLabel")}</label>
        <textarea
          id="impact-schema"
          ref={schema}
          name={SCHEMA_FIELD}
          className="schema-text"
          rows={18}
          spellCheck={false}
          defaultValue={actionData?.schemaText ?? loaderData.schemaText}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "impact-error" : undefined}
        />
        {error ? (
          <p id="impact-error" className="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button primary" disabled={running}>
          {t("schemaImpact.check")}
        </button>
      </Form>
      {state.status === "running" ? <SchemaImpactProgress progress={state.progress} /> : null}
      {report ? <SchemaImpactReport report={report} /> : null}
    </section>
  );
}
