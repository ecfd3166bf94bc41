import { FormProvider, getFormProps, parse, useForm, type DefaultValue } from "@conform-to/react";
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation, useNavigation, type MetaDescriptor } from "react-router";
import { BucketFormContext } from "~/components/form/context";
import { ClipCardsContext } from "~/components/clip-cards/context";
import { MediaFormContext } from "~/components/form/media/context";
import { SchemaField } from "~/components/form/schema-field";
import type { HistoryPanel } from "~/components/history/history-panel";
import type { StoredDocumentNotices } from "./stored-page";
import { DefaultSubmit } from "~/components/form/default-submit";
import { UnsavedChangesGuard } from "~/components/form/unsaved-changes";
import { removeHostileEntries } from "@core/form/hostile";
import { InlineSubFormsContext } from "~/components/form/inline-subforms";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD } from "@core/form/resolve";
import { RETURN_FIELD, subFormResolver } from "@core/form/subforms";
import { PENDING_UPLOAD_FIELD } from "@core/media/pending";
import type { JsonSchema } from "@core/schema/normalize";
import type { FormReply } from "@server/content/save-form";
import { useBucketValidators } from "~/components/form/use-validators";
import { ScreenColumns } from "~/components/form/screen-columns";
import { useScreenTable } from "~/lib/screen-table";
import { overviewPath } from "@core/content/screens";
import type { BucketEditData } from "./edit.server";
import { EditNotices } from "./notices";
import { metaLocale, pageTitle } from "~/lib/page-title";
import { translate } from "@core/messages";

/**
 * What a specialised screen adds to the generic edit page (docs/screens.md): its layout class and parts placed
 * around the generic form's fields. The parts render inside the form's providers, so they can read the live values
 * (Conform's useFormMetadata) and the bucket's settings; buttons in them must be type="button" or submit the form.
 */
export interface EditScreenParts<D extends BucketEditData = BucketEditData> {
  /** A class on the page's section: the screen's layout. */
  className?: string;
  /** The properties shown in the main column, in this order; the others follow in the fields column. */
  mainFields?: (data: D) => string[];
  /** Above the form (after the notices). */
  Header?: ComponentType<{ loaderData: D }>;
  /** Beside the fields, in the form's grid. */
  Aside?: ComponentType<{ loaderData: D }>;
  /** After the form, before the history panel. */
  Footer?: ComponentType<{ loaderData: D }>;
}

export interface BucketEditProps<D extends BucketEditData = BucketEditData> {
  loaderData: D;
  actionData?: FormReply;
  /** The specialised screen's parts; none on the generic editor. */
  screen?: EditScreenParts<D>;
  /**
   * The history panel, passed by the routes of a stored document: a new document has none, so its page does not
   * load the panel's code (history, version comparison, sharing; issue 36's JavaScript budget).
   */
  History?: typeof HistoryPanel;
  /**
   * The publication state with Publish / Unpublish, and what a merge with someone else's save did or asks, passed by
   * the same routes for the same reason (stored-page.tsx).
   */
  Publishing?: typeof StoredDocumentNotices;
}

/** The page's title: a singleton's bucket, a stored document's title (else its bucket's name), or "New document". */
export function bucketEditMeta({
  data: loaderData,
  matches,
}: {
  data?: Pick<BucketEditData, "title" | "bucket" | "mode">;
  matches: ReadonlyArray<{ data?: unknown } | undefined>;
}): MetaDescriptor[] {
  if (!loaderData) return pageTitle(matches, null);
  if (loaderData.mode === "singleton") return pageTitle(matches, loaderData.bucket.name);
  if (loaderData.mode === "new" || loaderData.mode === "duplicate")
    return pageTitle(matches, translate(metaLocale(matches), "form.newDocument"));
  return pageTitle(matches, loaderData.title || loaderData.bucket.name);
}

/** The stored document's errors as Conform's result of a failed validation: each field with an error shows it. */
const storedResult = (errors: Record<string, string[]> | null) => (errors ? { status: "error" as const, error: errors } : undefined);

/** No store to follow: hydration is the one change, and React makes it (server snapshot false, client true). */
const subscribeToNothing = () => () => undefined;

/**
 * One form per loaded document version: moving between versions or documents
 * on the same route module (an older version → the latest, one duplicate →
 * another, a save → the saved version) starts a fresh form with the loaded
 * values instead of keeping the previous page's inputs and Conform state.
 */
export function BucketEditPage<D extends BucketEditData>(props: BucketEditProps<D>) {
  const { pathname } = useLocation();
  return <BucketEditForm key={`${pathname}|${props.loaderData.versionId ?? ""}`} {...props} />;
}

function BucketEditForm<D extends BucketEditData>({ loaderData, actionData, screen, History, Publishing }: BucketEditProps<D>) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const { bucket, schema } = loaderData;
  const [activeLocale, setActiveLocale] = useState(bucket.locales[0] ?? "");
  // False on the server and while hydrating, true once the page runs in the browser.
  const hydrated = useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
  const { validate, subForms } = useBucketValidators(loaderData.validatorUrl, loaderData.subForms);
  const screens = useScreenTable();

  // One object per loaded document: Conform reports a lastResult again whenever it is a new object.
  const stored = useMemo(() => storedResult(loaderData.storedErrors), [loaderData.storedErrors]);
  const [form] = useForm<Record<string, unknown>>({
    id: `bucket-form-${bucket.slug}-${loaderData.contentId ?? "new"}`,
    // Before any post, a stored document that no longer fits the bucket's schema shows its errors (storedErrors).
    lastResult: navigation.state === "idle" ? (actionData?.result ?? stored) : undefined,
    // The document's shape is the bucket's, known only at run time; Conform's type would have it from the schema type.
    defaultValue: loaderData.defaultValue as DefaultValue<Record<string, unknown>>,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => {
      const hostile = removeHostileEntries(formData);
      return parse(formData, {
        resolve: subFormResolver({
          schema,
          validate,
          messageLocale: loaderData.messageLocale,
          subForms,
          hostile,
          screen: bucket.screen,
          screens,
        }),
      });
    },
  });

  // After a failed validation, changing the content locale validates again (spec §4); mounting is no change.
  const validatedLocale = useRef(activeLocale);
  useEffect(() => {
    if (validatedLocale.current === activeLocale) return;
    validatedLocale.current = activeLocale;
    if (form.status === "error") form.validate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeLocale]);

  // The referenced documents' titles: the stored document's, and those of a re-rendered post (without JavaScript).
  const references = actionData?.references;
  const referenceTargets = useMemo(
    () => ({ ...loaderData.referenceTargets, ...references?.referenceTargets }),
    [loaderData.referenceTargets, references],
  );
  const settings = useMemo(
    () => ({
      locales: bucket.locales,
      activeLocale,
      setActiveLocale,
      hydrated,
      referenceOptions: loaderData.referenceOptions,
      canEditTextIds: loaderData.canEditTextIds,
      referenceTargets,
      referenceSearch: references?.referenceSearch ?? null,
    }),
    [bucket.locales, activeLocale, hydrated, loaderData.referenceOptions, loaderData.canEditTextIds, referenceTargets, references],
  );

  // A singleton is its bucket: its heading names the bucket, not its first text (bucketEditMeta likewise).
  const heading =
    loaderData.mode === "singleton"
      ? bucket.name
      : loaderData.title
        ? t("form.editTitle", { title: loaderData.title })
        : t("form.newDocument");
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  // An older version's page saves on top of the latest version it was opened with: that restores it (its fields as
  // shown, with any changes made here) as the newest version; a save by someone else since is still a conflict.
  // A restored draft (back from a popup's own page) keeps the base version it was made with.
  // A form that came back unsaved keeps the base it was posted with (the loader, run again after the post, would
  // name a version someone else saved meanwhile, and hide the conflict).
  const baseVersionId =
    actionData?.latestVersionId ??
    actionData?.baseVersionId ??
    loaderData.draft?.baseVersionId ??
    loaderData.latestVersionId ??
    loaderData.versionId;
  const returnToken = actionData?.returnToken ?? loaderData.returnToken;
  const pending = actionData?.pending;
  const clipCards = useMemo(
    () => ({ data: loaderData.clipCards, picker: actionData?.casesPicker ?? null, documentId: loaderData.contentId }),
    [loaderData.clipCards, actionData?.casesPicker, loaderData.contentId],
  );
  const mediaSettings = useMemo(
    () => ({
      bucketSlug: bucket.slug,
      contents: loaderData.media,
      pending: pending ?? [],
      videoProcessing: loaderData.videoProcessing,
      library: { documentId: loaderData.contentId ?? null, choose: "leave" as const },
    }),
    [bucket.slug, loaderData.media, pending, loaderData.videoProcessing, loaderData.contentId],
  );

  const fieldNodes = Object.entries(properties).map(
    ([name, property]) => [name, <SchemaField key={name} name={name} schema={property} required={required.includes(name)} />] as const,
  );
  const { Header, Aside, Footer } = screen ?? {};

  return (
    <section className={screen?.className ? `bucket-edit ${screen.className}` : "bucket-edit"}>
      <p className="eyebrow">{bucket.singleton ? bucket.name : <Link to={overviewPath(bucket)}>{bucket.name}</Link>}</p>
      <h1>{heading}</h1>
      {Publishing && <Publishing loaderData={loaderData} actionData={actionData} formId={form.id} />}
      <EditNotices loaderData={loaderData} actionData={actionData} returnToken={returnToken} invalid={form.status === "error"} />
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
            <ClipCardsContext.Provider value={clipCards}>
              <InlineSubFormsContext.Provider value={loaderData.subForms}>
                <FormProvider context={form.context}>
                  <UnsavedChangesGuard formId={form.id} />
                  <Form
                    method="post"
                    encType={loaderData.multipart ? "multipart/form-data" : undefined}
                    {...getFormProps(form)}
                    className="bucket-form"
                  >
                    <DefaultSubmit />
                    <input type="hidden" name={CONTENT_ID_FIELD} value={loaderData.contentId ?? ""} />
                    <input type="hidden" name={BASE_VERSION_FIELD} value={baseVersionId ?? ""} />
                    {returnToken ? <input type="hidden" name={RETURN_FIELD} value={returnToken} /> : null}
                    {pending?.map((file) => (
                      <input key={file.token} type="hidden" name={PENDING_UPLOAD_FIELD} value={file.token} />
                    ))}
                    {form.errors?.length ? (
                      <p className="form-error" role="alert">
                        {form.errors.join(" ")}
                      </p>
                    ) : null}
                    {Header ? <Header loaderData={loaderData} /> : null}
                    {screen ? (
                      <ScreenColumns
                        fields={fieldNodes}
                        main={screen.mainFields?.(loaderData) ?? []}
                        aside={Aside ? <Aside loaderData={loaderData} /> : null}
                      />
                    ) : (
                      fieldNodes.map(([, node]) => node)
                    )}
                    <div className="form-actions">
                      <button type="submit" className="button primary" disabled={navigation.state === "submitting"}>
                        {loaderData.latestVersionId ? t("form.restoreThis") : t("form.save")}
                      </button>
                    </div>
                  </Form>
                  {Footer ? <Footer loaderData={loaderData} /> : null}
                </FormProvider>
              </InlineSubFormsContext.Provider>
            </ClipCardsContext.Provider>
          </MediaFormContext.Provider>
        </BucketFormContext.Provider>
      )}
      {loaderData.history && History ? (
        <History
          bucketSlug={bucket.slug}
          history={loaderData.history.page}
          schemaLink={loaderData.history.schemaLink}
          currentVersionId={loaderData.versionId}
          canPublish={loaderData.canPublish}
          open={loaderData.latestVersionId !== null}
        />
      ) : null}
    </section>
  );
}
