import { acceptNumberInput, defaultStep, stepValue } from "@core/schema/number";
import type { JsonSchema } from "@core/schema/normalize";
import { schemaAtName } from "@core/schema/walk";
import { isPlainObject } from "@core/plain-object";
import { fieldKind } from "./field-kind";

/**
 * The plus and minus buttons of a number field without JavaScript: a submit
 * button named STEP_FIELD whose value is `{name, direction}`. The action turns
 * it into Conform's update intent from the value the user typed (the button
 * cannot know it when the page renders). With JavaScript the buttons are
 * update intents computed on every render.
 */
export const STEP_FIELD = "__step";
const INTENT_FIELD = "__intent__";

export function stepButtonValue(name: string, direction: 1 | -1): string {
  return JSON.stringify({ name, direction });
}

/** Rewrites a STEP_FIELD press in `formData` into an update intent; anything malformed is dropped. */
export function applyStepIntent(formData: FormData, schema: JsonSchema): void {
  const raw = formData.get(STEP_FIELD);
  if (raw === null) return;
  formData.delete(STEP_FIELD);
  if (typeof raw !== "string") return;
  let request: unknown;
  try {
    request = JSON.parse(raw);
  } catch {
    return;
  }
  if (!isPlainObject(request) || typeof request.name !== "string" || (request.direction !== 1 && request.direction !== -1)) return;
  const field = schemaAtName(schema, request.name);
  const kind = field ? fieldKind(field) : null;
  if (!field || (kind !== "number" && kind !== "integer")) return;
  const step = typeof field.step === "number" && field.step > 0 ? field.step : defaultStep(kind);
  const typed = formData.get(request.name);
  const current = acceptNumberInput(typeof typed === "string" ? typed : "", kind, undefined);
  const value = String(stepValue(current, step, request.direction));
  formData.set(INTENT_FIELD, JSON.stringify({ type: "update", payload: { name: request.name, value } }));
}
