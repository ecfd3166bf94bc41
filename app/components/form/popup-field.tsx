import { useField, useInputControl } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { useRootData } from "../../lib/root-data";
import type { JsonSchema } from "../../../core/schema/normalize";
import { OPEN_SUBFORM_FIELD } from "../../../core/form/subforms";
import { lazyDialog, opensInBrowserOnly } from "../../lib/lazy-dialog";
import { useBucketForm, useFieldLock } from "./context";
import { fieldLabel, FieldShell, type FieldProps } from "./field-shell";
import { useReferenceCollection } from "./reference-data";

const BucketFormModal = lazyDialog(import.meta.env.SSR ? opensInBrowserOnly : () => import("./bucket-form-modal").then((module) => module.BucketFormModal));

interface LoadedBucket {
  slug: string;
  collectionName: string;
  locales: string[];
  schema: JsonSchema;
  validatorUrl: string | null;
  document?: Record<string, unknown>;
}

/**
 * A popup sub-form (`renderer: "popup"` with `_ref`): 'Edit {title}' opens the
 * referenced document in the bucket-form modal; saving sets this field to its
 * contentId. Without JavaScript the button leaves for that document's own page (a new one when the field is
 * empty), keeping the form's input, and the page's save comes back here with the document selected.
 */
export function PopupField(props: FieldProps) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  // The modal's messages in the interface language, like the page around it.
  const messageLocale = useRootData()?.locale ?? "en";
  const { referenceOptions, hydrated, canEditTextIds } = useBucketForm();
  const lock = useFieldLock();
  const [meta] = useField<string>(props.name);
  const control = useInputControl(meta);
  const collection = referenceOptions[String(props.schema._ref)];
  const { describe: describeReference } = useReferenceCollection(props.schema);
  const contentId = control.value ?? "";
  // The document's title, or that it was deleted (the value is kept): app/components/form/reference-data.ts.
  const view = contentId ? describeReference(contentId) : null;
  const current = view?.known ? view : undefined;
  const title = current?.label ?? fieldLabel(props);
  const buttonText = typeof props.schema["button-text"] === "string" ? props.schema["button-text"] : t("form.editTitle", { title });
  const [loaded, setLoaded] = useState<LoadedBucket | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function open() {
    if (!collection?.slug) return;
    setFailure(null);
    try {
      const bucket = (await fetchJson(`/api/v1/buckets/${collection.slug}/schema`)) as LoadedBucket;
      let document: Record<string, unknown> | undefined;
      if (contentId) {
        const response = await fetch(`/api/v1/buckets/${collection.slug}/content/${contentId}/latest`, { credentials: "same-origin" });
        if (response.status === 404) control.change(""); // spec §8: a missing sub-form document clears the value
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
      <p className={view?.deleted ? "popup-current reference-deleted" : "popup-current"}>{view?.deleted ? t("references.deleted") : current ? current.label : t("form.noEntries")}</p>
      {hydrated && collection?.slug ? (
        <button type="button" className="button small" onClick={() => void open()}>
          {buttonText}
        </button>
      ) : collection?.slug && lock.showEditButtons ? (
        // Without JavaScript: the form's input is kept as a draft while the document is made or edited on its own
        // page, which returns here with it selected (server/content/drafts.ts).
        <button type="submit" name={OPEN_SUBFORM_FIELD} value={meta.name} className="button small" formNoValidate disabled={lock.disabled || undefined}>
          {current ? t("subForm.editOnPage") : t("subForm.createOnPage")}
        </button>
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
