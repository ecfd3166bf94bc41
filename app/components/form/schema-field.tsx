import { useTranslation } from "react-i18next";
import { fieldKind } from "@core/form/field-kind";
import type { FieldProps } from "./field-shell";
import { FIELD_COMPONENTS } from "./registry";

/** Renders a property with the component its kind names; an unknown kind says so. */
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
  return <Component {...props} />;
}
