import { TRANSLATE_OBJECT_RENDERER, type JsonSchema } from "@core/schema/normalize";
import { isPlainObject } from "@core/plain-object";
import { TREND_SELECT_RENDERER, VIDEO_CASES_RENDERER } from "@core/content/renderers";

export const FIELD_KINDS = [
  "text",
  "textarea",
  "number",
  "integer",
  "boolean",
  "date",
  "time",
  "color",
  "enum",
  "enumData",
  "tags",
  "array",
  "object",
  "translateObject",
  "texts",
  "disableable",
  "reference",
  "referenceList",
  "popup",
  "inline",
  "image",
  "video",
  "file",
  "videoCases",
  "trendSelect",
  "trendList",
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** The reserved top-level name under which inline sub-forms post their fields (core/form/subforms.ts). */
export const SUBFORM_FIELD = "__subforms";

const RENDERERS: Record<string, FieldKind> = {
  textarea: "textarea",
  tags: "tags",
  texts: "texts",
  popup: "popup",
  [TRANSLATE_OBJECT_RENDERER]: "translateObject",
  [VIDEO_CASES_RENDERER]: "videoCases",
  [TREND_SELECT_RENDERER]: "trendSelect",
};

/**
 * Renderers that pick no component of their own: the other keywords decide (`inline` is a renderer option of a
 * reference, spec §3). Any other renderer no kind handles makes the property's kind unknown.
 */
const PASS_THROUGH_RENDERERS: ReadonlySet<string> = new Set(["inline"]);

const isCollectionRef = (ref: unknown) => typeof ref === "string" && !ref.startsWith("b-");

/** `_ref` values of media fields (spec §3): the field stores the media content's contentId. */
export const MEDIA_REFS: Readonly<Record<string, "image" | "video" | "file">> = {
  "b-image": "image",
  "b-video": "video",
  "b-file": "file",
};

/** The media kind of a property (`_ref: "b-image"` …), or null. */
export function mediaKindOfSchema(schema: JsonSchema): "image" | "video" | "file" | null {
  return typeof schema._ref === "string" && Object.prototype.hasOwnProperty.call(MEDIA_REFS, schema._ref)
    ? (MEDIA_REFS[schema._ref] ?? null)
    : null;
}

/**
 * Which component renders a property, decided in one fixed order:
 * renderer, then _ref, then format, then enum, then type. Null: unknown kind, also for a renderer no kind
 * handles (`{"type": "string", "renderer": "does-not-exist"}` is no text field: the form says it cannot render it).
 */
export function fieldKind(schema: JsonSchema): FieldKind | null {
  const { renderer } = schema;
  if (renderer !== undefined) {
    if (typeof renderer !== "string") return null;
    // The trend select on a list: several trends (related trends), each shown with its image and title.
    if (renderer === TREND_SELECT_RENDERER && schema.type === "array") return "trendList";
    if (Object.hasOwn(RENDERERS, renderer)) return RENDERERS[renderer] ?? null;
    if (!PASS_THROUGH_RENDERERS.has(renderer)) return null;
  }
  // An inline sub-form is a reference rendered as the referenced document's form; without a collection `_ref`
  // "inline" is only an attribute and the property renders by its type.
  if (isCollectionRef(schema._ref)) return renderer === "inline" ? "inline" : "reference";
  const media = mediaKindOfSchema(schema);
  if (media) return media;
  if (schema.type === "array" && isPlainObject(schema.items) && isCollectionRef(schema.items._ref)) return "referenceList";
  if (schema.format === "date") return "date";
  if (schema.format === "time") return "time";
  if (schema.format === "color") return "color";
  if (Array.isArray(schema.enum)) return "enum";
  if (isPlainObject(schema.enum) && typeof schema.enum.$data === "string") return "enumData";
  switch (schema.type) {
    case "string":
      return "text";
    case "number":
      return "number";
    case "integer":
      return "integer";
    case "boolean":
      return "boolean";
    case "array":
      return "array";
    case "object":
      return schema["x-disableable-bool"] ? "disableable" : "object";
    default:
      return null;
  }
}
