import type { JsonSchema } from "@core/schema/normalize";
import { applyCasesPickerIntent, type CasesPickerState } from "./cases-picker";
import { applyStepIntent } from "./step";
import { applyTagIntent } from "./tags";
import { applyTrendAdd } from "./trend-add";

/*
 * The no-JavaScript buttons of field kinds, in one table the save pipeline reads (server/content/save-form.ts): each
 * rewrites a form post before it is parsed, so that the form re-renders with the change, or saves it. A field kind
 * (or a specialised screen's field) with such a button adds its function here; the pipeline imports none of them.
 */

/** What an intent hands the re-rendered form besides the post it rewrote. */
export interface IntentEffects {
  /** The video-cases picker to show (core/form/cases-picker.ts). */
  casesPicker?: CasesPickerState | null;
}

type FormIntent = (formData: FormData, schema: JsonSchema) => IntentEffects;

/** An intent that only rewrites the post. */
const rewrites =
  (apply: (formData: FormData, schema: JsonSchema) => void): FormIntent =>
  (formData, schema) => {
    apply(formData, schema);
    return {};
  };

const FORM_INTENTS: ReadonlyArray<{ owner: string; apply: FormIntent }> = [
  { owner: "number and integer fields: the step buttons", apply: rewrites(applyStepIntent) },
  { owner: "tags: '+ New Tag'", apply: rewrites(applyTagIntent) },
  { owner: "video cases: the picker", apply: (formData, schema) => ({ casesPicker: applyCasesPickerIntent(formData, schema) }) },
  { owner: "trend list: 'Add a related trend'", apply: rewrites(applyTrendAdd) },
];

/** Runs every intent on the post, in table order, and gathers their effects. */
export function applyFormIntents(formData: FormData, schema: JsonSchema): IntentEffects {
  const effects: IntentEffects = {};
  for (const intent of FORM_INTENTS) Object.assign(effects, intent.apply(formData, schema));
  return effects;
}
