import { FormProvider, getFormProps, parse, useForm } from "@conform-to/react";
import type { ValidateFunction } from "ajv";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useLocation, useNavigation } from "react-router";
import {
  ContentNotFoundError, getLatestVersion, getSingletonContent, getVersion, VersionConflictError, type ContentVersion,
} from "../../server/content/store";
import { hasPermission } from "../../server/accounts/users";
import { BucketFormContext } from "../components/form/context";
import { MediaFormContext } from "../components/form/media/context";
import { SchemaField } from "../components/form/schema-field";
import { saveDocument } from "../../server/content/save";
import { documentTitle } from "../../core/content/title";
import { removeHostileEntries } from "../../server/content/hostile";
import { initialValue } from "../../core/form/kinds";
import { applyStepIntent } from "../../core/form/step";
import { loadReferenceOptions } from "../../server/content/references";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD, resolveDocument } from "../../core/form/resolve";
import { requireBucketAccess } from "../../server/web/guards";
import { isUuid } from "../../core/ids";
import { hasMediaField, loadMediaContents, readBucketFormPost } from "../../server/media/form-upload";
import type { JsonSchema } from "../../core/schema/normalize";
import { compileBucketSchema } from "../../server/content/validator";
import { loadBrowserValidator } from "../lib/validator";
import { HttpError } from "../../server/web/http-error";
import { pageRoute } from "../../server/web/respond";
import type { Route } from "./+types/bucket-edit";

type Mode = "new" | "singleton" | "latest" | "version" | "duplicate";

function modeOf(request: Request, params: { contentId?: string; versionId?: string }): Mode {
  const path = new URL(request.url).pathname;
  if (path.endsWith("/new")) return "new";
  if (path.endsWith("/edit")) return "singleton";
  if (path.includes("/duplicate/")) return "duplicate";
  return params.versionId ? "version" : "latest";
}

const notFound = () => new HttpError(404, "errors.notFound");

export const loader = pageRoute(async ({ request, context, params }: Route.LoaderArgs) => {
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  const mode = modeOf(request, params);
  const compiled = compileBucketSchema(bucket);
  let version: ContentVersion | null = null;
  let latestVersionId: string | null = null;
  if (mode === "singleton") {
    if (!bucket.singleton) throw notFound();
    version = await getSingletonContent(context.db, bucket.id);
  } else if (mode !== "new") {
    if (!isUuid(params.contentId)) throw notFound();
    if (mode === "version") {
      if (!isUuid(params.versionId)) throw notFound();
      version = await getVersion(context.db, bucket.id, params.contentId, params.versionId);
      latestVersionId = (await getLatestVersion(context.db, bucket.id, params.contentId))?.versionId ?? null;
    } else {
      version = await getLatestVersion(context.db, bucket.id, params.contentId);
    }
    if (!version) throw notFound();
  }
  const editing = mode !== "new" && mode !== "duplicate" && version;
  return {
    mode,
    bucket: { slug: bucket.slug, name: bucket.name, singleton: bucket.singleton, locales: bucket.locales },
    schema: compiled.schema,
    problems: compiled.problems,
    validatorUrl: compiled.validate ? `/validators/${bucket.slug}/${compiled.hash}` : null,
    messageLocale: context.config.DEFAULT_LOCALE,
    defaultValue: version ? version.data : (initialValue(compiled.schema) as Record<string, unknown>),
    // A duplicate is a new document: its page does not say it edits the original.
    title: version && mode !== "duplicate" ? documentTitle(version.data, bucket.jsonSchema, bucket.locales) : "",
    contentId: editing ? version!.contentId : null,
    versionId: editing ? version!.versionId : null,
    latestVersionId: latestVersionId && latestVersionId !== version?.versionId ? latestVersionId : null,
    saved: new URL(request.url).searchParams.has("saved"),
    referenceOptions: await loadReferenceOptions(context, user, compiled.schema),
    canEditTextIds: hasPermission(user, "admin") || hasPermission(user, "dev"),
    // Media fields (issue 4): the form is multipart so that a file input works without JavaScript; the
    // document's media are loaded so that their state (processing, error) shows on the first render.
    multipart: hasMediaField(compiled.schema),
    media: version ? await loadMediaContents(context, user, compiled.schema, version.data) : {},
    videoProcessing: context.media.ffmpeg !== null,
  };
});

export const action = pageRoute(async ({ request, context, params }: Route.ActionArgs) => {
  const { user, bucket } = await requireBucketAccess(request, context, params.bucket);
  const compiled = compileBucketSchema(bucket);
  // A multipart post (a form with media fields) streams its files into media here (never request.formData()).
  const { formData, fieldErrors: uploadErrors, contents: media } = await readBucketFormPost(request, context, { user, bucket, schema: compiled.schema });
  const uploadFailed = Object.keys(uploadErrors).length > 0;
  const hostile = removeHostileEntries(formData);
  applyStepIntent(formData, compiled.schema);
  const submission = parse(formData, {
    resolve: (payload) => resolveDocument(payload, compiled.schema, compiled.validate, context.config.DEFAULT_LOCALE),
  });
  if (hostile) {
    return data({ result: submission.reply({ formErrors: [hostile] }), notice: null, latestVersionId: null, media }, { status: 400 });
  }
  if (uploadFailed) {
    // A refused upload shows its message under its field; the rest of the input is kept and nothing is saved.
    return data({ result: submission.reply({ fieldErrors: uploadErrors }), notice: null, latestVersionId: null, media }, { status: 422 });
  }
  if (submission.status !== "success") {
    // A list intent (add, remove, reorder, update) re-renders; a failed validation is a 400.
    return data({ result: submission.reply(), notice: null, latestVersionId: null, media }, { status: submission.status === "error" ? 400 : 200 });
  }
  const contentId = String(formData.get(CONTENT_ID_FIELD) ?? "") || undefined;
  const baseVersionId = String(formData.get(BASE_VERSION_FIELD) ?? "") || undefined;
  try {
    const outcome = await saveDocument(context, user, bucket, { contentId, baseVersionId, data: submission.value });
    if (!outcome.ok) {
      return data(
        { result: submission.reply({ fieldErrors: outcome.errors.byField }), notice: "invalid" as const, latestVersionId: null, media },
        { status: outcome.status },
      );
    }
    const target = bucket.singleton ? `/b/${bucket.slug}/edit` : `/b/${bucket.slug}/${outcome.version.contentId}/latest`;
    return redirect(`${target}?saved`);
  } catch (error) {
    if (error instanceof VersionConflictError) {
      return data({ result: submission.reply(), notice: "conflict" as const, latestVersionId: error.latestVersionId, media }, { status: 409 });
    }
    if (error instanceof ContentNotFoundError) throw notFound();
    throw error;
  }
});

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) => {
  const product = (matches[0]?.data as { config?: { productName: string } })?.config?.productName ?? "Vitrine";
  return [{ title: `${loaderData?.title || loaderData?.bucket.name || ""} · ${product}` }];
};

/**
 * One form per loaded document version: moving between versions or documents
 * on the same route module (an older version → the latest, one duplicate →
 * another, a save → the saved version) starts a fresh form with the loaded
 * values instead of keeping the previous page's inputs and Conform state.
 */
export default function BucketEdit(props: Route.ComponentProps) {
  const { pathname } = useLocation();
  return <BucketEditForm key={`${pathname}|${props.loaderData.versionId ?? ""}`} {...props} />;
}

function BucketEditForm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { bucket, schema } = loaderData;
  const [activeLocale, setActiveLocale] = useState(bucket.locales[0] ?? "");
  const [hydrated, setHydrated] = useState(false);
  const [validate, setValidate] = useState<ValidateFunction | null>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!loaderData.validatorUrl) return;
    let current = true;
    loadBrowserValidator(loaderData.validatorUrl).then((fn) => current && setValidate(() => fn), () => undefined);
    return () => {
      current = false;
    };
  }, [loaderData.validatorUrl]);

  const [form, fields] = useForm<Record<string, unknown>>({
    id: `bucket-form-${bucket.slug}-${loaderData.contentId ?? "new"}`,
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    defaultValue: loaderData.defaultValue,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parse(formData, { resolve: (payload) => resolveDocument(payload, schema as JsonSchema, validate, loaderData.messageLocale) }),
  });

  // After a failed validation, changing the content locale validates again (spec §4).
  useEffect(() => {
    if (hydrated && form.status === "error") form.validate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeLocale]);

  const settings = useMemo(
    () => ({ locales: bucket.locales, activeLocale, setActiveLocale, hydrated, referenceOptions: loaderData.referenceOptions, canEditTextIds: loaderData.canEditTextIds }),
    [bucket.locales, activeLocale, hydrated, loaderData.referenceOptions, loaderData.canEditTextIds],
  );

  const heading = loaderData.title ? t("form.editTitle", { title: loaderData.title }) : loaderData.mode === "singleton" ? bucket.name : t("form.newDocument");
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const baseVersionId = actionData?.latestVersionId ?? loaderData.versionId;
  const mediaSettings = useMemo(
    () => ({ bucketSlug: bucket.slug, contents: { ...loaderData.media, ...actionData?.media }, videoProcessing: loaderData.videoProcessing }),
    [bucket.slug, loaderData.media, actionData?.media, loaderData.videoProcessing],
  );
  void fields;

  return (
    <section className="bucket-edit">
      <p className="eyebrow">
        {bucket.singleton ? bucket.name : <Link to={`/b/${bucket.slug}`}>{bucket.name}</Link>}
      </p>
      <h1>{heading}</h1>
      {loaderData.saved && !actionData ? <p className="notice-success" role="status">{t("form.saved")}</p> : null}
      {loaderData.latestVersionId ? (
        <p className="notice-warning" role="status">
          {t("form.olderVersion")} <Link to={`/b/${bucket.slug}/${loaderData.contentId}/latest`}>{t("form.openLatestVersion")}</Link>
        </p>
      ) : null}
      {actionData?.notice === "conflict" ? (
        <div className="form-error" role="alert">
          <p>{t("form.conflict")}</p>
          <p>
            <a href={`/b/${bucket.slug}/${loaderData.contentId}/latest`} target="_blank" rel="noreferrer">{t("form.openLatest")}</a>
          </p>
        </div>
      ) : null}
      {form.status === "error" && actionData?.notice !== "conflict" ? <p className="form-error" role="alert">{t("form.invalid")}</p> : null}
      {loaderData.problems.length ? (
        <div className="form-error" role="alert">
          <p>{t("form.schemaErrors")}</p>
          <ul>
            {loaderData.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : (
        <BucketFormContext.Provider value={settings}>
          <MediaFormContext.Provider value={mediaSettings}>
            <FormProvider context={form.context}>
              <Form method="post" encType={loaderData.multipart ? "multipart/form-data" : undefined} {...getFormProps(form)} className="bucket-form">
                <input type="hidden" name={CONTENT_ID_FIELD} value={loaderData.contentId ?? ""} />
                <input type="hidden" name={BASE_VERSION_FIELD} value={baseVersionId ?? ""} />
                {form.errors?.length ? <p className="form-error" role="alert">{form.errors.join(" ")}</p> : null}
                {Object.entries(properties).map(([name, property]) => (
                  <SchemaField key={name} name={name} schema={property} required={required.includes(name)} />
                ))}
                <div className="form-actions">
                  <button type="submit" className="button primary" disabled={navigation.state === "submitting"}>
                    {t("form.save")}
                  </button>
                </div>
              </Form>
            </FormProvider>
          </MediaFormContext.Provider>
        </BucketFormContext.Provider>
      )}
    </section>
  );
}
