import { parse } from "@conform-to/react";
import type { ValidateFunction } from "ajv";
import { FIELD_KINDS, type FieldKind } from "@core/form/field-kind";
import { initialValue } from "@core/form/kinds";
import { resolveDocument } from "@core/form/resolve";
import type { Locale } from "@core/locales";
import type { JsonSchema } from "@core/schema/normalize";
import { createI18n } from "~/lib/i18n";
import { fieldFixtures, FIXTURE_LOCALES, type FieldFixture } from "./field-fixtures";
import type { FieldSpecimen } from "./field-specimen";

/** How a bucket's schema is normalised and compiled (server/content/validator.ts: compileBucketSchema). */
export type CompileBucketSchema = (bucket: { jsonSchema: unknown; locales: readonly string[] }) => {
  schema: JsonSchema;
  problems: string[];
  validate: ValidateFunction | null;
};

/** A document as its form posts it: Conform's field names (a.b[0].c), strings, a checked box as "on". */
export function toFormData(document: Record<string, unknown>): FormData {
  const formData = new FormData();
  const add = (name: string, value: unknown) => {
    if (Array.isArray(value)) value.forEach((item, index) => add(`${name}[${index}]`, item));
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) add(name ? `${name}.${key}` : key, child);
    } else if (value === true) formData.append(name, "on");
    else if (typeof value === "string" || typeof value === "number") formData.append(name, String(value));
  };
  add("", document);
  return formData;
}

function specimenOf(kind: FieldKind, fixture: FieldFixture, locale: Locale, compile: CompileBucketSchema): FieldSpecimen {
  const companions = Object.entries(fixture.companions ?? {});
  const jsonSchema = {
    type: "object",
    properties: { ...Object.fromEntries(companions.map(([name, { property }]) => [name, property])), [kind]: fixture.property },
    required: fixture.required ? [kind] : [],
  };
  const compiled = compile({ jsonSchema, locales: FIXTURE_LOCALES });
  if (compiled.problems.length) throw new Error(`Style guide sample of ${kind}: ${compiled.problems.join("; ")}`);
  const around = Object.fromEntries(companions.map(([name, { value }]) => [name, value]));
  // The same path as an edit page's action: the posted form, Conform's parse, the document resolver, its reply.
  const invalid = { ...around, [kind]: fixture.invalid };
  const submission = parse(toFormData(invalid), {
    resolve: (payload) => resolveDocument(payload, compiled.schema, compiled.validate, locale),
  });
  const errorResult = submission.reply();
  const ownErrors = Object.keys(errorResult.error ?? {}).filter(
    (name) => name === kind || name.startsWith(`${kind}.`) || name.startsWith(`${kind}[`),
  );
  if (!ownErrors.length) {
    throw new Error(`Style guide sample of ${kind}: the invalid value passed validation`);
  }
  return {
    kind,
    schema: compiled.schema,
    empty: { ...(initialValue(compiled.schema) as Record<string, unknown>), ...around },
    filled: { ...around, [kind]: fixture.filled },
    invalid,
    errorResult,
  };
}

const specimensByLocale = new Map<Locale, FieldSpecimen[]>();

/** Every field kind's sample in the locale's wording, with the validator's messages in that locale. */
export function fieldSpecimens(locale: Locale, compile: CompileBucketSchema): FieldSpecimen[] {
  let specimens = specimensByLocale.get(locale);
  if (!specimens) {
    const fixtures = fieldFixtures(createI18n(locale).t);
    specimens = FIELD_KINDS.map((kind) => specimenOf(kind, fixtures[kind], locale, compile));
    specimensByLocale.set(locale, specimens);
  }
  return specimens;
}
