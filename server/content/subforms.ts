import type { Services } from "@server/services";
import { findBucketByCollection, isBucketVisible, type Bucket } from "./buckets";
import { getLatestVersion } from "./store";
import { compileBucketSchema, type CompiledBucketSchema } from "./validator";
import type { User } from "@server/accounts/users";
import { hasMediaField } from "@server/media/form-upload";
import { inlineFields, type InlineSubFormData, type SubFormCheck } from "@core/form/subforms";
import { initialValue, storedFormValue } from "@core/form/kinds";
import { documentTitle } from "@core/content/title";
import { isUuid } from "@core/ids";
import type { JsonSchema } from "@core/schema/normalize";
import { isPlainObject } from "@core/plain-object";
import type { Queryable } from "@server/db/client";

export type { InlineSubFormData };

/*
 * The buckets behind a schema's inline sub-forms (core/form/subforms.ts), for the edit page's loader and its save.
 * A sub-form is refused (rendered as a plain reference select with the reason) when its collection has no bucket
 * the user may open, when that bucket's documents have media fields (their uploads belong to the parent's post and
 * its bucket, so an inline sub-form cannot hold them: a popup sub-form can), or when it has inline sub-forms of its
 * own (one level only).
 */

export type SubFormBucket =
  | { ok: true; field: string; collection: string; bucket: Bucket; compiled: CompiledBucketSchema }
  | { ok: false; field: string; collection: string; reason: "bucket" | "media" | "nested" };

export async function subFormBuckets(context: Services, user: User, schema: JsonSchema): Promise<SubFormBucket[]> {
  return Promise.all(
    inlineFields(schema).map(async ({ field, collection }): Promise<SubFormBucket> => {
      const bucket = await findBucketByCollection(context.db, collection);
      if (!bucket || !isBucketVisible(bucket, user)) return { ok: false, field, collection, reason: "bucket" };
      const compiled = compileBucketSchema(bucket);
      if (hasMediaField(compiled.schema)) return { ok: false, field, collection, reason: "media" };
      if (inlineFields(compiled.schema).length) return { ok: false, field, collection, reason: "nested" };
      return { ok: true, field, collection, bucket, compiled };
    }),
  );
}

/**
 * For the bucket admin's dialect check: the collections the inline sub-forms of a schema text name whose buckets an
 * inline sub-form cannot render (media fields, inline sub-forms of their own), so the save refuses the combination.
 */
export async function inlineRefusals(db: Queryable, schemaText: string): Promise<Record<string, "media" | "nested">> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(schemaText);
  } catch {
    return {};
  }
  if (!isPlainObject(parsed)) return {};
  const refused: Record<string, "media" | "nested"> = {};
  for (const { collection } of inlineFields(parsed)) {
    const bucket = await findBucketByCollection(db, collection);
    if (!bucket) continue;
    const { schema } = compileBucketSchema(bucket);
    if (hasMediaField(schema)) refused[collection] = "media";
    else if (inlineFields(schema).length) refused[collection] = "nested";
  }
  return refused;
}

/** The validation of each usable sub-form, by field: what the save pipeline's resolver needs. */
export function subFormChecks(buckets: readonly SubFormBucket[]): Record<string, SubFormCheck> {
  return Object.fromEntries(
    buckets.flatMap((sub) => (sub.ok ? [[sub.field, { schema: sub.compiled.schema, validate: sub.compiled.validate }]] : [])),
  );
}

/**
 * The page's data of each inline sub-form and the form values it starts with: the referenced document's latest
 * version (spec §4: a field with a value loads its content). A document that is gone (spec §8, fetch 404) clears
 * the field and leaves the sub-form empty; a failed load shows 'Something went wrong fetching the subform content…'
 * and keeps the field's value. With `copy` (a duplicate) a loaded document's sub-form is a new document with its
 * content, the field cleared (`cleared`), and says a copy is made.
 */
export async function loadInlineSubForms(
  context: Services,
  user: User,
  schema: JsonSchema,
  value: Record<string, unknown>,
  options: { copy?: boolean } = {},
): Promise<{ subForms: Record<string, InlineSubFormData>; values: Record<string, unknown>; cleared: string[] }> {
  const subForms: Record<string, InlineSubFormData> = {};
  const values: Record<string, unknown> = {};
  const cleared: string[] = [];
  for (const sub of await subFormBuckets(context, user, schema)) {
    if (!sub.ok) {
      subForms[sub.field] = { state: "unavailable", collection: sub.collection, reason: sub.reason };
      continue;
    }
    const { bucket, compiled } = sub;
    const base = {
      state: "ready" as const,
      slug: bucket.slug,
      collection: sub.collection,
      locales: bucket.locales,
      schema: compiled.schema,
      validatorUrl: compiled.validate ? `/validators/${bucket.slug}/${compiled.hash}` : null,
    };
    const reference = value[sub.field];
    if (typeof reference !== "string" || reference === "") {
      subForms[sub.field] = { ...base, document: null };
      values[sub.field] = initialValue(compiled.schema);
      continue;
    }
    try {
      const version = isUuid(reference) ? await getLatestVersion(context.db, bucket.id, reference) : null;
      if (!version) {
        cleared.push(sub.field);
        subForms[sub.field] = { ...base, document: null };
        values[sub.field] = initialValue(compiled.schema);
        continue;
      }
      const title = documentTitle(version.data, bucket.jsonSchema, bucket.locales) || version.contentId;
      // A duplicate's sub-form: a new document with the referenced one's content (the field starts empty).
      if (options.copy) cleared.push(sub.field);
      subForms[sub.field] = options.copy
        ? { ...base, document: null, copyOf: title }
        : { ...base, document: { contentId: version.contentId, versionId: version.versionId, title } };
      values[sub.field] = storedFormValue(version.data, compiled.schema);
    } catch (error) {
      context.logger.error({ err: error, field: sub.field }, "Error fetching the sub-form content");
      subForms[sub.field] = { state: "failed", collection: sub.collection };
    }
  }
  return { subForms, values, cleared };
}
