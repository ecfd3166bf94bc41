import { useField } from "@conform-to/react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import type { CaseCard } from "../../../core/content/cases";
import { CASES_OPEN_FIELD } from "../../../core/form/cases-picker";
import type { JsonSchema } from "../../../core/schema/normalize";
import { useBucketForm, useFieldLock } from "../form/context";
import { FieldShell, type FieldProps } from "../form/field-shell";
import { AddCard, ClipCard } from "./clip-card";
import { useClipCards } from "./context";
import { CasesPickerModal } from "./picker-modal";
import { CasesPickerSection } from "./picker-section";

/**
 * A list of video cases (`renderer: "video-cases"`, items `_ref` a cases collection): the chosen cases as clip cards
 * with a remove action, and an add card. With JavaScript the add card opens the picker modal; without, it is a submit
 * button and the page comes back with the picker as a section of checkable cards (core/form/cases-picker.ts).
 */
export function VideoCasesField(props: FieldProps) {
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const revalidator = useRevalidator();
  const { data, picker } = useClipCards();
  const [meta, form] = useField<string[]>(props.name);
  const [open, setOpen] = useState(false);
  // Cases met in the modal (new ones too) until the page's data has them.
  const [seen, setSeen] = useState<Record<string, CaseCard>>({});
  const items = (props.schema.items ?? {}) as JsonSchema;
  const collection = typeof items._ref === "string" ? items._ref : "";
  const known = data.cases[collection];
  const byId = useMemo(() => ({ ...seen, ...Object.fromEntries((known?.cards ?? []).map((card) => [card.contentId, card])) }), [known, seen]);
  const rows = meta.getFieldList();
  const values = rows.map((row) => (lock.locked ? row.initialValue : (row.value ?? row.initialValue)) ?? "");
  const maxItems = typeof props.schema.maxItems === "number" ? props.schema.maxItems : null;
  const canAdd = lock.showEditButtons && !!known?.slug && (maxItems === null || rows.length < maxItems);
  const addLabel = typeof props.schema["add-button"] === "string" ? props.schema["add-button"] : t("cases.add");
  // Without JavaScript, the picker a post asked for.
  const section = !hydrated && picker && picker.name === meta.name && known?.slug ? { search: picker.search, cards: known.cards } : null;

  const counter = maxItems !== null ? <span className={rows.length > maxItems ? "counter counter-exceeded" : "counter"}>{rows.length}/{maxItems}</span> : null;
  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={meta.errors} aside={counter}>
      {rows.length === 0 ? <p className="empty">{t("form.noEntries")}</p> : null}
      <ul className="clip-cards" aria-label={t("cases.chosen")}>
        {rows.map((row, index) => {
          const id = values[index] ?? "";
          return (
            <ClipCard
              key={row.key ?? row.name}
              card={byId[id] ?? null}
              missingId={id}
              control={<input type="hidden" name={row.name} value={id} />}
              actions={lock.showEditButtons ? (
                <button {...form.remove.getButtonProps({ name: meta.name, index })} className="button small" disabled={lock.disabled}>
                  {t("cases.remove")}
                  <span className="visually-hidden"> {byId[id]?.title ?? ""}</span>
                </button>
              ) : null}
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
      {section ? <CasesPickerSection name={meta.name} formId={form.id} cards={section.cards} chosen={values} search={section.search} /> : null}
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
