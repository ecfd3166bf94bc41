import type { JsonSchema } from "@core/schema/normalize";
import { schemaAtName } from "@core/schema/walk";
import { fieldKind } from "./field-kind";

/**
 * The tag list's chips without JavaScript: the typed tag is a text input named
 * `tagDraftName(list)`, '+ New Tag' a submit button named TAG_ADD_FIELD whose
 * value is the list's name. The action turns a typed tag into a new entry of
 * its list (every post: a tag typed and then saved is kept), and the button
 * into Conform's update intent, so the form re-renders with the new chip and
 * nothing is saved. With JavaScript the input has no name and Enter, a comma
 * or the button add the chip in the browser.
 */
export const TAG_ADD_FIELD = "__newTag";
const TAG_DRAFT_PREFIX = "__tagDraft.";
const INTENT_FIELD = "__intent__";

export const tagDraftName = (list: string) => `${TAG_DRAFT_PREFIX}${list}`;

/** The tags in a typed text: split at commas, trimmed, empty ones dropped. */
export function tagsFromText(text: string): string[] {
  return text
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}

/** The entries `list[0]`, `list[1]` … of the post: the next free index. */
function nextIndex(formData: FormData, list: string): number {
  let next = 0;
  const prefix = `${list}[`;
  for (const key of formData.keys()) {
    if (!key.startsWith(prefix)) continue;
    const index = /^(\d+)\]$/.exec(key.slice(prefix.length));
    if (index) next = Math.max(next, Number(index[1]) + 1);
  }
  return next;
}

const isTagList = (schema: JsonSchema, name: string) => {
  const field = schemaAtName(schema, name);
  return field !== null && fieldKind(field) === "tags";
};

/** Rewrites the typed tags and a '+ New Tag' press in `formData`; anything that names no tag list is dropped. */
export function applyTagIntent(formData: FormData, schema: JsonSchema): void {
  const drafts = [...formData.keys()].filter((key) => key.startsWith(TAG_DRAFT_PREFIX));
  const pressed = formData.get(TAG_ADD_FIELD);
  formData.delete(TAG_ADD_FIELD);
  for (const key of new Set(drafts)) {
    const texts = formData.getAll(key);
    formData.delete(key);
    const list = key.slice(TAG_DRAFT_PREFIX.length);
    if (!isTagList(schema, list)) continue;
    for (const text of texts) {
      if (typeof text !== "string") continue;
      for (const tag of tagsFromText(text)) {
        formData.append(`${list}[${nextIndex(formData, list)}]`, tag);
      }
    }
  }
  if (typeof pressed !== "string" || formData.has(INTENT_FIELD) || !isTagList(schema, pressed)) return;
  // The button re-renders instead of saving, with its new tag (or none when nothing was typed): an update intent
  // without a value, which Conform answers with the form as posted.
  formData.set(INTENT_FIELD, JSON.stringify({ type: "update", payload: { name: pressed } }));
}
