import Ajv, { _, type AnySchemaObject, type Options, type ValidateFunction } from "ajv";

/**
 * The dialect's keywords of a media property that decide what an upload or an edit may do (spec §3): two properties
 * with the same values for these are the same rules, whatever their titles (server/media/field-property.ts).
 */
export const MEDIA_RULE_KEYWORDS = [
  "allowedFiles",
  "minFilesize",
  "maxFilesize",
  "minWidth",
  "maxWidth",
  "minHeight",
  "maxHeight",
  "minWidthCrop",
  "maxWidthCrop",
  "minHeightCrop",
  "maxHeightCrop",
  "enableCrop",
  "forceCrop",
  "encoding",
  "codec",
  "minFps",
  "maxFps",
  "allowCustomStill",
] as const;

/** Our schema dialect's own keywords (docs/schema-dialect.md): hints for the form, no validation. */
export const DIALECT_KEYWORDS = [
  "_ref",
  "key",
  "note",
  "placeholder",
  "renderer",
  "translate",
  "step",
  "labels",
  "fixed",
  "fixedItems",
  "sortable",
  "add-button",
  "append-index-to-title",
  "title-key",
  "button-text",
  "enableButton",
  "disableButton",
  "inline",
  "x-indent",
  "x-clearable",
  "x-disableable-bool",
  "x-collapsible",
  ...MEDIA_RULE_KEYWORDS,
  "resolution",
] as const;

export const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/**
 * The one AJV setup, on server and browser alike: all errors, $data,
 * formats as regular expressions (so standalone code needs no runtime
 * import), and the custom isNotEmpty rule.
 */
export function createAjv(options: Pick<Options, "code"> = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, $data: true, strict: "log", strictRequired: false, ...options, logger: false });
  ajv.addFormat("date", DATE_PATTERN);
  ajv.addFormat("time", TIME_PATTERN);
  ajv.addFormat("color", COLOR_PATTERN);
  ajv.addFormat("email", /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
  ajv.addFormat("uri", /^https?:\/\/\S+$/i);
  ajv.addVocabulary([...DIALECT_KEYWORDS]);
  ajv.addKeyword({
    keyword: "isNotEmpty",
    type: "string",
    schemaType: "boolean",
    error: { message: "must not be empty" },
    code(cxt) {
      if (cxt.schema) cxt.fail(_`${cxt.data}.trim() === ""`);
    },
  });
  return ajv;
}

/** How many schemas one shared instance compiles before a fresh one takes over (see sharedCompiler). */
const COMPILES_PER_INSTANCE = 200;

/**
 * A compiler on a shared instance of createAjv(options). A new instance costs about 50 ms before its first schema
 * (it compiles the draft-07 meta-schema again), a compile on a warm one a few; but an instance keeps what every schema
 * it compiled put into its code scope, so after COMPILES_PER_INSTANCE schemas a fresh one takes over and the old one
 * goes with them. Each schema is removed again once compiled, so two buckets' schemas with the same `$id` never meet.
 */
function sharedCompiler(options: Pick<Options, "code">) {
  let ajv: Ajv | null = null;
  let compiles = 0;
  return (schema: AnySchemaObject): { validate: ValidateFunction; ajv: Ajv } => {
    if (!ajv || compiles >= COMPILES_PER_INSTANCE) {
      ajv = createAjv(options);
      compiles = 0;
    }
    compiles++;
    try {
      return { validate: ajv.compile(schema), ajv };
    } finally {
      ajv.removeSchema(schema);
    }
  };
}

const compileForValidation = sharedCompiler({});

/** A validator for a schema, compiled on the shared instance (the same setup as createAjv()). */
export const compileSchema = (schema: AnySchemaObject): ValidateFunction => compileForValidation(schema).validate;

/**
 * A validator compiled with its source kept (for AJV's standalone code) on a shared instance, with that instance:
 * standaloneCode needs both.
 */
export const compileSchemaWithSource = sharedCompiler({ code: { source: true, esm: false } });
