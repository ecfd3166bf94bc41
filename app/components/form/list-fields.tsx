import { getInputProps, useField } from "@conform-to/react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { titleText } from "@core/content/title";
import { initialValue } from "@core/form/kinds";
import type { JsonSchema } from "@core/schema/normalize";
import { useBucketForm, useFieldLock } from "./context";
import { useDebouncedInput } from "./debounce";
import { ErrorLines } from "~/components/form-errors";
import { Counter, fieldLabel, FieldShell, type FieldProps } from "./field-shell";
import { NestedField } from "./nested-field";
import { RowButtons } from "./row-buttons";
import { useRowDrag } from "./row-drag";

const itemsOf = (schema: JsonSchema) => (schema.items ?? {}) as JsonSchema;

function rowTitle(schema: JsonSchema, index: number, value: unknown): string | null {
  const key = schema["title-key"];
  const text = typeof key === "string" && value && typeof value === "object" ? titleText((value as Record<string, unknown>)[key]) : "";
  if (text) return text;
  const base = typeof itemsOf(schema).title === "string" ? String(itemsOf(schema).title) : null;
  if (schema["append-index-to-title"]) return `${base ?? ""} ${index + 1}`.trim();
  return base;
}

/**
 * A list: add ('Add' or the add-button text), remove, reorder with buttons
 * and, with JavaScript, by dragging. Every button is a submit button with an
 * intent, so the list works without JavaScript. fixed: no add or remove.
 */
export function ArrayField(props: FieldProps) {
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const [meta, form] = useField<unknown[]>(props.name);
  const { schema } = props;
  const rows = meta.getFieldList();
  const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : null;
  const fixed = Boolean(schema.fixed) || typeof schema.fixedItems === "number";
  const sortable = Boolean(schema.sortable);
  const drag = useRowDrag(hydrated && sortable && !lock.disabled && !lock.readOnly, (from, to) =>
    form.reorder({ name: meta.name, from, to }),
  );
  const canAdd = !fixed && lock.showEditButtons && (maxItems === null || rows.length < maxItems);
  const addText = typeof schema["add-button"] === "string" ? schema["add-button"] : t("form.add");
  const counter = <Counter count={rows.length} max={maxItems} />;
  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={meta.errors} aside={counter}>
      <ol className="list-field">
        {rows.map((row, index) => (
          <li key={row.key ?? row.name} className={["list-row", drag.className(index)].filter(Boolean).join(" ")} {...drag.rowProps(index)}>
            <NestedField
              name={row.name}
              schema={itemsOf(schema)}
              required={false}
              label={rowTitle(schema, index, row.value ?? row.initialValue) ?? `${fieldLabel(props)} ${index + 1}`}
            />
            {lock.showEditButtons ? (
              <RowButtons
                list={meta.name}
                index={index}
                count={rows.length}
                sortable={sortable}
                removable={!fixed}
                disabled={lock.disabled}
              />
            ) : null}
          </li>
        ))}
      </ol>
      {canAdd ? (
        // A new row starts as the list's first rows do (a default, a switch at false …); Conform types the row of an
        // unknown[] as a string, but serialises any JSON value.
        <button
          {...form.insert.getButtonProps({ name: meta.name, defaultValue: initialValue(itemsOf(schema)) as string | undefined })}
          className="button small add"
          disabled={lock.disabled}
        >
          {addText}
        </button>
      ) : null}
    </FieldShell>
  );
}

/**
 * Translated text arrays: entries {id, text per locale}. Only admins and devs
 * edit ids and add or remove entries; others see the ids read-only.
 */
/** Edits of translated texts reach the form after a pause in typing (spec: debounced 300 ms). */
export const TEXTS_DEBOUNCE_MS = 300;

export function TextsField(props: FieldProps) {
  const { t } = useTranslation();
  const { locales, canEditTextIds: userMayEditIds } = useBucketForm();
  const lock = useFieldLock();
  // A read-only form shows the ids as they are, without add or remove buttons.
  const canEditTextIds = userMayEditIds && lock.showEditButtons;
  const [meta, form] = useField<Array<{ id: string; text: Record<string, string> }>>(props.name);
  const rows = meta.getFieldList();
  const table = useRef<HTMLTableElement>(null);
  useDebouncedInput(table, TEXTS_DEBOUNCE_MS);
  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      {rows.length === 0 ? <p className="empty">{t("form.noEntries")}</p> : null}
      {/* Without rows the table stays (its edits are debounced through it) but shows no lone header. */}
      <table className="texts-field" ref={table} hidden={rows.length === 0}>
        <thead>
          <tr>
            <th scope="col">id</th>
            {locales.map((locale) => (
              <th key={locale} scope="col">
                {locale.toUpperCase()}
              </th>
            ))}
            {canEditTextIds ? <th /> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const entry = row.getFieldset();
            const text = entry.text.getFieldset();
            return (
              <tr key={row.key ?? row.name}>
                <td>
                  <input
                    {...getInputProps(entry.id, { type: "text" })}
                    readOnly={!canEditTextIds}
                    disabled={lock.disabled}
                    aria-label={`id ${index + 1}`}
                  />
                  {entry.id.errors?.length ? (
                    <p className="field-error">
                      <ErrorLines messages={entry.id.errors} />
                    </p>
                  ) : null}
                </td>
                {locales.map((locale) => {
                  // Conform's fieldset has a field for every name: never undefined.
                  const localeField = text[locale];
                  if (!localeField) return null;
                  return (
                    <td key={locale}>
                      <input
                        {...getInputProps(localeField, { type: "text" })}
                        {...lock.input}
                        aria-label={`${locale} ${index + 1}`}
                        lang={locale}
                      />
                    </td>
                  );
                })}
                {canEditTextIds ? (
                  <td>
                    <button
                      {...form.remove.getButtonProps({ name: meta.name, index })}
                      aria-label={t("form.remove")}
                      disabled={lock.disabled}
                    >
                      ×
                    </button>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
      {canEditTextIds ? (
        <button {...form.insert.getButtonProps({ name: meta.name })} className="button small add" disabled={lock.disabled}>
          {t("form.add")}
        </button>
      ) : null}
    </FieldShell>
  );
}
