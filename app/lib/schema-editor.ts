import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { bracketMatching, defaultHighlightStyle, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { EditorSelection, EditorState } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";

/*
 * The schema editor (CodeMirror 6): JSON highlighting, bracket matching, folding, line numbers. Loaded only by the
 * bucket admin page, with a dynamic import, so no other page ships it. It enhances the page's textarea, which stays
 * the field the form posts: every change is written back into it. Tab is left to move the focus (no keyboard trap).
 */

export interface SchemaEditorHandle {
  destroy(): void;
  /** Puts the cursor at a line and column (from 1) and focuses the editor. */
  goTo(line: number, column: number): void;
}

export function enhanceTextarea(
  textarea: HTMLTextAreaElement,
  options: { labelledBy: string; describedBy?: string; onChange(text: string): void },
): SchemaEditorHandle {
  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        foldGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        highlightActiveLine(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        json(),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...foldKeymap]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({
          "aria-labelledby": options.labelledBy,
          ...(options.describedBy ? { "aria-describedby": options.describedBy } : {}),
          "aria-multiline": "true",
          // Focusable in the tab order by its own attribute, so the scroller around it counts as keyboard-reachable.
          tabindex: "0",
        }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          const text = update.state.doc.toString();
          textarea.value = text;
          options.onChange(text);
        }),
      ],
    }),
  });
  textarea.hidden = true;
  textarea.after(view.dom);
  view.dom.classList.add("schema-editor-cm");
  return {
    destroy() {
      view.destroy();
      textarea.hidden = false;
    },
    goTo(line, column) {
      const doc = view.state.doc;
      const target = doc.line(Math.min(Math.max(line, 1), doc.lines));
      const position = Math.min(target.from + Math.max(column - 1, 0), target.to);
      view.dispatch({ selection: EditorSelection.cursor(position), scrollIntoView: true });
      view.focus();
    },
  };
}
