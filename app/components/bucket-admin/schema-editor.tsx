import { useEffect, useRef } from "react";
import type { SchemaEditorHandle } from "~/lib/schema-editor";

export interface SchemaEditorProps {
  id: string;
  name: string;
  defaultValue: string;
  labelId: string;
  describedBy?: string;
  invalid: boolean;
  /** Each change, as the admin types (with JavaScript). */
  onText(text: string): void;
  /** Receives the editor once it runs (to jump to an error), null when it goes. */
  onReady?(handle: SchemaEditorHandle | null): void;
}

/**
 * The schema's textarea, which the form posts. With JavaScript it is enhanced by CodeMirror, loaded with a dynamic
 * import on this page only (app/lib/schema-editor.ts); without it, it is a plain monospace textarea.
 */
export function SchemaEditor(props: SchemaEditorProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  useEffect(() => {
    const element = textarea.current;
    if (!element) return;
    let handle: SchemaEditorHandle | null = null;
    let gone = false;
    void import("~/lib/schema-editor").then(({ enhanceTextarea }) => {
      if (gone) return;
      handle = enhanceTextarea(element, {
        labelledBy: latest.current.labelId,
        describedBy: latest.current.describedBy,
        onChange: (text) => latest.current.onText(text),
      });
      latest.current.onReady?.(handle);
    });
    return () => {
      gone = true;
      handle?.destroy();
      latest.current.onReady?.(null);
    };
  }, []);
  return (
    <textarea
      ref={textarea}
      id={props.id}
      name={props.name}
      defaultValue={props.defaultValue}
      className="schema-textarea"
      rows={24}
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      aria-labelledby={props.labelId}
      aria-describedby={props.describedBy}
      aria-invalid={props.invalid || undefined}
      onChange={(event) => props.onText(event.target.value)}
    />
  );
}
