import { parseNumberInput } from "@core/schema/number";
import type { JsonSchema } from "@core/schema/normalize";
import { fieldKind, type FieldKind } from "./field-kind";
import { isPlainObject } from "@core/plain-object";

/*
 * What each field kind does with values, in one table: how form strings become
 * the document's value, what a new document starts with, what 'Velden
 * leegmaken' writes, and what an empty row in the middle of a list holds. The
 * component that renders a kind is in app/components/form/registry.tsx, whose
 * type likewise forces an entry per kind.
 */
export interface KindBehaviour {
  /** Form strings → the value the schema describes; undefined leaves it out (so `required` reports it). */
  coerce: (value: unknown, schema: JsonSchema) => unknown;
  /** A new document's value (spec §3, §5), or undefined for none; `required`: its object lists it in `required`. */
  initial: (schema: JsonSchema, required: boolean) => unknown;
  /** What clearing an object writes: a string for every control (Conform rewrites only strings), no list rows. */
  cleared: (schema: JsonSchema) => unknown;
  /** An empty row before a filled one keeps its place, so every row keeps its index and its errors. */
  emptyItem: unknown;
}

const propertiesOf = (schema: JsonSchema) => (isPlainObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {});
const itemsOf = (schema: JsonSchema): JsonSchema => (isPlainObject(schema.items) ? schema.items : {});
const requiredOf = (schema: JsonSchema) =>
  Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
const isEmpty = (value: unknown) => value === undefined || value === null || value === "";

/** A kind whose empty input is no value. */
const unlessEmpty = (coerce: (value: unknown, schema: JsonSchema) => unknown) => (value: unknown, schema: JsonSchema) =>
  isEmpty(value) ? undefined : coerce(value, schema);

const text: KindBehaviour = {
  coerce: unlessEmpty((value) => value),
  initial: () => undefined,
  cleared: () => "",
  emptyItem: "",
};

const withInitial = (initial: unknown, coerce = text.coerce): KindBehaviour => ({ ...text, coerce, initial: () => initial });

const numeric = (type: "number" | "integer"): KindBehaviour => ({
  ...text,
  // Unreadable input is kept as typed, so validation reports it under its field.
  coerce: unlessEmpty((value) => {
    if (typeof value !== "string") return value;
    const parsed = parseNumberInput(value, type);
    return parsed.kind === "value" ? parsed.value : parsed.kind === "empty" ? undefined : value;
  }),
});

/**
 * A select posts its option's text; the value is the enum member that text names: 2, not "2", in a number or
 * integer enum (spec §3). Text no member names is kept as sent, so validation reports it.
 */
const choice: KindBehaviour = {
  ...text,
  coerce: unlessEmpty((value, schema) => {
    const members: unknown[] = Array.isArray(schema.enum) ? schema.enum : [];
    if (typeof value !== "string" || members.includes(value)) return value;
    const named = members.find((member) => ["number", "boolean"].includes(typeof member) && String(member) === value);
    return named ?? value;
  }),
};

const list = (emptyRows: number): KindBehaviour => ({
  coerce: unlessEmpty((value, schema) => {
    const items = itemsOf(schema);
    const coerced = (Array.isArray(value) ? value : [value]).map((item) => coerceFormValue(item, items));
    // Empty rows at the end are the form's spare rows, not items.
    // A row of fields nobody touched is empty too, whatever its switches show; a row before a filled one keeps its values.
    const spare = (item: unknown) => item === undefined || (isContainer(items) && untouched(item, items, initialValue(items)));
    let end = coerced.length;
    while (end > 0 && spare(coerced[end - 1])) end--;
    return coerced.slice(0, end).map((item) => (item === undefined ? behaviourOf(items).emptyItem : item));
  }),
  initial(schema) {
    const rows =
      typeof schema.fixedItems === "number" ? schema.fixedItems : typeof schema.minItems === "number" ? schema.minItems : emptyRows;
    return Array.from({ length: rows }, () => initialValue(itemsOf(schema)) ?? "");
  },
  cleared: () => [],
  emptyItem: "",
});

const container = (extra: (value: Record<string, unknown>) => Record<string, unknown> = () => ({})): KindBehaviour => ({
  coerce: unlessEmpty((value, schema) => {
    if (!isPlainObject(value)) return value;
    const properties = propertiesOf(schema);
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(value)) {
      const coerced = properties[name] ? coerceFormValue(child, properties[name]) : child;
      if (coerced !== undefined) out[name] = coerced;
    }
    // An unchecked switch sends nothing; it still means false (the form showed 'Inactief').
    for (const [name, child] of Object.entries(properties)) {
      if (!(name in out) && fieldKind(child) === "boolean") out[name] = false;
    }
    Object.assign(out, extra(value));
    return Object.keys(out).length ? out : undefined;
  }),
  initial(schema) {
    const out: Record<string, unknown> = {};
    const required = requiredOf(schema);
    for (const [name, child] of Object.entries(propertiesOf(schema))) {
      const value = initialValue(child, required.includes(name));
      if (value !== undefined) out[name] = value;
    }
    return out;
  },
  cleared: (schema) => Object.fromEntries(Object.entries(propertiesOf(schema)).map(([name, child]) => [name, clearedValue(child)])),
  emptyItem: {},
});

const checked = (value: unknown) => value === "on" || value === "true" || value === true;

export const KIND_BEHAVIOUR: Record<FieldKind, KindBehaviour> = {
  text,
  textarea: text,
  number: numeric("number"),
  integer: numeric("integer"),
  boolean: { ...text, coerce: checked, initial: () => false },
  date: text,
  time: withInitial(
    "00:00:00",
    unlessEmpty((value) => (typeof value === "string" && /^\d\d:\d\d$/.test(value) ? `${value}:00` : value)),
  ),
  // The picker starts at #000000 (spec §3), but only a required colour is set before anyone picks one.
  color: { ...text, initial: (_schema, required) => (required ? "#000000" : undefined) },
  enum: choice,
  enumData: text,
  reference: text,
  popup: text,
  inline: text,
  image: text,
  video: text,
  file: text,
  // Chips: no spare row (an empty chip is nothing to show); a new tag is typed into the chip input.
  tags: { ...list(0), initial: () => [] },
  array: list(1),
  texts: list(1),
  referenceList: list(0),
  videoCases: list(0),
  trendSelect: text,
  trendList: list(0),
  object: container(),
  translateObject: container(),
  disableable: container((value) => ({ disabled: checked(value.disabled) })),
};

/** A property of no known kind keeps its value as sent; validation reports it. */
const UNKNOWN: KindBehaviour = { ...text, coerce: unlessEmpty((value) => value) };

export function behaviourOf(schema: JsonSchema): KindBehaviour {
  const kind = fieldKind(schema);
  return kind ? KIND_BEHAVIOUR[kind] : UNKNOWN;
}

/**
 * Form fields arrive as strings (Conform's payload); this turns them into the
 * document the schema describes: numbers, booleans, lists, nested objects.
 */
export const coerceFormValue = (value: unknown, schema: JsonSchema): unknown => behaviourOf(schema).coerce(value, schema);

/**
 * The starting value of a new document (and of a new row): the property's `default` where it has one (the bucket
 * admin checked it against the property), else its kind's: lists start with minItems rows (fixedItems overrides),
 * time 00:00:00, a required colour #000000, a switch false, an object its properties' starting values.
 */
export const initialValue = (schema: JsonSchema, required = false): unknown =>
  schema.default !== undefined ? structuredClone(schema.default) : behaviourOf(schema).initial(schema, required);

/** Whether a coerced value holds nothing the user entered (see untouched): a new inline sub-form left so creates nothing. */
export const isUntouched = (value: unknown, schema: JsonSchema): boolean => untouched(value, schema, initialValue(schema));

const CONTAINERS: ReadonlySet<FieldKind | null> = new Set(["object", "translateObject", "disableable"]);
const isContainer = (schema: JsonSchema) => CONTAINERS.has(fieldKind(schema));

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameValue(a[key], b[key]));
  }
  return false;
}

/**
 * Whether a coerced value holds nothing the user entered: no value, its starting value (`initial`), an empty list,
 * or an object whose every value is untouched (a switch still at false, a time still 00:00:00 …).
 */
function untouched(value: unknown, schema: JsonSchema, initial: unknown): boolean {
  if (value === undefined || sameValue(value, initial)) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (!isPlainObject(value) || !isContainer(schema)) return false;
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  return Object.entries(value).every(([name, child]) => {
    const property = properties[name];
    if (!property) return false;
    const expected = isPlainObject(initial) && name in initial ? initial[name] : initialValue(property, required.includes(name));
    return untouched(child, property, expected);
  });
}

/** What 'Velden leegmaken' writes into an object, down to the deepest field. */
export const clearedValue = (schema: JsonSchema): unknown => behaviourOf(schema).cleared(schema);

/**
 * A stored document as the form's starting value: a value whose shape its field cannot hold (a text where the schema
 * now has a list, a list or an object where it has a text or a number) is left out, so the page still renders after
 * a schema change; the document's errors (core/form/resolve.ts storedDocumentErrors) say what is missing.
 */
export function storedFormValue(value: unknown, schema: JsonSchema, depth = 0): unknown {
  if (value === undefined || value === null || depth > 64) return value;
  const listField = schema.type === "array" || schema.items !== undefined;
  const objectField = schema.type === "object" || schema.properties !== undefined;
  if (listField) return Array.isArray(value) ? value.map((item) => storedFormValue(item, itemsOf(schema), depth + 1)) : undefined;
  if (objectField) {
    if (!isPlainObject(value)) return undefined;
    const properties = propertiesOf(schema);
    const out: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(value)) {
      const fitted = properties[name] ? storedFormValue(child, properties[name], depth + 1) : child;
      if (fitted !== undefined) out[name] = fitted;
    }
    return out;
  }
  // A field of one value (text, number, switch, reference …), or a schema that says nothing (any value is kept).
  const said = schema.type !== undefined || fieldKind(schema) !== null;
  return said && typeof value === "object" ? undefined : value;
}
