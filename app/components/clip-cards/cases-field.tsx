import { useField } from "@conform-to/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import type { CaseCard } from "@core/content/cases";
import { CASES_OPEN_FIELD } from "@core/form/cases-picker";
import type { JsonSchema } from "@core/schema/normalize";
import { useBucketForm, useFieldLock } from "~/components/form/context";
import { Counter, FieldShell, type FieldProps } from "~/components/form/field-shell";
import { AddCard, ClipCard } from "./clip-card";
import { useClipCards } from "./context";
import { lazyDialog, opensInBrowserOnly } from "~/lib/lazy-dialog";
import { CasesPickerSection } from "./picker-section";
import { useRowDrag } from "~/components/form/row-drag";

const CasesPickerModal = lazyDialog(
  import.meta.env.SSR ? opensInBrowserOnly : () => import("./picker-modal").then((module) => module.CasesPickerModal),
);

/**
 * A list of video cases (`renderer: "video-cases"`, items `_ref` a cases collection): the chosen cases as clip cards
 * in their order, each with Move earlier / Move later and Remove, and an add card. The buttons are Conform intents:
 * without JavaScript they post the form, which comes back with the new order and every input kept; with it they
 * act in place, and a card can also be dragged to another place. With JavaScript the add card opens the picker
 * modal; without, it is a submit button and the page comes back with the picker as a section of checkable cards
 * (core/form/cases-picker.ts).
 */
export function VideoCasesField(props: FieldProps) {
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const revalidator = useRevalidator();
  const { data, picker } = useClipCards();
  const [meta, form] = useField<string[]>(props.name);
  const [open, setOpen] = useState(false);
  // A Move button moves its card: focus follows the card (React may re-insert the button's element).
  const list = useRef<HTMLUListElement>(null);
  const [moved, setMoved] = useState<{ key: string; button: "earlier" | "later" } | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // Cases met in the modal (new ones too) until the page's data has them.
  const [seen, setSeen] = useState<Record<string, CaseCard>>({});
  const items = (props.schema.items ?? {}) as JsonSchema;
  const collection = typeof items._ref === "string" ? items._ref : "";
  const known = data.cases[collection];
  const byId = useMemo(
    () => ({ ...seen, ...Object.fromEntries((known?.cards ?? []).map((card) => [card.contentId, card])) }),
    [known, seen],
  );
  const rows = meta.getFieldList();
  const values = rows.map((row) => (lock.locked ? row.initialValue : (row.value ?? row.initialValue)) ?? "");
  const maxItems = typeof props.schema.maxItems === "number" ? props.schema.maxItems : null;
  const canAdd = lock.showEditButtons && !!known?.slug && (maxItems === null || rows.length < maxItems);
  const addLabel = typeof props.schema["add-button"] === "string" ? props.schema["add-button"] : t("cases.add");
  // Without JavaScript, the picker a post asked for.
  const section = !hydrated && picker && picker.name === meta.name && known?.slug ? { search: picker.search, cards: known.cards } : null;

  const canSort = hydrated && lock.showEditButtons && !lock.disabled && rows.length > 1;
  useEffect(() => {
    if (!moved || !list.current) return;
    const card = list.current.querySelector(`[data-row="${CSS.escape(moved.key)}"]`);
    const button =
      card?.querySelector<HTMLButtonElement>(`[data-move="${moved.button}"]:not(:disabled)`) ??
      card?.querySelector<HTMLButtonElement>("[data-move]:not(:disabled)");
    button?.focus();
    setMoved(null);
  }, [moved, values]);
  const move = (from: number, to: number) => {
    const title = byId[values[from] ?? ""]?.title ?? "";
    setAnnouncement(`${title} ${t("sessionEditor.cases.position", { index: to + 1, count: rows.length })}`);
  };
  const drag = useRowDrag(canSort, (from, to) => {
    form.reorder({ name: meta.name, from, to });
    move(from, to);
  });

  const counter = <Counter count={rows.length} max={maxItems} />;
  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={meta.errors} aside={counter}>
      {rows.length === 0 ? <p className="empty">{t("form.noEntries")}</p> : null}
      {canSort ? <p className="field-hint cases-drag-hint">{t("sessionEditor.cases.dragHint")}</p> : null}
      <ul className="clip-cards" aria-label={t("cases.chosen")} ref={list}>
        {rows.map((row, index) => {
          const id = values[index] ?? "";
          const key = row.key ?? row.name;
          const title = byId[id]?.title ?? "";
          const moveButton = (button: "earlier" | "later") => {
            const to = button === "earlier" ? index - 1 : index + 1;
            const label = t(button === "earlier" ? "sessionEditor.cases.moveEarlier" : "sessionEditor.cases.moveLater");
            return (
              <button
                {...form.reorder.getButtonProps({ name: meta.name, from: index, to })}
                className="button small move-button"
                data-move={button}
                disabled={lock.disabled || to < 0 || to >= rows.length}
                title={label}
                onClick={() => {
                  if (!hydrated) return;
                  setMoved({ key, button });
                  move(index, to);
                }}
              >
                <span aria-hidden="true">{button === "earlier" ? "←" : "→"}</span>
                <span className="visually-hidden">
                  {label}: {title}
                </span>
              </button>
            );
          };
          return (
            <ClipCard
              key={key}
              card={byId[id] ?? null}
              missingId={id}
              itemProps={
                {
                  "data-row": key,
                  className: drag.className(index),
                  ...drag.rowProps(index),
                } as React.HTMLAttributes<HTMLLIElement>
              }
              control={<input type="hidden" name={row.name} value={id} />}
              actions={
                lock.showEditButtons ? (
                  <>
                    {rows.length > 1 ? moveButton("earlier") : null}
                    {rows.length > 1 ? moveButton("later") : null}
                    <button {...form.remove.getButtonProps({ name: meta.name, index })} className="button small" disabled={lock.disabled}>
                      {t("cases.remove")}
                      <span className="visually-hidden"> {title}</span>
                    </button>
                  </>
                ) : null
              }
            />
          );
        })}
        {canAdd ? (
          <AddCard
            label={addLabel}
            buttonProps={
              hydrated
                ? { type: "button", onClick: () => setOpen(true), disabled: lock.disabled, "aria-haspopup": "dialog" }
                : { type: "submit", name: CASES_OPEN_FIELD, value: meta.name, form: form.id, formNoValidate: true, disabled: lock.disabled }
            }
          />
        ) : null}
      </ul>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {section ? (
        <CasesPickerSection name={meta.name} formId={form.id} cards={section.cards} chosen={values} search={section.search} />
      ) : null}
      {open && known?.slug ? (
        <CasesPickerModal
          slug={known.slug}
          collection={collection}
          chosen={values}
          maxAdd={maxItems === null ? null : Math.max(0, maxItems - rows.length)}
          onClose={(added, cards) => {
            setOpen(false);
            setSeen((before) => ({ ...before, ...Object.fromEntries(cards.map((card) => [card.contentId, card])) }));
            if (added.length) form.update({ name: meta.name, value: [...values, ...added] });
            // New or deleted cases: the page's data follows.
            void revalidator.revalidate();
          }}
        />
      ) : null}
    </FieldShell>
  );
}
