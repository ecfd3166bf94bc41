import type { JsonSchema } from "@core/schema/normalize";
import { schemaAtName } from "@core/schema/walk";
import { fieldKind } from "./field-kind";
import { postedRows } from "./posted-rows";

/*
 * The related trends' 'Add a related trend' select without JavaScript (app/components/clip-cards/trend-list.tsx):
 * named after its list (`__trend_add:related`), its chosen trend joins the end of the list before the post is read
 * (a Save saves it, the 'Add' button, Conform's validate intent, shows it in the list). Left on 'Pick an option' it
 * adds nothing; being one of the form's own entries (`__…`), it is no change the unsaved-changes guard counts.
 */

export const TREND_ADD_PREFIX = "__trend_add:";

const TREND_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Moves each add select's trend to the end of its list; selects of anything but a trend list are dropped. */
export function applyTrendAdd(formData: FormData, schema: JsonSchema): void {
  const names = [...new Set([...formData.keys()].filter((key) => key.startsWith(TREND_ADD_PREFIX)))];
  for (const key of names) {
    const [value] = formData.getAll(key).filter((entry): entry is string => typeof entry === "string");
    formData.delete(key);
    const name = key.slice(TREND_ADD_PREFIX.length);
    const field = name ? schemaAtName(schema, name) : null;
    if (!field || fieldKind(field) !== "trendList" || !value || !TREND_ID.test(value)) continue;
    const rows = postedRows(formData, name);
    if (rows.some(([, chosen]) => chosen.toLowerCase() === value.toLowerCase())) continue;
    formData.append(`${name}[${rows.reduce((last, [index]) => Math.max(last, index + 1), 0)}]`, value.toLowerCase());
  }
}
