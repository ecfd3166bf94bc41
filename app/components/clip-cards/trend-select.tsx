import { getSelectProps, useField, useInputControl } from "@conform-to/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TrendOption } from "@core/content/cases";
import { otherTrends } from "@core/content/trends";
import { useBucketForm, useFieldLock } from "~/components/form/context";
import { FieldShell, type FieldProps } from "~/components/form/field-shell";
import { useClipCards } from "./context";
import { listboxKey, TrendOptionList, TrendOptionView } from "./trend-listbox";
import { SelectOptions } from "~/components/form/select-options";
import { useOptionLabel } from "~/components/form/reference-data";

/**
 * The trend reference select (`renderer: "trend-select"` with `_ref` a trends collection): each option shows its
 * image and title. Without JavaScript a plain select of titles; with it a listbox (arrow keys, Home, End, Enter,
 * Escape, typing a letter) over a hidden input that the form posts.
 */
export function TrendSelectField(props: FieldProps) {
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const { data, documentId } = useClipCards();
  const [meta] = useField<string>(props.name);
  // A trend's own select never offers the trend itself.
  const options = otherTrends(data.trends[String(props.schema._ref)]?.options ?? [], documentId);
  const optionLabel = useOptionLabel();
  if (!hydrated || lock.locked) {
    return (
      <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
        <select {...getSelectProps(meta)} {...lock.choice} className="trend-select-plain">
          <SelectOptions options={options.map((option) => ({ value: option.value, label: optionLabel(option) }))} />
        </select>
      </FieldShell>
    );
  }
  return <TrendListbox {...props} options={options} />;
}

function TrendListbox(props: FieldProps & { options: TrendOption[] }) {
  const { t } = useTranslation();
  const [meta] = useField<string>(props.name);
  const control = useInputControl(meta);
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const value = control.value ?? "";
  const current = props.options.find((option) => option.value === value);
  const choices: Array<TrendOption | null> = [null, ...props.options];

  useEffect(() => {
    if (open) list.current?.focus();
  }, [open]);

  const choose = (option: TrendOption | null) => {
    control.change(option?.value ?? "");
    setOpen(false);
    button.current?.focus();
  };
  const openList = () => {
    setActive(
      Math.max(
        0,
        choices.findIndex((option) => (option?.value ?? "") === value),
      ),
    );
    setOpen(true);
  };
  const onKey = (event: React.KeyboardEvent) => {
    const action = listboxKey(
      event.key,
      active,
      choices.map((option) => option?.label ?? ""),
    );
    if (!action) return;
    if (action.kind !== "tab") event.preventDefault();
    if (action.kind === "move") setActive(action.to);
    else if (action.kind === "choose") choose(choices[active] ?? null);
    else {
      setOpen(false);
      if (action.kind === "escape") button.current?.focus();
    }
  };

  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      <div className="trend-select">
        <input type="hidden" name={meta.name} value={value} />
        <button
          ref={button}
          id={meta.id}
          type="button"
          className="trend-select-button"
          aria-haspopup="listbox"
          aria-expanded={open}
          aria-controls={listId}
          aria-describedby={meta.errors?.length ? meta.errorId : undefined}
          onClick={() => (open ? setOpen(false) : openList())}
          onKeyDown={(event) => {
            if (!open && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
              event.preventDefault();
              openList();
            }
          }}
        >
          <TrendOptionView option={current ?? null} empty={t("form.pickAnOption")} />
          <span aria-hidden="true" className="trend-select-caret">
            ▾
          </span>
        </button>
        {open ? (
          <TrendOptionList
            id={listId}
            ref={list}
            options={choices}
            active={active}
            isSelected={(option) => (option?.value ?? "") === value}
            labelledBy={meta.id}
            empty={t("form.pickAnOption")}
            onKeyDown={onKey}
            onChoose={choose}
            onLeave={() => setOpen(false)}
          />
        ) : null}
      </div>
    </FieldShell>
  );
}
