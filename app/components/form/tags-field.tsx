import { getInputProps, useField } from "@conform-to/react";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { TAG_ADD_FIELD, tagDraftName, tagsFromText } from "@core/form/tags";
import { useBucketForm, useFieldLock } from "./context";
import { Counter, fieldLabel, FieldShell, type FieldProps } from "./field-shell";
import { FieldPostButton } from "./field-post-button";

/**
 * A tag list (`renderer: "tags"`) as chips: each tag a chip with a remove ×,
 * then an input for a new tag and '+ New Tag' (spec §2). With JavaScript,
 * Enter or a comma adds the typed tag, Backspace in the empty input removes
 * the last one, leaving the input adds what was typed. Without it the chips'
 * × are submit buttons with Conform's remove intent, and '+ New Tag' posts the
 * typed text, which the action turns into a new entry (core/form/tags.ts).
 */
export function TagsField(props: FieldProps) {
  const { t } = useTranslation();
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  const [meta, form] = useField<string[]>(props.name);
  const [draft, setDraft] = useState("");
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const rows = meta.getFieldList();
  const maxItems = typeof props.schema.maxItems === "number" ? props.schema.maxItems : null;
  const canAdd = lock.showEditButtons && (maxItems === null || rows.length < maxItems);
  const tagText = (row: (typeof rows)[number]) => row.value ?? row.initialValue ?? "";
  const rowErrors = rows.flatMap((row) => row.errors ?? []);
  const errors = [...(meta.errors ?? []), ...rowErrors];

  /** Adds the typed tags after the current ones, in one update of the list. */
  const add = (text: string) => {
    const tags = tagsFromText(text);
    setDraft("");
    if (!tags.length) return;
    const current = rows.map(tagText);
    form.update({ name: meta.name, value: [...current, ...tags] });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add(draft);
    } else if (event.key === "Backspace" && draft === "" && rows.length > 0) {
      event.preventDefault();
      form.remove({ name: meta.name, index: rows.length - 1 });
    }
  };

  const counter = <Counter count={rows.length} max={maxItems} />;

  return (
    <FieldShell {...props} as="fieldset" id={meta.id} errorId={meta.errorId} errors={errors} aside={counter}>
      <div className="tags-field">
        {rows.length ? (
          <ul className="tag-chips">
            {rows.map((row, index) => (
              <li key={row.key ?? `${meta.name}-${index}`} className={row.errors?.length ? "tag-chip has-error" : "tag-chip"}>
                <input {...getInputProps(row, { type: "hidden" })} disabled={lock.disabled} />
                <span className="tag-text">{tagText(row)}</span>
                {lock.showEditButtons ? (
                  <button
                    {...form.remove.getButtonProps({ name: meta.name, index })}
                    className="tag-remove"
                    aria-label={t("form.removeTag", { tag: tagText(row) })}
                    disabled={lock.disabled}
                  >
                    ×
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {canAdd ? (
          <span className="tag-new">
            <input
              ref={input}
              id={inputId}
              type="text"
              className="tag-input"
              // Without JavaScript the typed tag is posted (the action adds it); with it the browser adds it.
              name={hydrated ? undefined : tagDraftName(meta.name)}
              value={draft}
              onChange={(event) => {
                const text = event.target.value;
                // A pasted "a, b" or a typed comma: every complete tag becomes a chip at once.
                if (text.includes(",")) {
                  const parts = text.split(",");
                  add(parts.slice(0, -1).join(","));
                  setDraft(parts.at(-1) ?? "");
                } else setDraft(text);
              }}
              onKeyDown={onKeyDown}
              onBlur={() => add(draft)}
              aria-label={t("form.tagInput", { field: fieldLabel(props) })}
              aria-describedby={errors.length ? meta.errorId : undefined}
              disabled={lock.disabled}
              autoComplete="off"
              enterKeyHint="enter"
            />
            {hydrated ? (
              <button
                type="button"
                className="button small add"
                disabled={lock.disabled}
                onClick={() => {
                  if (draft.trim()) add(draft);
                  input.current?.focus();
                }}
              >
                {t("form.newTag")}
              </button>
            ) : (
              <FieldPostButton
                edit={TAG_ADD_FIELD}
                field={meta.name}
                formId={form.id}
                className="button small add"
                disabled={lock.disabled}
              >
                {t("form.newTag")}
              </FieldPostButton>
            )}
          </span>
        ) : null}
      </div>
    </FieldShell>
  );
}
