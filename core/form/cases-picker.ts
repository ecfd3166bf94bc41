import { CASE_SEARCH_MAX } from "@core/content/cases";
import type { JsonSchema } from "@core/schema/normalize";
import { schemaAtName } from "@core/schema/walk";
import { fieldKind } from "./field-kind";
import { postedRows } from "./posted-rows";

/*
 * The video-cases picker without JavaScript: the add card, the picker's search and its 'Add selected' and 'Close'
 * buttons are submit buttons of the edit form. The action turns them into Conform intents (as core/form/step.ts does
 * for the number steps), so the page re-renders with every input kept and, while it is open, the picker as a section
 * of checkable clip cards (app/components/clip-cards/picker-section.tsx). With JavaScript the add card opens a modal.
 */

/** Opens the picker of the field it names (its value), or searches in it. */
export const CASES_OPEN_FIELD = "__cases_open";
/** Adds the checked cases (CASES_PICK_FIELD) to the field it names and closes the picker. */
export const CASES_ADD_FIELD = "__cases_add";
/** Closes the picker of the field it names. */
export const CASES_CLOSE_FIELD = "__cases_close";
/** A checkable clip card of the picker: its value is the case's contentId. */
export const CASES_PICK_FIELD = "__cases_pick";
/** The picker's search box. */
export const CASES_SEARCH_FIELD = "__cases_search";

const INTENT_FIELD = "__intent__";
const CASE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The open picker of a re-rendered page: which field, and what was searched. */
export interface CasesPickerState {
  name: string;
  search: string;
}

function take(formData: FormData, name: string): string[] {
  const values = formData.getAll(name).filter((value): value is string => typeof value === "string");
  formData.delete(name);
  return values;
}

/**
 * Rewrites a press of the picker's buttons into a Conform update intent (the form re-renders, nothing is saved);
 * answers the picker to show, or null. The picker's own fields never reach validation. A button naming anything but
 * a video-cases field is dropped (the post then saves as usual).
 */
export function applyCasesPickerIntent(formData: FormData, schema: JsonSchema): CasesPickerState | null {
  const [open] = take(formData, CASES_OPEN_FIELD);
  const [add] = take(formData, CASES_ADD_FIELD);
  const [close] = take(formData, CASES_CLOSE_FIELD);
  const picks = take(formData, CASES_PICK_FIELD);
  const search = (take(formData, CASES_SEARCH_FIELD)[0] ?? "").slice(0, CASE_SEARCH_MAX);
  const name = add ?? open ?? close;
  if (name === undefined || formData.has(INTENT_FIELD)) return null;
  const field = schemaAtName(schema, name);
  if (!field || fieldKind(field) !== "videoCases") return null;
  if (add !== undefined) {
    const chosen = postedRows(formData, name)
      .sort((a, b) => a[0] - b[0])
      .map(([, value]) => value);
    const added = [...new Set(picks.map((id) => id.toLowerCase()).filter((id) => CASE_ID.test(id) && !chosen.includes(id)))];
    formData.set(INTENT_FIELD, JSON.stringify({ type: "update", payload: { name, value: [...chosen, ...added] } }));
    return null;
  }
  // An update without a value changes nothing: the form comes back as it was.
  formData.set(INTENT_FIELD, JSON.stringify({ type: "update", payload: { name } }));
  return open !== undefined ? { name, search } : null;
}
