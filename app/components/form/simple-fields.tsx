import { getInputProps, getSelectProps, getTextareaProps, useField } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { STEP_FIELD, stepButtonValue } from "@core/form/step";
import { unreadableNumber } from "@core/form/value-messages";
import { acceptNumberInput, defaultStep, parseNumberInput, stepValue } from "@core/schema/number";
import { messageText } from "~/lib/i18n";
import { useBucketForm, useFieldLock } from "./context";
import { Counter, FieldShell, type FieldProps } from "./field-shell";
import { SelectOptions } from "./select-options";

/** Text and multi-line text, with a length counter when maxLength is set. */
export function TextField(props: FieldProps & { multiline?: boolean }) {
  const [meta] = useField<string>(props.name);
  const lock = useFieldLock();
  const maxLength = typeof props.schema.maxLength === "number" ? props.schema.maxLength : null;
  // The form's current value: it follows typing, list intents and 'Velden leegmaken' alike.
  const value = lock.locked ? meta.initialValue : meta.value;
  const length = typeof value === "string" ? value.length : 0;
  const placeholder = typeof props.schema.placeholder === "string" ? props.schema.placeholder : undefined;
  const common = { placeholder, ...lock.input };
  const counter = <Counter count={length} max={maxLength || null} live />;
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors} aside={counter}>
      {props.multiline ? (
        <textarea {...getTextareaProps(meta)} {...common} rows={4} />
      ) : (
        <input {...getInputProps(meta, { type: "text" })} {...common} />
      )}
    </FieldShell>
  );
}

export const TextareaField = (props: FieldProps) => <TextField {...props} multiline />;

/**
 * Number and integer (spec §5): sign, digits, comma or dot; invalid input
 * reverts to the last valid value on leaving the field, and a note next to it
 * says why; empty clears. The last valid value is the field's when the editor
 * entered it (typed, stepped or stored). The plus and minus buttons are Conform
 * update intents, so they work without JavaScript too (without it, the server
 * refuses unreadable text under the field: core/form/value-messages.ts).
 */
export function NumberField(props: FieldProps) {
  const { t } = useTranslation();
  const type = props.schema.type === "integer" ? "integer" : "number";
  const [meta, form] = useField<string>(props.name);
  const step = typeof props.schema.step === "number" ? props.schema.step : defaultStep(type);
  // Typed a string, but a repeated name submits a list (["1", "2"]): read as its text, which is then refused.
  const submitted: unknown = meta.value ?? meta.initialValue ?? "";
  const current = acceptNumberInput(String(submitted), type, undefined);
  const [lastValid, setLastValid] = useState<number | undefined>(current);
  const [reverted, setReverted] = useState<string | null>(null);
  const { hydrated } = useBucketForm();
  const lock = useFieldLock();
  // Without JavaScript the action steps from the submitted value (app/lib/form/step.ts); with it, an update intent.
  const bump = (direction: 1 | -1) =>
    hydrated
      ? form.update.getButtonProps({ name: meta.name, value: String(stepValue(current ?? lastValid, step, direction)) })
      : { type: "submit" as const, name: STEP_FIELD, value: stepButtonValue(meta.name, direction), form: form.id, formNoValidate: true };
  const leave = (input: HTMLInputElement) => {
    const typed = input.value;
    const next = acceptNumberInput(typed, type, lastValid);
    const shown = next === undefined ? "" : String(next);
    setLastValid(next);
    if (shown === typed) return;
    input.value = shown;
    // Conform reads the field's value from its input events: it validates the restored value, not the typed one.
    input.dispatchEvent(new Event("input", { bubbles: true }));
    if (parseNumberInput(typed, type).kind !== "invalid") return;
    const problem = messageText(t, unreadableNumber(typed, type));
    setReverted(next === undefined ? t("form.numberEmptied", { problem }) : t("form.numberReverted", { problem, value: shown }));
  };
  const notice = (
    <p className="number-reverted" role="status">
      {reverted}
    </p>
  );
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors} aside={notice}>
      <div className="number-input">
        {lock.showEditButtons ? (
          <button {...bump(-1)} className="step-button" aria-label={`− ${step}`} disabled={lock.disabled}>
            −
          </button>
        ) : null}
        <input
          {...getInputProps(meta, { type: "text" })}
          {...lock.input}
          inputMode={type === "integer" ? "numeric" : "decimal"}
          onFocus={(event) => setLastValid(acceptNumberInput(event.currentTarget.value, type, lastValid))}
          onInput={() => setReverted(null)}
          onBlur={(event) => leave(event.currentTarget)}
        />
        {lock.showEditButtons ? (
          <button {...bump(1)} className="step-button" aria-label={`+ ${step}`} disabled={lock.disabled}>
            +
          </button>
        ) : null}
      </div>
    </FieldShell>
  );
}

/** A switch: Actief / Inactief. */
export function BooleanField(props: FieldProps) {
  const { t } = useTranslation();
  const [meta] = useField<boolean>(props.name);
  const lock = useFieldLock();
  const value = lock.locked ? meta.initialValue : meta.value;
  const on = value === "on" || value === "true";
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      <span className="switch">
        <input {...getInputProps(meta, { type: "checkbox" })} {...lock.choice} role="switch" aria-checked={on} />
        <span className="switch-label">{on ? t("form.active") : t("form.inactive")}</span>
      </span>
    </FieldShell>
  );
}

export function DateField(props: FieldProps) {
  const [meta] = useField<string>(props.name);
  const lock = useFieldLock();
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      <input {...getInputProps(meta, { type: "date" })} {...lock.input} />
    </FieldShell>
  );
}

export function TimeField(props: FieldProps) {
  const [meta] = useField<string>(props.name);
  const lock = useFieldLock();
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      <input {...getInputProps(meta, { type: "time" })} {...lock.input} step={1} />
    </FieldShell>
  );
}

/**
 * A colour (#rrggbb). A colour input always holds a colour, so a colour nobody chose has no input: 'No colour' and
 * 'Choose colour', which shows the picker at #000000 (spec §3). A colour that is not required can be cleared again.
 * Both buttons are Conform update intents, so they work without JavaScript.
 */
export function ColorField(props: FieldProps) {
  const { t } = useTranslation();
  const [meta, form] = useField<string>(props.name);
  const lock = useFieldLock();
  const value = lock.locked ? meta.initialValue : meta.value;
  const chosen = typeof value === "string" && value !== "";
  const set = (next: string) => form.update.getButtonProps({ name: meta.name, value: next });
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      <span className="color-field">
        {chosen ? (
          <input {...getInputProps(meta, { type: "color" })} {...lock.choice} />
        ) : (
          <output id={meta.id} className="color-none">
            {t("form.noColour")}
          </output>
        )}
        {lock.showEditButtons && !chosen ? (
          <button {...set("#000000")} className="button small" disabled={lock.disabled}>
            {t("form.chooseColour")}
          </button>
        ) : null}
        {lock.showEditButtons && chosen && !props.required ? (
          <button {...set("")} className="button small" disabled={lock.disabled}>
            {t("form.clearColour")}
          </button>
        ) : null}
      </span>
    </FieldShell>
  );
}

function SelectField(props: FieldProps & { options: Array<{ value: string; label: string }> }) {
  const [meta] = useField<string>(props.name);
  const lock = useFieldLock();
  return (
    <FieldShell {...props} id={meta.id} errorId={meta.errorId} errors={meta.errors}>
      <select {...getSelectProps(meta)} {...lock.choice}>
        <SelectOptions options={props.options} />
      </select>
    </FieldShell>
  );
}

export function EnumField(props: FieldProps) {
  const labels = (props.schema.labels ?? {}) as Record<string, string>;
  const values = (props.schema.enum as unknown[]).map(String);
  return <SelectField {...props} options={values.map((value) => ({ value, label: labels[value] ?? value }))} />;
}

/** The parent field's name of `a.b[2].c` for a relative pointer going `up` levels. */
export function resolveRelativePointer(name: string, pointer: string): string | null {
  const match = /^(\d+)(\/.*)?$/.exec(pointer);
  if (!match) return null;
  const segments = name.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  const up = Number(match[1]);
  if (up > segments.length) return null;
  const base = segments.slice(0, segments.length - up);
  const rest = (match[2] ?? "")
    .split("/")
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : part));
  return [...base, ...rest].reduce((out, part) => (part.startsWith("[") ? `${out}${part}` : out ? `${out}.${part}` : part), "");
}

/** Options come from another field's list (`enum: {$data: "1/rooms"}`) and follow it as it changes. */
export function EnumDataField(props: FieldProps) {
  const pointer = String((props.schema.enum as { $data: unknown }).$data);
  const sourceName = resolveRelativePointer(props.name, pointer) ?? "";
  const [source] = useField<unknown>(sourceName);
  const raw = source.value ?? source.initialValue;
  const values = (Array.isArray(raw) ? raw : []).filter((value): value is string => typeof value === "string" && value !== "");
  return <SelectField {...props} options={values.map((value) => ({ value, label: value }))} />;
}
