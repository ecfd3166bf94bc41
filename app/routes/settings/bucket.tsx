import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useMemo, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { ConfirmBreakingChange, SchemaImpactProgress, SchemaImpactReport } from "~/components/schema-impact";
import { impactNeedsConfirmation } from "@core/schema/impact";
import { FieldError, FormError } from "~/components/form-errors";
import { MessageList } from "~/components/bucket-admin/message-list";
import { SchemaEditor } from "~/components/bucket-admin/schema-editor";
import { SchemaPreview } from "~/components/bucket-admin/schema-preview";
import { DeleteBucket } from "~/components/bucket-admin/delete-bucket";
import { useImpactBeforeSave } from "~/components/bucket-admin/impact-before-save";
import { useLiveSchemaCheck } from "~/components/bucket-admin/live-check";
import { SchemaHistory } from "~/components/bucket-admin/schema-history";
import type { SchemaEditorHandle } from "~/lib/schema-editor";
import { bucketFormSchema } from "@core/content/bucket-definition";
import { screenNames } from "@core/content/screens";
import { SUPPORTED_LOCALES, type Locale } from "@core/locales";
import { bucketAdminAction, bucketAdminLoader, type BucketAdminReply } from "./bucket-admin.server";
import type { Route } from "./+types/bucket";
import { pageTitle } from "~/lib/page-title";

export const loader = (args: Route.LoaderArgs) => bucketAdminLoader(args);
export const action = (args: Route.ActionArgs) => bucketAdminAction(args);

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

const subscribeToNothing = () => () => undefined;

/** One form per bucket: after a create or a rename the page starts afresh with the saved bucket. */
export default function BucketAdminPage(props: Route.ComponentProps) {
  return <BucketAdminForm key={props.loaderData.bucket?.slug ?? "new"} {...props} />;
}

function BucketAdminForm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const reply = actionData as BucketAdminReply | undefined;
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const [form, fields] = useForm({
    id: `bucket-admin-${loaderData.bucket?.slug ?? "new"}`,
    lastResult: navigation.state === "idle" ? reply?.result : undefined,
    defaultValue: loaderData.defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bucketFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  // The live check: as the admin types (debounced), the schema's problems or the form it produces.
  const initialText = (reply?.result?.initialValue?.jsonSchema as string | undefined) ?? loaderData.defaultValue.jsonSchema;
  const initialLocales = (reply?.result?.initialValue?.locales as string | undefined) ?? loaderData.defaultValue.locales;
  const initialCollection = (reply?.result?.initialValue?.collectionName as string | undefined) ?? loaderData.defaultValue.collectionName;
  const [input, setInput] = useState({ text: initialText, locales: initialLocales, collection: initialCollection });
  const [editor, setEditor] = useState<SchemaEditorHandle | null>(null);
  const others = useMemo(
    () => loaderData.collections.filter((name) => name !== loaderData.defaultValue.collectionName),
    [loaderData.collections, loaderData.defaultValue.collectionName],
  );
  const { live, lastGood } = useLiveSchemaCheck(input, others, hydrated);

  const schemaErrors = live ? live.errors : (reply?.schemaErrors ?? []);
  // The preview: the live one once it has run (the last good one stays while the text does not parse), else the
  // server's (a 'Preview' post, or the saved schema).
  const preview = live ? (live.preview ?? lastGood) : reply && "preview" in reply ? (reply.preview ?? null) : loaderData.preview;
  const previewStale = live !== null && live.preview === null && lastGood !== null;

  const { bucket } = loaderData;
  const submitting = navigation.state === "submitting";
  const textareaProps = fields.jsonSchema;
  const names = fields.names.getFieldset();

  const formProps = getFormProps(form);
  const { impactState, onSubmit } = useImpactBeforeSave(bucket?.slug ?? null, loaderData.defaultValue.jsonSchema, formProps.onSubmit);
  const shownImpact =
    impactState.status === "done" && impactNeedsConfirmation(impactState.report) ? impactState.report : (reply?.impact ?? null);
  return (
    <section className="bucket-admin">
      <p className="eyebrow">
        <Link to="/settings/buckets">{t("adminBuckets.list.title")}</Link>
      </p>
      <h1>{bucket ? t("adminBuckets.edit.title", { name: bucket.name }) : t("adminBuckets.edit.newTitle")}</h1>
      {loaderData.saved && !reply ? (
        <p className="notice-success" role="status">
          {t("adminBuckets.edit.saved")}
        </p>
      ) : null}
      {bucket ? (
        <p className="bucket-admin-links">
          {/* A private bucket has no pages in the web interface. */}
          {bucket.private ? null : <Link to={`/b/${encodeURIComponent(bucket.slug)}`}>{t("adminBuckets.edit.openBucket")}</Link>}
          <a href={`/settings/buckets/${encodeURIComponent(bucket.slug)}/export`} download>
            {t("adminBuckets.edit.export")}
          </a>
        </p>
      ) : null}

      <div className="bucket-admin-columns">
        <Form method="post" {...formProps} onSubmit={onSubmit} className="bucket-admin-form">
          <FormError errors={form.errors} />
          <div className="admin-field">
            <label htmlFor={fields.name.id}>{t("adminBuckets.fields.name")}</label>
            <input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
            <FieldError field={fields.name} />
          </div>
          {/* The name per interface locale (`names.en`, `names.nl`): optional, shown instead of the name in that language. */}
          <fieldset className="admin-field bucket-names" aria-describedby="bucket-names-note">
            <legend className="admin-label">{t("adminBuckets.fields.names")}</legend>
            <p id="bucket-names-note" className="field-note">
              {t("adminBuckets.fields.namesNote")}
            </p>
            {SUPPORTED_LOCALES.map((locale) => {
              const field = names[locale];
              return (
                <div key={locale} className="admin-field">
                  <label htmlFor={field.id}>{t(NAME_LABELS[locale])}</label>
                  <input {...getInputProps(field, { type: "text" })} lang={locale} autoComplete="off" />
                  <FieldError field={field} />
                </div>
              );
            })}
          </fieldset>
          <div className="admin-field">
            <label htmlFor={fields.slug.id}>{t("adminBuckets.fields.slug")}</label>
            <input
              {...getInputProps(fields.slug, { type: "text" })}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${fields.slug.descriptionId} ${fields.slug.errorId}`}
            />
            <p id={fields.slug.descriptionId} className="field-note">
              {bucket ? t("adminBuckets.fields.slugRenameNote") : t("adminBuckets.fields.slugNote")}
            </p>
            <FieldError field={fields.slug} />
          </div>
          <div className="admin-field">
            <label htmlFor={fields.collectionName.id}>{t("adminBuckets.fields.collectionName")}</label>
            <input
              {...getInputProps(fields.collectionName, { type: "text" })}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${fields.collectionName.descriptionId} ${fields.collectionName.errorId}`}
              onInput={(event) => setInput((current) => ({ ...current, collection: (event.target as HTMLInputElement).value }))}
            />
            <p id={fields.collectionName.descriptionId} className="field-note">
              {t("adminBuckets.fields.collectionNote")}
            </p>
            <FieldError field={fields.collectionName} />
          </div>
          <div className="admin-field">
            <label htmlFor={fields.locales.id}>{t("adminBuckets.fields.locales")}</label>
            <input
              {...getInputProps(fields.locales, { type: "text" })}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${fields.locales.descriptionId} ${fields.locales.errorId}`}
              onInput={(event) => setInput((current) => ({ ...current, locales: (event.target as HTMLInputElement).value }))}
            />
            <p id={fields.locales.descriptionId} className="field-note">
              {t("adminBuckets.fields.localesNote")}
            </p>
            <FieldError field={fields.locales} />
          </div>
          <div className="admin-field">
            <label htmlFor={fields.screen.id}>{t("screens.field.label")}</label>
            <select {...getSelectProps(fields.screen)} aria-describedby={`${fields.screen.descriptionId} ${fields.screen.errorId}`}>
              {screenNames().map((screen) => (
                <option key={screen} value={screen}>
                  {t(`screens.names.${screen}`)}
                </option>
              ))}
            </select>
            <p id={fields.screen.descriptionId} className="field-note">
              {t("screens.field.note")} <Link to="/help#screens">{t("screens.field.helpLink")}</Link>
            </p>
            <FieldError field={fields.screen} />
          </div>
          <fieldset className="admin-checks">
            <legend className="visually-hidden">{t("adminBuckets.fields.options")}</legend>
            <label className="inline-check">
              <input {...getInputProps(fields.singleton, { type: "checkbox" })} /> {t("adminBuckets.fields.singleton")}
            </label>
            <label className="inline-check">
              <input {...getInputProps(fields.private, { type: "checkbox" })} /> {t("adminBuckets.fields.private")}
            </label>
            <p className="field-note">{t("adminBuckets.fields.privateNote")}</p>
          </fieldset>
          <div className="admin-field schema-field">
            <span id="json-schema-label" className="admin-label">
              {t("adminBuckets.fields.jsonSchema")}
            </span>
            <p id="json-schema-note" className="field-note">
              {t("adminBuckets.fields.jsonSchemaNote")}
            </p>
            <SchemaEditor
              key={textareaProps.key}
              id={textareaProps.id}
              name={textareaProps.name}
              defaultValue={initialText}
              labelId="json-schema-label"
              describedBy="json-schema-note json-schema-status"
              invalid={schemaErrors.length > 0 || Boolean(textareaProps.errors?.length)}
              onText={(text) => setInput((current) => ({ ...current, text }))}
              onReady={setEditor}
            />
            <FieldError field={textareaProps} />
            <div id="json-schema-status" aria-live="polite">
              {schemaErrors.length ? (
                <div className="form-error schema-errors" role="alert">
                  <p>{t("adminBuckets.edit.schemaRefused")}</p>
                  <MessageList messages={schemaErrors} />
                  {live?.parseError && editor ? (
                    <button
                      type="button"
                      className="button small"
                      onClick={() => editor.goTo(live.parseError?.line ?? 1, live.parseError?.column ?? 1)}
                    >
                      {t("adminBuckets.edit.goToError")}
                    </button>
                  ) : null}
                </div>
              ) : live ? (
                <p className="schema-ok">{t("adminBuckets.edit.schemaOk")}</p>
              ) : null}
            </div>
          </div>
          {impactState.status === "running" ? <SchemaImpactProgress progress={impactState.progress} /> : null}
          {shownImpact ? (
            <div className="bucket-impact">
              <SchemaImpactReport report={shownImpact} title={t("adminBuckets.edit.impactTitle")} />
              <ConfirmBreakingChange report={shownImpact} required={Boolean(reply?.impact) && impactState.status !== "done"} />
            </div>
          ) : null}
          <div className="form-actions">
            <button
              type="submit"
              name="intent"
              value="save"
              className="button primary"
              disabled={submitting || impactState.status === "running"}
            >
              {bucket ? t("adminBuckets.edit.save") : t("adminBuckets.edit.create")}
            </button>
            {hydrated ? null : (
              <button type="submit" name="intent" value="preview" className="button" formNoValidate>
                {t("adminBuckets.edit.preview")}
              </button>
            )}
          </div>
        </Form>

        <section className="schema-preview" aria-labelledby="schema-preview-title">
          <h2 id="schema-preview-title">{t("adminBuckets.preview.title")}</h2>
          <p className="field-note">{hydrated ? t("adminBuckets.preview.liveNote") : t("adminBuckets.preview.buttonNote")}</p>
          {previewStale ? <p className="notice-warning">{t("adminBuckets.preview.stale")}</p> : null}
          {preview ? (
            <SchemaPreview
              key={JSON.stringify([preview.schema, preview.locales])}
              schema={preview.schema}
              locales={preview.locales}
              hydrated={hydrated}
            />
          ) : (
            <p className="empty">{t("adminBuckets.preview.unavailable")}</p>
          )}
        </section>
      </div>

      {bucket ? <SchemaHistory history={loaderData.history} diff={loaderData.diff} /> : null}
      {bucket ? <DeleteBucket slug={bucket.slug} contentCount={bucket.contentCount} error={reply?.deleteError} /> : null}
    </section>
  );
}

/** Labels of the names per interface locale. */
const NAME_LABELS = { en: "adminBuckets.fields.nameEn", nl: "adminBuckets.fields.nameNl" } as const satisfies Record<Locale, string>;
