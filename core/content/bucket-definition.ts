import { z } from "zod";
import { isScreenName } from "./screens";
import { cleanBucketNames } from "./bucket-name";

/*
 * A bucket's definition as an admin writes it (the form on /settings/buckets/{slug}) and as it is exported and
 * imported: slug, name, names (its name per interface locale), singleton, private, collectionName, locales, screen,
 * jsonSchema. Shared by the form in the browser
 * and the server's checks; messages are catalogue keys.
 */

/** Slugs the bucket admin's own pages use: /settings/buckets/new and /settings/buckets/import. */
export const RESERVED_BUCKET_SLUGS = ["new", "import"] as const;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 64;
/** A collection name is what `_ref` names; `b-…` are the media kinds. */
export const COLLECTION_PATTERN = /^(?!b-)[A-Za-z0-9_][A-Za-z0-9_-]*$/;
/**
 * Content locales are language codes (nl, en, de, fr-BE …): they become property names of translated values and the
 * labels of the form's locale tabs, so they are kept to letters, digits and one hyphen.
 */
export const CONTENT_LOCALE_PATTERN = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/;
/** A bucket's schema as text, at most this long (the request body limit is 1 MiB). */
export const SCHEMA_TEXT_MAX_LENGTH = 512 * 1024;

/** The ordered locales written as "nl, en" or "nl en" (one per line works too); the first is the default. */
export function parseLocaleList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((locale) => locale.trim())
    .filter(Boolean);
}

export const localeListSchema = z
  .array(z.string())
  .min(1, "adminBuckets.errors.localesRequired")
  .refine((list) => list.every((locale) => CONTENT_LOCALE_PATTERN.test(locale)), "adminBuckets.errors.localesFormat")
  .refine((list) => new Set(list).size === list.length, "adminBuckets.errors.localesDuplicate");

const slugSchema = z
  .string({ message: "adminBuckets.errors.slugRequired" })
  .trim()
  .min(1, "adminBuckets.errors.slugRequired")
  .max(SLUG_MAX_LENGTH, "adminBuckets.errors.slugTooLong")
  .regex(SLUG_PATTERN, "adminBuckets.errors.slugFormat")
  .refine((slug) => !(RESERVED_BUCKET_SLUGS as readonly string[]).includes(slug), "adminBuckets.errors.slugReserved");

export const BUCKET_NAME_MAX_LENGTH = 200;
const nameSchema = z
  .string({ message: "adminBuckets.errors.nameRequired" })
  .trim()
  .min(1, "adminBuckets.errors.nameRequired")
  .max(BUCKET_NAME_MAX_LENGTH, "adminBuckets.errors.nameTooLong");

/** A name for one interface locale: optional (empty is none), as long as the name at most. */
const localeNameSchema = z
  .string({ message: "adminBuckets.errors.nameNotText" })
  .trim()
  .max(BUCKET_NAME_MAX_LENGTH, "adminBuckets.errors.nameTooLong")
  .optional();
/** The names per interface locale (en, nl), kept trimmed and without empty ones (core/content/bucket-name.ts). */
const namesSchema = z
  .strictObject({ en: localeNameSchema, nl: localeNameSchema }, { error: "adminBuckets.errors.namesLocales" })
  .transform(cleanBucketNames);

const collectionSchema = z
  .string({ message: "adminBuckets.errors.collectionRequired" })
  .trim()
  .min(1, "adminBuckets.errors.collectionRequired")
  .max(SLUG_MAX_LENGTH, "adminBuckets.errors.collectionTooLong")
  .regex(COLLECTION_PATTERN, "adminBuckets.errors.collectionFormat");

/** A screen of the registered screens' table (core/content/screens.ts); none is the generic editor. */
const screenSchema = z
  .string({ message: "screens.errors.unknown" })
  .refine(isScreenName, { message: "screens.errors.unknown" })
  .default("generic");

/** The form's fields (checkboxes post "on"; Conform turns them into booleans). */
export const bucketFormSchema = z.object({
  slug: slugSchema,
  name: nameSchema,
  /** `names.en`, `names.nl`: Conform leaves the object out when both are empty. */
  names: namesSchema.optional().transform((names) => names ?? {}),
  singleton: z.boolean().optional(),
  private: z.boolean().optional(),
  collectionName: collectionSchema,
  locales: z.string({ message: "adminBuckets.errors.localesRequired" }).transform(parseLocaleList).pipe(localeListSchema),
  screen: screenSchema,
  jsonSchema: z
    .string({ message: "adminBuckets.errors.schemaRequired" })
    .trim()
    .min(1, "adminBuckets.errors.schemaRequired")
    .max(SCHEMA_TEXT_MAX_LENGTH, "adminBuckets.errors.schemaTooLong"),
});
export type BucketFormValue = z.infer<typeof bucketFormSchema>;

/** An exported bucket definition (the JSON file); import reads the same shape. */
export const bucketDefinitionSchema = z.object({
  slug: slugSchema,
  name: nameSchema,
  /** Older exports have none. */
  names: namesSchema.default({}),
  singleton: z.boolean().default(false),
  private: z.boolean().default(false),
  collectionName: collectionSchema,
  locales: localeListSchema,
  /** Older exports have no screen: the generic editor. */
  screen: screenSchema,
  jsonSchema: z.record(z.string(), z.unknown()),
});
export type BucketDefinition = z.infer<typeof bucketDefinitionSchema>;

/** The export's JSON text: the definition's keys in a fixed order, pretty-printed. */
export function definitionJson(definition: BucketDefinition): string {
  const { slug, name, names, singleton, private: isPrivate, collectionName, locales, screen, jsonSchema } = definition;
  return `${JSON.stringify({ slug, name, names, singleton, private: isPrivate, collectionName, locales, screen, jsonSchema }, null, 2)}\n`;
}

/** The schema as the editor shows it. */
export const schemaText = (schema: unknown) => JSON.stringify(schema, null, 2);
