/** A file input of an upload form, with its label and the hint under it (the hint describes the input). */
export function FileField({
  id,
  name,
  label,
  accept,
  hint,
  required = false,
}: {
  id: string;
  name: string;
  label: string;
  accept: string;
  hint: string;
  required?: boolean;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="file" name={name} accept={accept} required={required} aria-describedby={`${id}-hint`} />
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
    </>
  );
}
