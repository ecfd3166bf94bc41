import type { Services } from "@server/services";
import { findBucketByCollection, isBucketVisible, type Bucket } from "./buckets";
import { writeDocument } from "./save";
import { checkSave, type SaveRefusal } from "./save-rules";
import { writeSubDocuments } from "./save-subforms";
import { getLatestVersion } from "./store";
import type { SubFormBucket } from "./subforms";
import { compileBucketSchema } from "./validator";
import type { User } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { inlineReferences, mapInlineReferences, type InlineReference } from "@core/content/inline-references";
import { documentTitle } from "@core/content/title";
import { subFormFieldName, type SubDocument } from "@core/form/subforms";
import type { Locale } from "@core/locales";
import { translate } from "@core/messages";
import type { JsonSchema } from "@core/schema/normalize";

/*
 * A duplicate (/b/{bucket}/duplicate/{contentId}/latest) is a new document; the inline sub-documents of the
 * original belong to the original, so the duplicate gets copies of them, at any depth (an inline sub-document's own
 * inline sub-documents too, and those in lists), written in the duplicate's transaction: a copy that cannot be made
 * rolls everything back. The sub-forms the page shows start as new documents with the original's content (their
 * save creates them); the references the page cannot show as a sub-form (a nested one, one in a list) still name
 * the original's documents, and the save replaces each with a copy. Only the original's own sub-documents are
 * copied: a document the editor picked instead stays referenced.
 */

/** The most levels of inline sub-documents followed below the original. */
const MAX_DEPTH = 16;

/** A sub-document that cannot be copied: the duplicate's transaction is rolled back, the form says why. */
export class InlineCopyError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
    readonly status: SaveRefusal["status"] = 422,
  ) {
    super(reason);
    this.name = "InlineCopyError";
  }
}

/** The refusal of the duplicate's save, the reason under the field that holds the sub-document. */
export const inlineCopyRefusal = (error: InlineCopyError): SaveRefusal => ({
  ok: false,
  status: error.status,
  errors: { byField: { [error.field]: [error.reason] }, locales: [] },
  message: error.reason,
});

/** The buckets of collections, each looked up once per save. */
function bucketLookup(db: Queryable) {
  const found = new Map<string, Promise<Bucket | null>>();
  return (collection: string) => {
    const known = found.get(collection);
    if (known) return known;
    const lookup = findBucketByCollection(db, collection);
    found.set(collection, lookup);
    return lookup;
  };
}

/** The contentIds of the inline sub-documents the original holds, at any depth (none when it is gone). */
export async function ownedInlineDocuments(db: Queryable, bucket: Bucket, contentId: string): Promise<Set<string>> {
  const owned = new Set<string>();
  const bucketOf = bucketLookup(db);
  const original = await getLatestVersion(db, bucket.id, contentId);
  let level = original ? inlineReferences(compileBucketSchema(bucket).schema, original.data) : [];
  for (let depth = 0; level.length && depth < MAX_DEPTH; depth++) {
    const next: InlineReference[] = [];
    for (const reference of level) {
      if (owned.has(reference.contentId)) continue;
      owned.add(reference.contentId);
      const sub = await bucketOf(reference.collection);
      const version = sub ? await getLatestVersion(db, sub.id, reference.contentId) : null;
      if (sub && version) next.push(...inlineReferences(compileBucketSchema(sub).schema, version.data));
    }
    level = next;
  }
  return owned;
}

/**
 * A duplicate's sub-forms save new documents: one posted with the contentId of one of the original's own
 * sub-documents (a page loaded before duplicates copied them, or a crafted post) is made new, so the duplicate's
 * save never writes a version of the original's sub-document.
 */
export function asNewSubDocuments(documents: readonly SubDocument[], owned: ReadonlySet<string>): SubDocument[] {
  return documents.map(({ contentId, baseVersionId, ...document }) =>
    contentId && owned.has(contentId.toLowerCase()) ? document : { ...document, contentId, baseVersionId },
  );
}

/** Copies documents in one transaction: each once (a document held twice gets one copy), its own sub-documents first. */
function copier(context: Services, tx: Queryable, user: User, locale: Locale) {
  const copies = new Map<string, string>();
  const copying = new Set<string>();
  const bucketOf = bucketLookup(tx);

  async function copyReferences(
    schema: JsonSchema,
    data: Record<string, unknown>,
    fieldOf: (name: string) => string,
    only?: ReadonlySet<string>,
    depth = 0,
  ) {
    const made = new Map<string, string>();
    for (const reference of inlineReferences(schema, data)) {
      if (only && !only.has(reference.contentId)) continue;
      made.set(reference.contentId, await copyDocument(reference, fieldOf(reference.name), depth));
    }
    return mapInlineReferences(schema, data, (reference) => made.get(reference.contentId)) as Record<string, unknown>;
  }

  async function copyDocument(reference: InlineReference, field: string, depth: number): Promise<string> {
    const done = copies.get(reference.contentId);
    if (done) return done;
    if (copying.has(reference.contentId) || depth >= MAX_DEPTH)
      throw new InlineCopyError(field, translate(locale, "subForm.copy.circular"));
    const bucket = await bucketOf(reference.collection);
    if (!bucket || !isBucketVisible(bucket, user))
      throw new InlineCopyError(field, translate(locale, "subForm.copy.bucket", { collection: reference.collection }), 403);
    const version = await getLatestVersion(tx, bucket.id, reference.contentId);
    // A sub-document that is gone is not copied: the reference stays as it was (its form says the document is gone).
    if (!version) return reference.contentId;
    copying.add(reference.contentId);
    const { schema, validate } = compileBucketSchema(bucket);
    const data = await copyReferences(schema, version.data, () => field, undefined, depth + 1);
    // A copy is a new version like any other: it fits its bucket's schema now, else the editor corrects the original.
    if (!validate || !validate(structuredClone(data))) {
      const title = documentTitle(version.data, bucket.jsonSchema, bucket.locales) || version.contentId;
      throw new InlineCopyError(field, translate(locale, "subForm.copy.invalid", { title, bucket: bucket.name }));
    }
    const refused = await checkSave(tx, user, bucket, { data }, locale, context.screens);
    if (refused) throw new InlineCopyError(field, refused.message, refused.status);
    const copy = await writeDocument(tx, bucket, user, { data });
    copying.delete(reference.contentId);
    copies.set(reference.contentId, copy.contentId);
    return copy.contentId;
  }

  return copyReferences;
}

/** The top-level field a form field's name lies in (`lamps[1]` → `lamps`, `intro.room` → `intro`). */
const topField = (name: string) => /^[^.[]*/.exec(name)?.[0] ?? name;

/**
 * saveDocument's `before` for a duplicate: in its transaction, copies of the original's sub-documents the parent's
 * data and the sub-forms' documents still name, then the sub-forms' documents; answers the parent's fields.
 */
export function writeDuplicateDocuments(
  context: Services,
  user: User,
  target: { schema: JsonSchema; data: Record<string, unknown> },
  sub: { buckets: readonly SubFormBucket[]; documents: readonly SubDocument[] },
  owned: ReadonlySet<string>,
  locale: Locale,
) {
  return async (tx: Queryable): Promise<Record<string, unknown>> => {
    const copyReferences = copier(context, tx, user, locale);
    const parent = await copyReferences(target.schema, target.data, topField, owned);
    const documents: SubDocument[] = [];
    for (const document of sub.documents) {
      const bucket = sub.buckets.find((candidate) => candidate.field === document.field);
      const schema = bucket?.ok ? bucket.compiled.schema : null;
      documents.push(
        schema
          ? { ...document, data: await copyReferences(schema, document.data, () => subFormFieldName(document.field), owned) }
          : document,
      );
    }
    return { ...parent, ...(await writeSubDocuments(user, sub.buckets, documents)(tx)) };
  };
}
