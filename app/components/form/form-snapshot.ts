import { SUBFORM_FIELD } from "@core/form/field-kind";

/** The form's own entries (`__contentId`, Conform's intent and state, pending uploads …), not the editor's input. */
function ownEntry(name: string): boolean {
  if (!name.startsWith("__")) return false;
  // An inline sub-form's fields (`__subforms.room.name`) are the editor's; its `__contentId` and base version are not.
  if (name.startsWith(`${SUBFORM_FIELD}.`)) return /\.__[^.]*$/.test(name);
  return true;
}

/**
 * The form's state as a string to compare: every entry but the form's own (`__contentId`, Conform's intent and
 * state, pending uploads …, all named `__…`), an inline sub-form's fields included (`__subforms.room.name`, but
 * not its own `__contentId` and base version); a chosen file by its name and size.
 */
export function formSnapshot(form: HTMLFormElement): string {
  const entries: string[] = [];
  for (const [name, value] of new FormData(form)) {
    if (ownEntry(name)) continue;
    entries.push(`${name}=${typeof value === "string" ? value : `file:${value.name}:${value.size}`}`);
  }
  return JSON.stringify(entries);
}
