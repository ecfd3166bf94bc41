import { getSelectProps, useField, useInputControl } from "@conform-to/react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { REFERENCE_QUERY_PREFIX, REFERENCE_SEARCH_FIELD, type ReferenceOption, type ReferenceTarget } from "@core/content/references";
import { useBucketForm, useFieldLock } from "./context";
import { fieldLabel, FieldShell, type FieldProps } from "./field-shell";
import { optionsWithValue, useOptionLabel, useReferenceCollection, type ReferenceView } from "./reference-data";
import { ReferenceCombobox } from "./reference-combobox";
import { SelectOptions } from "./select-options";

/** Under a reference field whose document no longer exists: the value is kept until the editor changes it. */
export function DeletedReferenceNote({ view }: { view: ReferenceView | null }) {
  const { t } = useTranslation();
  return view?.deleted ? <p className="field-note reference-deleted">{t("references.deleted")}</p> : null;
}

/**
 * Select-from-collection (`_ref` to a collection, spec §1): a select of the collection's documents by title. A
 * collection over REFERENCE_SELECT_LIMIT documents is a combobox that asks the server as the editor types; without
 * JavaScript it is a select of the first page with a search box whose submit re-renders the options (the edit
 * page's action: core/form/reference-search.ts). A value whose document was deleted stays, and says so.
 */
export function ReferenceField(props: FieldProps) {
  const { collection } = useReferenceCollection(props.schema);
  const { hydrated } = useBucketForm();
  if (collection.searchable && hydrated) return <ReferenceComboboxField {...props} />;
  return <ReferenceSelectField {...props} />;
}

/** The select (with its search box for a large collection) that works without JavaScript; `children` follow it. */
export function ReferenceSelectField({ children, ...props }: FieldProps & { children?: ReactNode }) {
  const { t } = useTranslation();
  const [meta] = useField<string>(props.name);
  const lock = useFieldLock();
  const { referenceSearch } = useBucketForm();
  const { collection, collectionName, describe } = useReferenceCollection(props.schema);
  const value = meta.value ?? meta.initialValue ?? "";
  const view = value ? describe(value) : null;
  const searched = referenceSearch?.name === props.name ? referenceSearch : null;
  // A search's results first, then the first page; the chosen value always stays among them.
  const merged: ReferenceOption[] = searched
    ? [...searched.options, ...collection.options.filter((option) => !searched.options.some((found) => found.value === option.value))]
    : collection.options;
  const optionLabel = useOptionLabel();
  const options = optionsWithValue(merged, value, view).map((option) => ({ value: option.value, label: optionLabel(option) }));
  const queryId = `${meta.id}-search`;
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      <select
        {...getSelectProps(meta)}
        key={searched ? `search-${searched.query}` : "options"}
        {...lock.choice}
        data-collection={collectionName}
      >
        <SelectOptions options={options} />
      </select>
      {collection.searchable && lock.showEditButtons ? (
        <div className="reference-search" role="search">
          <label htmlFor={queryId} className="visually-hidden">
            {t("references.search", { title: fieldLabel(props) })}
          </label>
          <input
            id={queryId}
            type="search"
            name={`${REFERENCE_QUERY_PREFIX}${props.name}`}
            defaultValue={searched?.query ?? ""}
            placeholder={t("references.searchPlaceholder")}
            disabled={lock.disabled}
          />
          <button
            type="submit"
            className="button small"
            name={REFERENCE_SEARCH_FIELD}
            value={props.name}
            formNoValidate
            disabled={lock.disabled}
          >
            {t("references.searchButton")}
          </button>
          <p className="field-note">
            {searched
              ? searched.options.length
                ? t("references.searchResults", { count: searched.options.length })
                : t("references.searchNone")
              : t("references.noJsSearchHint")}
          </p>
        </div>
      ) : null}
      {children}
      <DeletedReferenceNote view={view} />
    </FieldShell>
  );
}

function ReferenceComboboxField(props: FieldProps) {
  const { t } = useTranslation();
  const [meta] = useField<string>(props.name);
  const control = useInputControl(meta);
  const lock = useFieldLock();
  const [picked, setPicked] = useState<Record<string, ReferenceTarget>>({});
  const { collection, collectionName, describe } = useReferenceCollection(props.schema, picked);
  const value = (lock.locked ? meta.initialValue : control.value) ?? "";
  const view = value ? describe(value) : null;
  const hintId = `${meta.id}-hint`;
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      <input type="hidden" name={meta.name} value={value} readOnly disabled={lock.disabled} />
      <ReferenceCombobox
        id={meta.id}
        label={fieldLabel(props)}
        collection={collectionName}
        value={value}
        valueLabel={view && !view.deleted ? view.label : ""}
        describedBy={[hintId, meta.errors?.length ? meta.errorId : ""].filter(Boolean).join(" ")}
        invalid={Boolean(meta.errors?.length)}
        disabled={lock.disabled}
        readOnly={lock.readOnly}
        firstPage={collection.options}
        onChange={(option) => {
          if (option)
            setPicked((known) => ({
              ...known,
              [option.value]: { label: option.label, thumbnail: option.thumbnail ?? null, state: option.state },
            }));
          control.change(option?.value ?? "");
        }}
      />
      <p id={hintId} className="field-note">
        {t("references.searchHint")}
      </p>
      <DeletedReferenceNote view={view} />
    </FieldShell>
  );
}
