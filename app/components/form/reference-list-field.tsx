import { useField } from "@conform-to/react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReferenceTarget } from "@core/content/references";
import type { JsonSchema } from "@core/schema/normalize";
import { useBucketForm, useFieldLock } from "./context";
import { Counter, fieldLabel, FieldShell, type FieldProps } from "./field-shell";
import { useReferenceCollection } from "./reference-data";
import { ReferenceField } from "./reference-field";
import { lazyDialog, opensInBrowserOnly } from "~/lib/lazy-dialog";
import { RowButtons } from "./row-buttons";
import { useRowDrag } from "./row-drag";
import { PublicationBadge } from "~/components/publishing/publication-badge";

const ReferencePicker = lazyDialog(
  import.meta.env.SSR ? opensInBrowserOnly : () => import("./reference-picker").then((module) => module.ReferencePicker),
);

const itemsOf = (schema: JsonSchema) => (schema.items ?? {}) as JsonSchema;

/**
 * A reference list (`items._ref` to a collection, spec §1): its documents in order, each with its thumbnail (the
 * document's first image) and title, linked to it; 'No entries' when empty. Sorted by dragging or the up and
 * down buttons, removed with ×. With JavaScript 'Add' opens a picker with search; without it, 'Add' is Conform's
 * insert intent and the new row is a reference select (with its search box for a large collection). Every
 * button is a submit button with an intent, so the list works without JavaScript.
 */
export function ReferenceListField(props: FieldProps) {
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const [meta, form] = useField<unknown[]>(props.name);
  const [picking, setPicking] = useState(false);
  const [picked, setPicked] = useState<Record<string, ReferenceTarget>>({});
  const addButton = useRef<HTMLButtonElement>(null);
  const { schema } = props;
  const { collection, collectionName, describe } = useReferenceCollection(itemsOf(schema), picked);
  const rows = meta.getFieldList();
  const values = rows.map((row) => {
    const value: unknown = lock.locked ? row.initialValue : (row.value ?? row.initialValue);
    return typeof value === "string" ? value : "";
  });
  const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : null;
  const fixed = Boolean(schema.fixed) || typeof schema.fixedItems === "number";
  const canAdd = !fixed && lock.showEditButtons && (maxItems === null || rows.length < maxItems);
  const canSort = lock.showEditButtons && !lock.disabled;
  const drag = useRowDrag(hydrated && canSort, (from, to) => form.reorder({ name: meta.name, from, to }));
  const label = fieldLabel(props);
  const addText = typeof schema["add-button"] === "string" ? schema["add-button"] : t("form.add");
  const counter = <Counter count={rows.length} max={maxItems} />;

  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={meta.errors} aside={counter}>
      {rows.length === 0 ? <p className="empty">{t("form.noEntries")}</p> : null}
      <ol className="list-field reference-list">
        {rows.map((row, index) => {
          // Conform has no key for rows a post's reply added (the page re-rendered without JavaScript): the name is one.
          const value = values[index] ?? "";
          const view = value ? describe(value) : null;
          return (
            <li
              key={row.key ?? row.name}
              className={["list-row reference-row", drag.className(index)].filter(Boolean).join(" ")}
              {...drag.rowProps(index)}
            >
              {value && view ? (
                <div className="reference-entry" data-reference={value}>
                  <input type="hidden" name={row.name} value={value} disabled={lock.disabled} />
                  {view.thumbnail ? (
                    <img
                      className="reference-thumb"
                      src={view.thumbnail}
                      alt={t("references.thumbnail", { title: view.label })}
                      width={48}
                      height={48}
                      loading="lazy"
                    />
                  ) : (
                    <span className="reference-thumb reference-thumb-empty" aria-hidden="true" />
                  )}
                  {view.deleted ? (
                    <span className="reference-deleted">{t("references.deleted")}</span>
                  ) : (
                    <span className="reference-name">
                      {view.known && collection.slug ? (
                        <a href={`/b/${collection.slug}/${value}/latest`} className="reference-title">
                          {view.label}
                        </a>
                      ) : (
                        <span className="reference-title">{view.label}</span>
                      )}
                      {view.state ? <PublicationBadge state={view.state} /> : null}
                    </span>
                  )}
                </div>
              ) : (
                <ReferenceField
                  name={row.name}
                  schema={itemsOf(schema)}
                  required={false}
                  label={t("references.entry", { index: index + 1 })}
                />
              )}
              {lock.showEditButtons ? (
                <RowButtons
                  list={meta.name}
                  index={index}
                  count={rows.length}
                  sortable
                  removable={!fixed}
                  disabled={lock.disabled}
                  rowName={view?.label ?? String(index + 1)}
                />
              ) : null}
            </li>
          );
        })}
      </ol>
      {canAdd ? (
        hydrated ? (
          <button
            ref={addButton}
            type="button"
            className="button small add"
            disabled={lock.disabled || !collection.slug}
            onClick={() => setPicking(true)}
          >
            {addText}
          </button>
        ) : (
          <button {...form.insert.getButtonProps({ name: meta.name })} className="button small add" disabled={lock.disabled}>
            {addText}
          </button>
        )
      ) : null}
      {picking ? (
        <ReferencePicker
          title={label}
          collectionName={collectionName}
          collection={collection}
          chosen={values}
          onPick={(option) => {
            setPicked((known) => ({
              ...known,
              [option.value]: { label: option.label, thumbnail: option.thumbnail ?? null, state: option.state },
            }));
            form.insert({ name: meta.name, defaultValue: option.value });
            setPicking(false);
            addButton.current?.focus();
          }}
          onClose={() => {
            setPicking(false);
            addButton.current?.focus();
          }}
        />
      ) : null}
    </FieldShell>
  );
}
