import { getSelectProps, useField, useInputControl } from "@conform-to/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TrendOption } from "../../../core/content/cases";
import { otherTrends } from "../../../core/content/trends";
import { useBucketForm, useFieldLock } from "../form/context";
import { FieldShell, type FieldProps } from "../form/field-shell";
import { useClipCards } from "./context";

/**
 * The trend reference select (`renderer: "trend-select"` with `_ref` a trends collection): each option shows its
 * image and title. Without JavaScript a plain select of titles; with it a listbox (arrow keys, Home, End, Enter,
 * Escape, typing a letter) over a hidden input that the form posts.
 */
export function TrendSelectField(props: FieldProps) {
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const { data, documentId } = useClipCards();
  const [meta] = useField<string>(props.name);
  // A trend's own select never offers the trend itself.
  const options = otherTrends(data.trends[String(props.schema._ref)]?.options ?? [], documentId);
  if (!hydrated || lock.locked) {
    return (
      <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
        <select {...getSelectProps(meta)} {...lock.choice} className="trend-select-plain">
          <option value="">{t("form.pickAnOption")}</option>
          {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
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
    setActive(Math.max(0, choices.findIndex((option) => (option?.value ?? "") === value)));
    setOpen(true);
  };
  const onKey = (event: React.KeyboardEvent) => {
    const last = choices.length - 1;
    const moves: Record<string, number> = { ArrowDown: Math.min(last, active + 1), ArrowUp: Math.max(0, active - 1), Home: 0, End: last };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      setActive(move);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(choices[active] ?? null);
    } else if (event.key === "Escape" || event.key === "Tab") {
      if (event.key === "Escape") event.preventDefault();
      setOpen(false);
      if (event.key === "Escape") button.current?.focus();
    } else if (event.key.length === 1) {
      const letter = event.key.toLowerCase();
      const found = choices.findIndex((option, index) => index > active && option?.label.toLowerCase().startsWith(letter));
      const wrapped = found >= 0 ? found : choices.findIndex((option) => option?.label.toLowerCase().startsWith(letter));
      if (wrapped >= 0) setActive(wrapped);
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
          <span aria-hidden="true" className="trend-select-caret">▾</span>
        </button>
        {open ? (
          <ul
            ref={list}
            id={listId}
            role="listbox"
            tabIndex={-1}
            className="trend-select-list"
            aria-labelledby={meta.id}
            aria-activedescendant={`${listId}-${active}`}
            onKeyDown={onKey}
            onBlur={(event) => {
              if (!event.currentTarget.parentElement?.contains(event.relatedTarget)) setOpen(false);
            }}
          >
            {choices.map((option, index) => (
              <li
                key={option?.value ?? ""}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={(option?.value ?? "") === value}
                className={index === active ? "active" : undefined}
                onMouseDown={(event) => event.preventDefault()}
                onPointerUp={() => choose(option)}
              >
                <TrendOptionView option={option} empty={t("form.pickAnOption")} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </FieldShell>
  );
}

export function TrendOptionView(props: { option: TrendOption | null; empty: string }) {
  const { option } = props;
  return (
    <span className="trend-option">
      {option?.image ? <img src={option.image} alt="" width={48} height={32} /> : <span className="trend-option-no-image" aria-hidden="true" />}
      <span>{option ? option.label : props.empty}</span>
    </span>
  );
}
