import { useRef, useState, type DragEvent } from "react";

/**
 * A multiple file input inside a drop area: without JavaScript the input alone (its own button); with it, files
 * dropped anywhere on the area become the input's files, so the form posts them as if chosen.
 */
export function FileDrop({ id, name, label, hint }: { id: string; name: string; label: string; hint: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [count, setCount] = useState(0);
  const hold = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    setOver(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!input.current || !event.dataTransfer.files.length) return;
    input.current.files = event.dataTransfer.files;
    setCount(event.dataTransfer.files.length);
  };
  return (
    <div
      className={over ? "field file-drop over" : "field file-drop"}
      onDragOver={hold}
      onDragEnter={hold}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-files={count || undefined}
    >
      <label htmlFor={id}>{label}</label>
      <p className="field-hint" id={`${id}-hint`}>
        {hint}
      </p>
      <input
        ref={input}
        id={id}
        type="file"
        name={name}
        multiple
        required
        aria-describedby={`${id}-hint`}
        onChange={(event) => setCount(event.currentTarget.files?.length ?? 0)}
      />
    </div>
  );
}
