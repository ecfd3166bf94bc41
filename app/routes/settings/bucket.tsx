import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { ConfirmBreakingChange, SchemaImpactProgress, SchemaImpactReport, useSchemaImpact } from "~/components/schema-impact";
import { confirmedBreaking, impactNeedsConfirmation } from "@core/schema/impact";
import { FieldError, FormError } from "~/components/form-errors";
import { MessageList } from "~/components/bucket-admin/message-list";
import { SchemaEditor } from "~/components/bucket-admin/schema-editor";
import { SchemaPreview } from "~/components/bucket-admin/schema-preview";
import { messageText } from "~/lib/i18n";
import type { SchemaEditorHandle } from "~/lib/schema-editor";
import { bucketFormSchema, parseLocaleList } from "@core/content/bucket-definition";
import { SCREENS } from "@core/content/screens";
import { SUPPORTED_LOCALES, type Locale } from "@core/locales";
import type { Message } from "@core/messages";
import { checkSchemaDialect } from "@core/schema/dialect";
import { parseJsonText } from "@core/schema/json-text";
import type { JsonSchema } from "@core/schema/normalize";
import { bucketAdminAction, bucketAdminLoader, type BucketAdminReply, type SchemaPreview as Preview } from "./bucket-admin.server";
import type { Route } from "./+types/bucket";
import { pageTitle } from "~/lib/page-title";

export const loader = (args: Route.LoaderArgs) => bucketAdminLoader(args);
export const action = (args: Route.ActionArgs) => bucketAdminAction(args);

export const meta: Route.MetaFunction = ({ loaderData, matches }) => pageTitle(matches, loaderData.title);

const subscribeToNothing = () => () => undefined;
const LIVE_DELAY_MS = 300;

/** What the live check makes of the schema text: its problems, or the preview it produces. */
function liveCheck(
  text: string,
  localesText: string,
  collections: readonly string[],
  ownCollection: string,
): { errors: Message[]; preview: Preview | null; parseError: { line: number; column: number } | null } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { errors: [parsed.error], preview: null, parseError: { line: parsed.line, column: parsed.column } };
  const locales = parseLocaleList(localesText);
  const shown = locales.length ? locales : ["en"];
  const errors = checkSchemaDialect(parsed.value, {
    locales: shown,
    collections: [...collections, ownCollection.trim()].filter(Boolean),
    compile: false,
  });
  return { errors, preview: errors.length ? null : { schema: parsed.value as JsonSchema, locales: shown }, parseError: null };
}

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
  const [live, setLive] = useState<ReturnType<typeof liveCheck> | null>(null);
  // The last schema that passed, shown (marked stale) while the text has errors.
  const [lastGood, setLastGood] = useState<Preview | null>(null);
  const [editor, setEditor] = useState<SchemaEditorHandle | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const others = useMemo(
    () => loaderData.collections.filter((name) => name !== loaderData.defaultValue.collectionName),
    [loaderData.collections, loaderData.defaultValue.collectionName],
  );
  useEffect(() => {
    if (!hydrated) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const checked = liveCheck(input.text, input.locales, others, input.collection);
      setLive(checked);
      if (checked.preview) setLastGood(checked.preview);
    }, LIVE_DELAY_MS);
    return () => clearTimeout(timer.current);
  }, [hydrated, input, others]);

  const schemaErrors = live ? live.errors : (reply?.schemaErrors ?? []);
  // The preview: the live one once it has run (the last good one stays while the text does not parse), else the
  // server's (a 'Preview' post, or the saved schema).
  const preview = live ? (live.preview ?? lastGood) : reply && "preview" in reply ? (reply.preview ?? null) : loaderData.preview;
  const previewStale = live !== null && live.preview === null && lastGood !== null;

  const { bucket } = loaderData;
  const submitting = navigation.state === "submitting";
  const textareaProps = fields.jsonSchema;
  const names = fields.names.getFieldset();

  // Saving a changed schema first streams its impact on the stored documents (with JavaScript; without, the
  // server's save answers with the same report). Nothing breaks: the save goes on. Something breaks: the report
  // shows and the save waits for the admin's explicit confirmation. The server checks again in any case.
  const impact = useSchemaImpact(bucket?.slug ?? "");
  const harmlessText = useRef<string | null>(null);
  const heldSubmit = useRef<{ form: HTMLFormElement; submitter: HTMLElement | null } | null>(null);
  const formProps = getFormProps(form);
  const onSubmit = (event: React.SyntheticEvent<HTMLFormElement, SubmitEvent>) => {
    formProps.onSubmit(event);
    if (event.defaultPrevented || !bucket) return;
    const submitter = event.nativeEvent.submitter;
    const posted = new FormData(event.currentTarget, submitter);
    const text = posted.get("jsonSchema");
    if ((posted.get("intent") ?? "save") !== "save" || typeof text !== "string") return;
    if (text === loaderData.defaultValue.jsonSchema || text === harmlessText.current || confirmedBreaking(posted)) return;
    event.preventDefault();
    heldSubmit.current = { form: event.currentTarget, submitter };
    impact.check(text);
  };
  const impactState = impact.state;
  useEffect(() => {
    const held = heldSubmit.current;
    if (!held || impactState.status === "idle" || impactState.status === "running") return;
    heldSubmit.current = null;
    const text = new FormData(held.form).get("jsonSchema");
    // A failed check leaves the decision to the server's own check on save.
    if (impactState.status === "error" || !impactNeedsConfirmation(impactState.report)) {
      harmlessText.current = typeof text === "string" ? text : null;
      held.form.requestSubmit(held.submitter);
    }
  }, [impactState]);
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
              {SCREENS.map((screen) => (
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

      {bucket ? <SchemaHistory data={loaderData} /> : null}
      {bucket ? <DeleteBucket slug={bucket.slug} contentCount={bucket.contentCount} error={reply?.deleteError} /> : null}
    </section>
  );
}

/** Labels of the names per interface locale. */
const NAME_LABELS = { en: "adminBuckets.fields.nameEn", nl: "adminBuckets.fields.nameNl" } as const satisfies Record<Locale, string>;

function SchemaHistory({ data }: { data: Route.ComponentProps["loaderData"] }) {
  const { t, i18n } = useTranslation();
  const { history, diff } = data;
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const newest = history[0]?.number ?? 1;
  return (
    <section className="schema-history" aria-labelledby="schema-history-title">
      <h2 id="schema-history-title">{t("adminBuckets.history.title")}</h2>
      <table className="content-table admin-table">
        <thead>
          <tr>
            <th scope="col">{t("adminBuckets.history.number")}</th>
            <th scope="col">{t("adminBuckets.history.who")}</th>
            <th scope="col">{t("adminBuckets.history.when")}</th>
          </tr>
        </thead>
        <tbody>
          {history.map((version) => (
            <tr key={version.id}>
              <td>{version.number}</td>
              <td>{version.createdByName ?? t("adminBuckets.history.unknownAuthor")}</td>
              <td>
                <time dateTime={version.createdAt}>{format.format(new Date(version.createdAt))}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {history.length > 1 ? (
        <Form method="get" className="diff-form">
          <label>
            {t("adminBuckets.history.from")}{" "}
            <select name="from" defaultValue={String(diff?.from ?? Math.max(newest - 1, 1))}>
              {history.map((version) => (
                <option key={version.id} value={version.number}>
                  {version.number}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("adminBuckets.history.to")}{" "}
            <select name="to" defaultValue={String(diff?.to ?? newest)}>
              {history.map((version) => (
                <option key={version.id} value={version.number}>
                  {version.number}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            {t("adminBuckets.history.compare")}
          </button>
        </Form>
      ) : null}
      {diff ? (
        <figure className="schema-diff">
          <figcaption>{t("adminBuckets.history.diffCaption", { from: diff.from, to: diff.to })}</figcaption>
          {diff.lines.every((line) => line.kind === "same") ? <p className="muted">{t("adminBuckets.history.noDifference")}</p> : null}
          <pre>
            {diff.lines.map((line, index) => (
              <span key={index} className={`diff-line diff-${line.kind}`}>
                {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
                {line.text}
                {"\n"}
              </span>
            ))}
          </pre>
        </figure>
      ) : null}
    </section>
  );
}

function DeleteBucket({ slug, contentCount, error }: { slug: string; contentCount: number; error?: Message }) {
  const { t } = useTranslation();
  return (
    <section className="danger-zone" aria-labelledby="delete-bucket-title">
      <h2 id="delete-bucket-title">{t("adminBuckets.delete.title")}</h2>
      <Form method="post">
        <input type="hidden" name="intent" value="delete" />
        {contentCount > 0 ? (
          <>
            <p>{t("adminBuckets.delete.holdsDocuments", { count: contentCount })}</p>
            <label htmlFor="confirm-slug">{t("adminBuckets.delete.typeSlug", { slug })}</label>
            <input
              id="confirm-slug"
              name="confirmSlug"
              type="text"
              autoComplete="off"
              spellCheck={false}
              aria-describedby={error ? "delete-error" : undefined}
            />
          </>
        ) : (
          <p>{t("adminBuckets.delete.empty")}</p>
        )}
        {error ? (
          <p id="delete-error" className="field-error" role="alert">
            {messageText(t, error)}
          </p>
        ) : null}
        <button type="submit" className="button danger">
          {t("adminBuckets.delete.submit")}
        </button>
      </Form>
    </section>
  );
}
