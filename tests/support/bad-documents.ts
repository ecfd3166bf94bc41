import { decode } from "./fixtures";

/*
 * The same bad input, written the way each save path receives it: a JSON body for
 * POST /api/v1/buckets/{slug}/save, a urlencoded edit form post, and the bucket-form modal's inputs (the
 * browser test fills or injects them). The page, the modal and the API must show the same messages under the
 * same field names (tests/integration/same-errors.test.ts, tests/e2e/modal-errors.test.ts).
 */

export const BAD_INPUT_SCHEMA = {
  type: "object",
  required: ["name"],
  properties: { name: { type: "string", title: "Name" }, year: { type: "integer", title: "Year" } },
};
/** The fields the form renders (an error of any other name shows above the fields). */
export const RENDERED_FIELDS = ["name", "year"];

const LONG = "x".repeat(70_000);

export interface BadDocument {
  label: string;
  /** The JSON API's body, as sent. */
  json: string;
  /** The edit form's urlencoded body, as sent. */
  form: string;
  /** Values typed into the modal's inputs, and inputs a tampered page adds to its form. */
  modal: { fill: Record<string, string>; inject: Record<string, string> };
}

export const BAD_DOCUMENTS: BadDocument[] = [
  { label: "a required field missing", json: `{"content":{}}`, form: "name=", modal: { fill: {}, inject: {} } },
  {
    label: "a wrong type",
    json: `{"content":{"name":"A","year":"nineteen"}}`,
    form: "name=A&year=nineteen",
    modal: { fill: { name: "A", year: "nineteen" }, inject: {} },
  },
  { label: "a too long text", json: `{"content":{"name":"${LONG}"}}`, form: `name=${LONG}`, modal: { fill: { name: LONG }, inject: {} } },
  {
    label: "a prototype key",
    json: `{"content":{"name":"A","constructor":{"prototype":{"polluted":true}}}}`,
    form: "name=A&constructor.prototype.polluted=1",
    modal: { fill: { name: "A" }, inject: { "constructor.prototype.polluted": "1" } },
  },
  {
    label: "an unknown property",
    json: `{"content":{"name":"A","colour":"red"}}`,
    form: "name=A&colour=red",
    modal: { fill: { name: "A" }, inject: { colour: "red" } },
  },
];

/**
 * The JSON API's errors as a form shows them: under each rendered field, the
 * others above the fields ("form"), messages joined by a space.
 */
export function shownLikeAForm(errors: Record<string, string[]>): Record<string, string> {
  const shown: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(errors)) (shown[RENDERED_FIELDS.includes(name) ? name : "form"] ??= []).push(...messages);
  return Object.fromEntries(Object.entries(shown).map(([name, messages]) => [name, messages.join(" ")]));
}

/** The errors the re-rendered form shows: under each field, and the form's own above the fields ("form"). */
export function pageErrors(html: string): Record<string, string> {
  const form = /<form[^>]*class="bucket-form"[^>]*>([\s\S]*?)<\/form>/.exec(html)![1]!;
  const shown: Record<string, string> = {};
  const formLevel = /<p class="form-error" role="alert">([^<]*)<\/p>/.exec(form);
  if (formLevel) shown.form = decode(formLevel[1]!);
  for (const field of RENDERED_FIELDS) {
    const box =
      new RegExp(
        `<div class="field" data-field="${field}"[^>]*>([\\s\\S]*?)</div>\\s*(?=<div class="field"|<div class="form-actions")`,
      ).exec(form)?.[1] ?? "";
    const error = /<p [^>]*class="field-error" role="alert">([^<]*)<\/p>/.exec(box);
    if (error) shown[field] = decode(error[1]!);
  }
  return shown;
}
