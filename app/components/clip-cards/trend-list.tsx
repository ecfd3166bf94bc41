import { useField } from "@conform-to/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TrendOption } from "@core/content/cases";
import { otherTrends } from "@core/content/trends";
import { TREND_ADD_PREFIX } from "@core/form/trend-add";
import type { JsonSchema } from "@core/schema/normalize";
import { useBucketForm, useFieldLock } from "~/components/form/context";
import { Counter, fieldLabel, FieldShell, type FieldProps } from "~/components/form/field-shell";
import { useClipCards } from "./context";
import { listboxKey, TrendOptionList } from "./trend-listbox";
import "~/styles/trend-screen.css";
import { useRowDrag } from "~/components/form/row-drag";
import { SelectOptions } from "~/components/form/select-options";
import { useOptionLabel } from "~/components/form/reference-data";
import { PublicationBadge } from "~/components/publishing/publication-badge";

/**
 * The trend select on a list (`renderer: "trend-select"`, items `_ref` a trends collection): related trends, each a
 * card with its image and title, reordered with ↑ ↓ (submit buttons: Conform's reorder intent) or by dragging, and
 * removed with ×. With JavaScript 'Add' opens a listbox of the other trends; without it a select of them and an
 * 'Add' button (core/form/trend-add.ts and Conform's validate intent: the page comes back with the chosen trend in
 * the list, nothing saved).
 * The document being edited is never offered (a trend does not relate to itself; the server refuses it too).
 */
export function TrendListField(props: FieldProps) {
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const { data, documentId } = useClipCards();
  const [meta, form] = useField<string[]>(props.name);
  const addId = useId();
  const items = (props.schema.items ?? {}) as JsonSchema;
  const collection = typeof items._ref === "string" ? items._ref : "";
  const known = data.trends[collection];
  const byId = new Map((known?.options ?? []).map((option) => [option.value, option]));
  const rows = meta.getFieldList();
  const values = rows.map((row) => {
    const value: unknown = lock.locked ? row.initialValue : (row.value ?? row.initialValue);
    return typeof value === "string" ? value : "";
  });
  const addable = otherTrends(known?.options ?? [], documentId).filter((option) => !values.includes(option.value));
  const maxItems = typeof props.schema.maxItems === "number" ? props.schema.maxItems : null;
  const canAdd = lock.showEditButtons && !!known?.slug && (maxItems === null || rows.length < maxItems);
  const canSort = lock.showEditButtons && !lock.disabled;
  const drag = useRowDrag(hydrated && canSort, (from, to) => form.reorder({ name: meta.name, from, to }));
  const label = fieldLabel(props);
  const optionLabel = useOptionLabel();
  const counter = <Counter count={rows.length} max={maxItems} />;

  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={meta.errors} aside={counter}>
      {rows.length === 0 ? <p className="empty">{t("form.noEntries")}</p> : null}
      {rows.length ? (
        <ol className="trend-list" aria-label={label}>
          {rows.map((row, index) => {
            const value = values[index] ?? "";
            const option = byId.get(value);
            const title = option?.label ?? t("trendScreen.list.missing");
            return (
              <li
                key={row.key ?? row.name}
                className={["trend-card", drag.className(index)].filter(Boolean).join(" ")}
                data-trend={value}
                {...drag.rowProps(index)}
              >
                <input type="hidden" name={row.name} value={value} disabled={lock.disabled} />
                {option?.image ? (
                  <img src={option.image} alt="" width={96} height={60} loading="lazy" />
                ) : (
                  <span className="trend-card-no-image" aria-hidden="true" />
                )}
                <span className="trend-card-name">
                  <span className={option ? "trend-card-title" : "trend-card-title muted"}>{title}</span>
                  {option?.state ? <PublicationBadge state={option.state} /> : null}
                </span>
                {lock.showEditButtons ? (
                  <span className="row-actions">
                    <button
                      {...form.reorder.getButtonProps({ name: meta.name, from: index, to: index - 1 })}
                      disabled={lock.disabled || index === 0}
                      aria-label={`${t("form.moveUp")}: ${title}`}
                    >
                      ↑
                    </button>
                    <button
                      {...form.reorder.getButtonProps({ name: meta.name, from: index, to: index + 1 })}
                      disabled={lock.disabled || index === rows.length - 1}
                      aria-label={`${t("form.moveDown")}: ${title}`}
                    >
                      ↓
                    </button>
                    <button
                      {...form.remove.getButtonProps({ name: meta.name, index })}
                      className="remove"
                      disabled={lock.disabled}
                      aria-label={`${t("form.remove")}: ${title}`}
                    >
                      ×
                    </button>
                  </span>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
      {canAdd && addable.length === 0 ? <p className="muted trend-list-none">{t("trendScreen.list.noneLeft")}</p> : null}
      {canAdd && addable.length > 0 ? (
        hydrated ? (
          <TrendAddListbox
            options={addable}
            label={t("trendScreen.list.add")}
            disabled={lock.disabled}
            onAdd={(value) => form.insert({ name: meta.name, defaultValue: value })}
          />
        ) : (
          <div className="trend-list-add">
            <label htmlFor={addId}>{t("trendScreen.list.addLabel")}</label>
            {/* Its trend joins the end of the list on the server (core/form/trend-add.ts): 'Add' shows it, Save saves it. */}
            <select id={addId} name={`${TREND_ADD_PREFIX}${meta.name}`} defaultValue="" disabled={lock.disabled}>
              <SelectOptions options={addable.map((option) => ({ value: option.value, label: optionLabel(option) }))} />
            </select>
            <button {...form.validate.getButtonProps({ name: meta.name })} className="button small" disabled={lock.disabled}>
              {t("form.add")}
            </button>
          </div>
        )
      ) : null}
    </FieldShell>
  );
}

/** 'Add a trend' with JavaScript: a button opening a listbox of the trends not yet chosen, each with its image. */
function TrendAddListbox(props: { options: TrendOption[]; label: string; disabled: boolean; onAdd: (value: string) => void }) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const { options } = props;

  useEffect(() => {
    if (open) list.current?.focus();
  }, [open]);

  const choose = (option: TrendOption | undefined) => {
    setOpen(false);
    button.current?.focus();
    if (option) props.onAdd(option.value);
  };
  const onKey = (event: React.KeyboardEvent) => {
    const action = listboxKey(
      event.key,
      active,
      options.map((option) => option.label),
    );
    if (!action) return;
    if (action.kind !== "tab") event.preventDefault();
    if (action.kind === "move") setActive(action.to);
    else if (action.kind === "choose") choose(options[active]);
    else {
      setOpen(false);
      if (action.kind === "escape") button.current?.focus();
    }
  };

  return (
    <div className="trend-select trend-list-picker">
      <button
        ref={button}
        type="button"
        className="button small add"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        disabled={props.disabled}
        onClick={() => {
          setActive(0);
          setOpen(!open);
        }}
      >
        {props.label}
      </button>
      {open ? (
        <TrendOptionList
          id={listId}
          ref={list}
          options={options}
          active={active}
          isSelected={(_option, index) => index === active}
          label={props.label}
          empty=""
          onKeyDown={onKey}
          onChoose={(option) => choose(option ?? undefined)}
          onLeave={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}
