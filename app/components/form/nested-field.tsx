import { createContext, createElement, useContext, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import type { FieldProps } from "./field-shell";

/*
 * A field inside another field: a list's rows, an object's properties, a sub-form's fields, the bucket-form modal's
 * fields (opened from a field). The containers render it through the SchemaField that rendered them (schema-field.tsx
 * provides itself here), so they do not import the registry that imports them: the form's modules import one way.
 */

export const FieldByKind = createContext<ComponentType<FieldProps> | null>(null);

export function NestedField(props: FieldProps) {
  const Field = useContext(FieldByKind);
  const { t } = useTranslation();
  // The same component every time (the one SchemaField): createElement says so to the hooks linter, which cannot tell.
  if (Field) return createElement(Field, props);
  return (
    <p className="field-error unknown-field" role="alert">
      {t("form.noComponent", { name: props.name })}
    </p>
  );
}
