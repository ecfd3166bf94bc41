import { useTranslation } from "react-i18next";

/** Field and form errors hold i18n keys; they are translated here. */
export function FieldError({ field, params }: { field: { errorId: string; errors?: string[] }; params?: Record<string, unknown> }) {
  const { t } = useTranslation();
  if (!field.errors?.length) return null;
  return (
    <p id={field.errorId} className="field-error" role="alert">
      {field.errors.map((key) => t(key, params)).join(" ")}
    </p>
  );
}

export function FormError({ errors, params }: { errors?: string[]; params?: Record<string, unknown> }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <div className="form-error" role="alert">
      {errors.map((key) => (
        <p key={key}>{t(key, params)}</p>
      ))}
    </div>
  );
}
