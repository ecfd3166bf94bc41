import type { Message, MessageKey, MessageParams } from "@core/messages";
import { isPlainObject } from "@core/plain-object";
import { fieldKind, mediaKindOfSchema, MEDIA_REFS, SUBFORM_FIELD } from "@core/form/field-kind";
import { parseDimension } from "@core/media/dimension";
import { compileSchema, DIALECT_KEYWORDS } from "./ajv";
import { defaultProblems } from "./defaults";
import { normalizeSchema, TRANSLATE_OBJECT_RENDERER } from "./normalize";
import { MAX_SCHEMA_NESTING, nestsDeeperThan } from "./nesting";
import { REF_TARGETS, refMessages, type Refs } from "./refs";
import { TREND_SELECT_RENDERER, VIDEO_CASES_RENDERER } from "@core/content/renderers";

/*
 * The strict check of a bucket schema before an admin saves it (docs/schema-dialect.md), shared by the server (the
 * check that counts) and the schema editor (live, as the admin types). Everything the form engine would ignore,
 * misread or fail on is refused with a message naming the property path (`properties.rooms.items.properties.photo`):
 * unknown keywords, keywords the engine does not render (oneOf, $ref …), unknown renderers, formats and media kinds,
 * references to collections that do not exist, bad media bounds, the normalisation errors, and whatever AJV itself
 * refuses to compile.
 */
/* eslint-disable max-lines -- Over 300 lines on purpose: the dialect is one table of keywords and one walk over a
   schema, read together when a keyword is added (a split would scatter the table from the checks that use it). */

/** Validation keywords whose value is a number (or a `$data` reference to one). */
const NUMBER_KEYWORDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
];
/** Draft-7 keywords the engine validates and renders. */
const VALIDATION_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "items",
  "additionalProperties",
  "enum",
  "const",
  "format",
  ...NUMBER_KEYWORDS,
  "pattern",
  "uniqueItems",
  "isNotEmpty",
]);
const ANNOTATION_KEYWORDS = new Set(["title", "description", "default", "examples", "$comment", "readOnly", "writeOnly"]);
const ROOT_ONLY_KEYWORDS = new Set(["$schema", "$id"]);
/** Keywords the form engine does not render: refused rather than accepted and silently ignored. */
export const UNRENDERED_KEYWORDS = new Set([
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "definitions",
  "$defs",
  "patternProperties",
  "dependencies",
  "dependentSchemas",
  "dependentRequired",
  "propertyNames",
  "additionalItems",
  "contains",
  "minContains",
  "maxContains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "contentMediaType",
  "contentEncoding",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
]);
const DIALECT = new Set<string>(DIALECT_KEYWORDS);

export const SCHEMA_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;
/** Renderer names a schema may use (docs/schema-dialect.md). */
export const RENDERER_NAMES = [
  "textarea",
  "tags",
  "texts",
  TRANSLATE_OBJECT_RENDERER,
  "popup",
  "inline",
  VIDEO_CASES_RENDERER,
  TREND_SELECT_RENDERER,
] as const;
export const FORMAT_NAMES = ["date", "time", "color", "email", "uri"] as const;

const COUNT_KEYWORDS = new Set(["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "fixedItems"]);
const BOOLEAN_KEYWORDS = [
  "sortable",
  "fixed",
  "x-indent",
  "x-clearable",
  "x-collapsible",
  "x-disableable-bool",
  "isNotEmpty",
  "uniqueItems",
  "enableCrop",
  "forceCrop",
  "allowCustomStill",
  "translate",
];
const TEXT_KEYWORDS = [
  "title",
  "description",
  "note",
  "placeholder",
  "add-button",
  "title-key",
  "button-text",
  "enableButton",
  "disableButton",
  "key",
  "codec",
  "encoding",
  "resolution",
  "$comment",
];
const ORDERED_PAIRS: Array<[string, string]> = [
  ["minimum", "maximum"],
  ["minLength", "maxLength"],
  ["minItems", "maxItems"],
  ["minProperties", "maxProperties"],
];

const DIMENSIONS: Array<[string, "width" | "height"]> = [
  ["minWidth", "width"],
  ["maxWidth", "width"],
  ["minHeight", "height"],
  ["maxHeight", "height"],
  ["minWidthCrop", "width"],
  ["maxWidthCrop", "width"],
  ["minHeightCrop", "height"],
  ["maxHeightCrop", "height"],
];
const MEDIA_KEYWORDS = new Set([
  ...DIMENSIONS.map(([keyword]) => keyword),
  "allowedFiles",
  "minFilesize",
  "maxFilesize",
  "minFps",
  "maxFps",
  "codec",
  "encoding",
  "enableCrop",
  "forceCrop",
  "allowCustomStill",
  "resolution",
]);
const MEDIA_PAIRS: Array<[string, string]> = [
  ["minWidth", "maxWidth"],
  ["minHeight", "maxHeight"],
  ["minWidthCrop", "maxWidthCrop"],
  ["minHeightCrop", "maxHeightCrop"],
  ["minFps", "maxFps"],
  ["minFilesize", "maxFilesize"],
];
const HOSTILE_NAMES = new Set(["__proto__", "constructor", "prototype"]);
const MAX_DEPTH = 32;

export interface DialectOptions {
  /** The bucket's content locales (translated properties expand to them). */
  locales: readonly string[];
  /** Collection names a `_ref` may name; null: not known here, so not checked. */
  collections: readonly string[] | null;
  /**
   * Also compile the schema with AJV (default true). The browser passes false: AJV compiles to code with
   * `new Function`, which the page's Content Security Policy forbids; the server's check always compiles.
   */
  compile?: boolean;
  /**
   * Collections an inline sub-form cannot render, and why (their documents have media fields, or inline
   * sub-forms of their own); unknown here when absent (the browser), so not checked.
   */
  inlineRefused?: Readonly<Record<string, "media" | "nested">>;
}

type Problem = { key: MessageKey; params?: MessageParams };

/** A problem at a property path, as one message: "properties.rooms.items: …". */
function at(path: string, problem: Problem): Message {
  const where: Message | string = path === "" ? { key: "adminBuckets.dialect.rootPath" } : path;
  return { key: "adminBuckets.dialect.at", params: { path: where, problem } };
}

const isCollectionRef = (ref: unknown) => typeof ref === "string" && ref.trim() !== "" && !ref.startsWith("b-");

const isDataRef = (value: unknown) =>
  isPlainObject(value) && Object.keys(value).length === 1 && (typeof value.$data === "string" || typeof value._data === "string");

/** The problems of a schema node and everything below it. */
function checkNode(
  node: unknown,
  path: string,
  options: DialectOptions,
  state: { insideTranslate: boolean; depth: number; root: boolean; topProperty?: boolean },
  issues: Message[],
  refs: Refs,
): void {
  const add = (problem: Problem, where = path) => issues.push(at(where, problem));
  if (!isPlainObject(node)) {
    add({ key: "adminBuckets.dialect.notAnObject" });
    return;
  }
  if (state.depth > MAX_DEPTH) {
    add({ key: "adminBuckets.dialect.tooDeep", params: { limit: MAX_DEPTH } });
    return;
  }
  const media = mediaKindOfSchema(node);
  for (const [keyword, value] of Object.entries(node)) {
    // `$ref` and the root's definitions: one message for the whole schema, after the walk (refMessages).
    if (keyword === "$ref") {
      refs.refs.add(typeof value === "string" ? value : JSON.stringify(value));
      continue;
    }
    if (REF_TARGETS.has(keyword) && state.root) {
      refs.containers.push(keyword);
      continue;
    }
    if (UNRENDERED_KEYWORDS.has(keyword)) {
      add({ key: "adminBuckets.dialect.notRendered", params: { keyword } });
      continue;
    }
    if (ROOT_ONLY_KEYWORDS.has(keyword)) {
      if (!state.root) add({ key: "adminBuckets.dialect.rootOnly", params: { keyword } });
      continue;
    }
    if (!VALIDATION_KEYWORDS.has(keyword) && !ANNOTATION_KEYWORDS.has(keyword) && !DIALECT.has(keyword)) {
      add({ key: "adminBuckets.dialect.unknownKeyword", params: { keyword } });
      continue;
    }
    if (MEDIA_KEYWORDS.has(keyword) && !media) add({ key: "adminBuckets.dialect.mediaOnly", params: { keyword } });
    if (BOOLEAN_KEYWORDS.includes(keyword) && typeof value !== "boolean")
      add({ key: "adminBuckets.dialect.notBoolean", params: { keyword } });
    if (TEXT_KEYWORDS.includes(keyword) && typeof value !== "string") add({ key: "adminBuckets.dialect.notText", params: { keyword } });
    if (NUMBER_KEYWORDS.includes(keyword) && !isDataRef(value)) {
      if (typeof value !== "number" || !Number.isFinite(value)) add({ key: "adminBuckets.dialect.notNumber", params: { keyword } });
      else if (COUNT_KEYWORDS.has(keyword) && (!Number.isInteger(value) || value < 0))
        add({ key: "adminBuckets.dialect.notCount", params: { keyword } });
      else if (keyword === "multipleOf" && value <= 0) add({ key: "adminBuckets.dialect.notPositive", params: { keyword } });
    }
  }

  // type, format, renderer, _ref: the keywords that pick the field.
  if ("type" in node) {
    if (Array.isArray(node.type)) add({ key: "adminBuckets.dialect.typeList" });
    else if (!SCHEMA_TYPES.includes(node.type as (typeof SCHEMA_TYPES)[number]))
      add({ key: "adminBuckets.dialect.unknownType", params: { type: String(node.type), types: SCHEMA_TYPES.join(", ") } });
  }
  if ("format" in node && !FORMAT_NAMES.includes(node.format as (typeof FORMAT_NAMES)[number])) {
    add({ key: "adminBuckets.dialect.unknownFormat", params: { format: String(node.format), formats: FORMAT_NAMES.join(", ") } });
  }
  if ("renderer" in node && !RENDERER_NAMES.includes(node.renderer as (typeof RENDERER_NAMES)[number])) {
    add({ key: "adminBuckets.dialect.unknownRenderer", params: { renderer: String(node.renderer), renderers: RENDERER_NAMES.join(", ") } });
  }
  if ("_ref" in node) {
    const ref = node._ref;
    if (typeof ref !== "string" || ref.trim() === "") add({ key: "adminBuckets.dialect.notText", params: { keyword: "_ref" } });
    else if (ref.startsWith("b-")) {
      if (!Object.prototype.hasOwnProperty.call(MEDIA_REFS, ref))
        add({ key: "adminBuckets.dialect.unknownMediaKind", params: { ref, kinds: Object.keys(MEDIA_REFS).join(", ") } });
    } else if (options.collections && !options.collections.includes(ref)) {
      add({ key: "adminBuckets.dialect.unknownCollection", params: { ref } });
    }
  }
  if (node.renderer === "popup" && (typeof node._ref !== "string" || node._ref.startsWith("b-")))
    add({ key: "adminBuckets.dialect.popupNeedsRef" });
  if (fieldKind(node) === "inline") {
    if (!state.topProperty) add({ key: "adminBuckets.dialect.inlineTopLevel" });
    const refused =
      options.inlineRefused && typeof node._ref === "string" && Object.hasOwn(options.inlineRefused, node._ref)
        ? options.inlineRefused[node._ref]
        : undefined;
    if (refused)
      add({
        key: refused === "media" ? "adminBuckets.dialect.inlineMedia" : "adminBuckets.dialect.inlineNested",
        params: { collection: String(node._ref) },
      });
  }
  if ((node.renderer === "tags" || node.renderer === "texts") && node.type !== "array")
    add({ key: "adminBuckets.dialect.rendererNeedsArray", params: { renderer: node.renderer } });
  if (
    node.renderer === VIDEO_CASES_RENDERER &&
    (node.type !== "array" || !isPlainObject(node.items) || !isCollectionRef(node.items._ref))
  ) {
    add({ key: "cases.dialect.needsRefList", params: { renderer: VIDEO_CASES_RENDERER } });
  }
  // The trend select picks one trend (a `_ref` string) or several (a list whose items have the `_ref`), never both.
  if (node.renderer === TREND_SELECT_RENDERER) {
    if (node.type === "array") {
      if (!isPlainObject(node.items) || !isCollectionRef(node.items._ref) || "_ref" in node)
        add({ key: "cases.dialect.needsRefList", params: { renderer: TREND_SELECT_RENDERER } });
    } else if (!isCollectionRef(node._ref) || "items" in node)
      add({ key: "cases.dialect.needsRef", params: { renderer: TREND_SELECT_RENDERER } });
  }

  // Values of the structural keywords.
  if ("enum" in node && !(Array.isArray(node.enum) && node.enum.length > 0) && !isDataRef(node.enum))
    add({ key: "adminBuckets.dialect.badEnum" });
  if ("labels" in node && !isPlainObject(node.labels)) add({ key: "adminBuckets.dialect.notObjectValue", params: { keyword: "labels" } });
  if ("pattern" in node) {
    if (typeof node.pattern !== "string") add({ key: "adminBuckets.dialect.notText", params: { keyword: "pattern" } });
    else {
      try {
        new RegExp(node.pattern, "u");
      } catch {
        add({ key: "adminBuckets.dialect.badPattern", params: { pattern: node.pattern } });
      }
    }
  }
  if ("additionalProperties" in node && typeof node.additionalProperties !== "boolean")
    add({ key: "adminBuckets.dialect.additionalProperties" });
  if ("fixedItems" in node && (typeof node.fixedItems !== "number" || !Number.isInteger(node.fixedItems) || node.fixedItems < 0))
    add({ key: "adminBuckets.dialect.notCount", params: { keyword: "fixedItems" } });
  if ("step" in node) {
    if (typeof node.step !== "number" || !Number.isFinite(node.step) || node.step <= 0)
      add({ key: "adminBuckets.dialect.notPositive", params: { keyword: "step" } });
    else if (node.type === "integer" && node.step < 1) add({ key: "adminBuckets.dialect.integerStep" });
  }
  for (const [low, high] of ORDERED_PAIRS) {
    const [min, max] = [node[low], node[high]];
    if (typeof min === "number" && typeof max === "number" && min > max)
      add({ key: "adminBuckets.dialect.boundsOrder", params: { min: low, max: high } });
  }

  // Media bounds: each one readable, each minimum at most its maximum.
  if (media) {
    const read: Record<string, number | undefined> = {};
    for (const [keyword, axis] of DIMENSIONS) {
      if (!(keyword in node)) continue;
      read[keyword] = parseDimension(node[keyword], axis);
      if (read[keyword] === undefined)
        add({ key: "adminBuckets.dialect.badDimension", params: { keyword, value: JSON.stringify(node[keyword]) } });
    }
    for (const keyword of ["minFps", "maxFps", "minFilesize", "maxFilesize"]) {
      if (!(keyword in node)) continue;
      const value = node[keyword];
      if (typeof value === "number" && Number.isFinite(value) && value > 0) read[keyword] = value;
      else add({ key: "adminBuckets.dialect.notPositive", params: { keyword } });
    }
    for (const [low, high] of MEDIA_PAIRS) {
      const [min, max] = [read[low], read[high]];
      if (min !== undefined && max !== undefined && min > max)
        add({ key: "adminBuckets.dialect.boundsOrder", params: { min: low, max: high } });
    }
    if ("allowedFiles" in node) {
      const files = node.allowedFiles;
      const list = Array.isArray(files) ? files : typeof files === "string" ? files.split(",") : null;
      if (!list || list.length === 0 || list.some((item) => typeof item !== "string" || !/^\.?[A-Za-z0-9]{1,10}$/.test(item.trim()))) {
        add({ key: "adminBuckets.dialect.badAllowedFiles" });
      }
    }
  }

  // Translation: the normalisation's rule.
  const translatable = node.translate === true;
  if (translatable && state.insideTranslate) add({ key: "adminBuckets.dialect.nestedTranslate" });
  const inside = state.insideTranslate || translatable;

  // Children: properties and list items.
  if ("properties" in node) {
    if (!isPlainObject(node.properties)) add({ key: "adminBuckets.dialect.notObjectValue", params: { keyword: "properties" } });
    else {
      for (const [name, child] of Object.entries(node.properties)) {
        const childPath = `${path ? `${path}.` : ""}properties.${name}`;
        if (HOSTILE_NAMES.has(name) || (state.root && name === SUBFORM_FIELD)) {
          issues.push(at(childPath, { key: "adminBuckets.dialect.reservedName", params: { name } }));
          continue;
        }
        if (isPlainObject(child) && fieldKind(child) === null && !hasUnrenderedKeyword(child)) {
          issues.push(at(childPath, { key: "adminBuckets.dialect.noField" }));
        }
        checkNode(
          child,
          childPath,
          options,
          { insideTranslate: inside, depth: state.depth + 1, root: false, topProperty: state.root },
          issues,
          refs,
        );
      }
    }
  }
  if ("required" in node) {
    const names = isPlainObject(node.properties) ? Object.keys(node.properties) : [];
    if (!Array.isArray(node.required) || node.required.some((name) => typeof name !== "string"))
      add({ key: "adminBuckets.dialect.badRequired" });
    else
      for (const name of node.required as string[])
        if (!names.includes(name)) add({ key: "adminBuckets.dialect.requiredUnknown", params: { name } });
  }
  if ("items" in node) {
    const itemsPath = `${path ? `${path}.` : ""}items`;
    if (Array.isArray(node.items)) add({ key: "adminBuckets.dialect.itemsList" });
    else if (node.renderer !== "texts") {
      // A translated text array's items are the engine's own (normalisation replaces them).
      if (isPlainObject(node.items) && fieldKind(node.items) === null && !hasUnrenderedKeyword(node.items))
        issues.push(at(itemsPath, { key: "adminBuckets.dialect.noField" }));
      checkNode(node.items, itemsPath, options, { insideTranslate: inside, depth: state.depth + 1, root: false }, issues, refs);
    }
  }
}

/** A node that is refused for an unrendered keyword or an unknown renderer already says why it renders nothing. */
function hasUnrenderedKeyword(node: Record<string, unknown>): boolean {
  if ("renderer" in node && !RENDERER_NAMES.includes(node.renderer as (typeof RENDERER_NAMES)[number])) return true;
  return Object.keys(node).some((keyword) => UNRENDERED_KEYWORDS.has(keyword));
}

/**
 * Every problem of a schema in the dialect, empty when it may be saved. After the walk finds nothing, the schema is
 * normalised for the bucket's locales and compiled by the one AJV setup: what AJV refuses is reported too (never an
 * exception).
 */
export function checkSchemaDialect(raw: unknown, options: DialectOptions): Message[] {
  if (!isPlainObject(raw)) return [at("", { key: "adminBuckets.dialect.notAnObject" })];
  // First, before anything below recurses through the schema: how deep it nests.
  if (nestsDeeperThan(raw, MAX_SCHEMA_NESTING))
    return [at("", { key: "adminBuckets.dialect.nestedTooDeep", params: { limit: MAX_SCHEMA_NESTING } })];
  const issues: Message[] = [];
  const refs: Refs = { refs: new Set(), containers: [] };
  if (raw.type !== "object") issues.push(at("", { key: "adminBuckets.dialect.rootType" }));
  checkNode(raw, "", options, { insideTranslate: false, depth: 0, root: true }, issues, refs);
  issues.unshift(...refMessages(refs, (problem) => at("", problem)));
  if (issues.length) return issues;
  const normalized = normalizeSchema(raw, options.locales.length ? options.locales : ["en"]);
  // The walk above refuses what normalisation would; this is the safety net should the two ever differ.
  for (const problem of normalized.problems)
    issues.push(at("", { key: "adminBuckets.dialect.normalization", params: { detail: problem } }));
  if (issues.length || options.compile === false) return issues;
  try {
    compileSchema(normalized.schema);
  } catch (error) {
    issues.push(at("", { key: "adminBuckets.dialect.ajv", params: { detail: error instanceof Error ? error.message : String(error) } }));
    return issues;
  }
  return defaultProblems(normalized.schema, at);
}
