import { useField, useInputControl } from "@conform-to/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { useRootData } from "~/lib/root-data";
import type { JsonSchema } from "@core/schema/normalize";
import type { ReferenceTarget } from "@core/content/references";
import { OPEN_NEW_SUBFORM_FIELD, OPEN_SUBFORM_FIELD } from "@core/form/subforms";
import { lazyDialog, opensInBrowserOnly } from "~/lib/lazy-dialog";
import { useBucketForm, useFieldLock } from "./context";
import { fieldLabel, FieldShell, type FieldProps } from "./field-shell";
import { useReferenceCollection } from "./reference-data";
import { ReferenceSelectField } from "./reference-field";

const BucketFormModal = lazyDialog(
  import.meta.env.SSR ? opensInBrowserOnly : () => import("./bucket-form-modal").then((module) => module.BucketFormModal),
);
const ReferencePicker = lazyDialog(
  import.meta.env.SSR ? opensInBrowserOnly : () => import("./reference-picker").then((module) => module.ReferencePicker),
);

interface LoadedBucket {
  slug: string;
  collectionName: string;
  locales: string[];
  schema: JsonSchema;
  validatorUrl: string | null;
  document?: Record<string, unknown>;
}

/**
 * A popup sub-form (`renderer: "popup"` with `_ref`). With JavaScript: the chosen document's title, 'Edit {title}'
 * opening it in the bucket-form modal (a new one when the field is empty; saving sets this field to its contentId),
 * 'Choose existing' opening the reference picker with the reference select's search, and 'Clear choice'. Without
 * JavaScript: the reference select (with its search box for a large collection) to choose a document, and buttons
 * that leave for the chosen document's own page or a new one's, keeping the form's input; the page's save comes
 * back here with that document chosen (server/content/drafts.ts).
 */
export function PopupField(props: FieldProps) {
  const { hydrated } = useBucketForm();
  return hydrated ? <PopupEditor {...props} /> : <PopupFallback {...props} />;
}

/** Without JavaScript (and until the form hydrates). */
function PopupFallback(props: FieldProps) {
  const { t } = useTranslation();
  const lock = useFieldLock();
  const [meta] = useField<string>(props.name);
  const { collection, describe } = useReferenceCollection(props.schema);
  const value = meta.value ?? meta.initialValue ?? "";
  const chosen = value ? describe(value).known : false;
  const buttonProps = {
    type: "submit",
    value: meta.name,
    className: "button small",
    formNoValidate: true,
    disabled: lock.disabled || undefined,
  } as const;
  return (
    <ReferenceSelectField {...props}>
      {collection.slug && lock.showEditButtons ? (
        <div className="popup-actions">
          {chosen ? (
            <button {...buttonProps} name={OPEN_SUBFORM_FIELD}>
              {t("subForm.editOnPage")}
            </button>
          ) : null}
          <button {...buttonProps} name={OPEN_NEW_SUBFORM_FIELD}>
            {t("subForm.createOnPage")}
          </button>
        </div>
      ) : null}
    </ReferenceSelectField>
  );
}

function PopupEditor(props: FieldProps) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  // The modal's messages in the interface language, like the page around it.
  const messageLocale = useRootData()?.locale ?? "en";
  const { canEditTextIds } = useBucketForm();
  const lock = useFieldLock();
  const [meta] = useField<string>(props.name);
  const control = useInputControl(meta);
  // Documents chosen in the picker, which the loaded options may lack (a large collection's later pages).
  const [picked, setPicked] = useState<Record<string, ReferenceTarget>>({});
  const [picking, setPicking] = useState(false);
  const chooseButton = useRef<HTMLButtonElement>(null);
  // Back to 'Choose existing' once the picker is gone (while its modal dialog is open nothing outside takes focus).
  const wasPicking = useRef(false);
  useEffect(() => {
    if (wasPicking.current && !picking) chooseButton.current?.focus();
    wasPicking.current = picking;
  }, [picking]);
  const { collection, collectionName, describe: describeReference } = useReferenceCollection(props.schema, picked);
  const contentId = control.value ?? "";
  // The document's title, or that it was deleted (the value is kept): app/components/form/reference-data.ts.
  const view = contentId ? describeReference(contentId) : null;
  const current = view?.known ? view : undefined;
  const title = current?.label ?? fieldLabel(props);
  const buttonText = typeof props.schema["button-text"] === "string" ? props.schema["button-text"] : t("form.editTitle", { title });
  const [loaded, setLoaded] = useState<LoadedBucket | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function open() {
    if (!collection.slug) return;
    setFailure(null);
    try {
      const bucket = (await fetchJson(`/api/v1/buckets/${collection.slug}/schema`)) as LoadedBucket;
      let document: Record<string, unknown> | undefined;
      if (contentId) {
        const response = await fetch(`/api/v1/buckets/${collection.slug}/content/${contentId}/latest`, { credentials: "same-origin" });
        if (response.status === 404)
          control.change(""); // spec §8: a missing sub-form document clears the value
        else if (!response.ok) throw new Error(String(response.status));
        else document = (await response.json()) as Record<string, unknown>;
      }
      setLoaded({ ...bucket, document });
    } catch {
      setFailure(t("subForm.fetchFailed"));
    }
  }

  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={failure ? [failure, ...(meta.errors ?? [])] : meta.errors}>
      <input type="hidden" name={meta.name} value={contentId} readOnly />
      <p className={view?.deleted ? "popup-current reference-deleted" : "popup-current"}>
        {view?.deleted ? t("references.deleted") : current ? current.label : t("form.noEntries")}
      </p>
      {collection.slug ? (
        <div className="popup-actions">
          <button type="button" className="button small" onClick={() => void open()}>
            {buttonText}
          </button>
          {lock.showEditButtons ? (
            <button type="button" className="button small" ref={chooseButton} onClick={() => setPicking(true)} disabled={lock.disabled}>
              {t("subForm.chooseExisting")}
            </button>
          ) : null}
          {contentId && lock.showEditButtons ? (
            <button
              type="button"
              className="button small"
              disabled={lock.disabled}
              onClick={() => {
                control.change("");
                chooseButton.current?.focus(); // this button goes
              }}
            >
              {t("subForm.clearChoice")}
            </button>
          ) : null}
        </div>
      ) : null}
      {picking ? (
        <ReferencePicker
          title={fieldLabel(props)}
          collectionName={collectionName}
          collection={collection}
          chosen={contentId ? [contentId] : []}
          single
          onPick={(option) => {
            setPicked((known) => ({ ...known, [option.value]: { label: option.label, thumbnail: option.thumbnail ?? null } }));
            control.change(option.value);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      ) : null}
      {loaded ? (
        <BucketFormModal
          bucket={loaded}
          document={loaded.document}
          title={t("form.editTitle", { title })}
          messageLocale={messageLocale}
          canEditTextIds={canEditTextIds}
          onResolve={(saved) => {
            if (saved && typeof saved.contentId === "string") {
              control.change(saved.contentId);
              void revalidator.revalidate(); // the saved title shows in the options
            }
            setLoaded(null);
          }}
        />
      ) : null}
    </FieldShell>
  );
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}
