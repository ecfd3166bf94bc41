import type { ReactNode } from "react";
import type { FieldKind } from "@core/form/field-kind";
import type { JsonSchema } from "@core/schema/normalize";
import { ErrorLines } from "~/components/form-errors";

export interface FieldProps {
  name: string;
  schema: JsonSchema;
  required: boolean;
  /** Overrides the schema's title (list rows, locales). */
  label?: string;
  /** The kind SchemaField chose, marked on the field (`data-kind`): the browser fetches the code of on-demand kinds the page shows before it hydrates. */
  kind?: FieldKind;
}

export function fieldLabel(props: FieldProps): string {
  if (props.label) return props.label;
  if (typeof props.schema.title === "string") return props.schema.title;
  return props.name.slice(props.name.lastIndexOf(".") + 1).replace(/\[\d+\]$/, "");
}

/** Label, hints and the field's errors in red under it. */
export function FieldShell(
  props: FieldProps & {
    id: string;
    errorId: string;
    errors?: string[];
    children: ReactNode;
    aside?: ReactNode;
    as?: "div" | "fieldset";
  },
) {
  const { schema } = props;
  const label = fieldLabel(props);
  const Tag = props.as ?? "div";
  const caption = (
    <>
      {label}
      {props.required ? (
        <span className="required" aria-hidden="true">
          {" "}
          *
        </span>
      ) : null}
    </>
  );
  return (
    <Tag className="field" data-field={props.name} data-kind={props.kind}>
      {Tag === "fieldset" ? <legend>{caption}</legend> : <label htmlFor={props.id}>{caption}</label>}
      {typeof schema.description === "string" ? <p className="field-description">{schema.description}</p> : null}
      {props.children}
      {props.aside}
      {typeof schema.note === "string" ? <p className="field-note">{schema.note}</p> : null}
      {props.errors?.length ? (
        <p id={props.errorId} className="field-error" role="alert">
          <ErrorLines messages={props.errors} />
        </p>
      ) : null}
    </Tag>
  );
}

/** A count against its limit (a text's characters, a list's rows), marked when over it; nothing without a limit. */
export function Counter({ count, max, live = false }: { count: number; max: number | null; live?: boolean }) {
  if (max === null) return null;
  return (
    <span className={count > max ? "counter counter-exceeded" : "counter"} aria-live={live ? "polite" : undefined}>
      {count}/{max}
    </span>
  );
}
