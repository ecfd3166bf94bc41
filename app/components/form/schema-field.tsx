import { useTranslation } from "react-i18next";
import { fieldKind } from "@core/form/field-kind";
import type { FieldProps } from "./field-shell";
import { FieldByKind } from "./nested-field";
import { FIELD_COMPONENTS } from "./registry";

/**
 * Renders a property with the component its kind names; an unknown kind says so. Fields inside it (NestedField,
 * nested-field.tsx) are rendered by this function again.
 */
export function SchemaField(props: FieldProps) {
  const { t } = useTranslation();
  const kind = fieldKind(props.schema);
  if (!kind) {
    return (
      <p className="field-error unknown-field" role="alert">
        {t("form.noComponent", { name: props.name })}
      </p>
    );
  }
  const Component = FIELD_COMPONENTS[kind];
  return (
    <FieldByKind.Provider value={SchemaField}>
      <Component {...props} kind={kind} />
    </FieldByKind.Provider>
  );
}
