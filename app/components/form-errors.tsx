import { useTranslation } from "react-i18next";

/**
 * A field's messages, each on a line of its own ("This field is required" / "Stored value: 7"), never run
 * together; one message is the plain text. The lines keep a space between them for text read as a whole.
 */
export function ErrorLines({ messages }: { messages: readonly string[] }) {
  if (messages.length === 1) return <>{messages[0]}</>;
  return (
    <>
      {messages.map((message, index) => (
        <span key={index} className="error-line">
          {index ? ` ${message}` : message}
        </span>
      ))}
    </>
  );
}

/** Field and form errors hold i18n keys; they are translated here. */
export function FieldError({ field, params }: { field: { errorId: string; errors?: string[] }; params?: Record<string, unknown> }) {
  const { t } = useTranslation();
  if (!field.errors?.length) return null;
  return (
    <p id={field.errorId} className="field-error" role="alert">
      <ErrorLines messages={field.errors.map((key) => t(key, params))} />
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
