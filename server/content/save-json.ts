import type { Bucket } from "./buckets";
import { splitDocument, toDocument } from "./document";
import { saveMerged } from "./merge-save";
import { saveDocument, type SaveDeps } from "./save";
import { VersionConflictError } from "./store";
import { compileBucketSchema } from "./validator";
import type { Db } from "@server/db/client";
import type { Author } from "@server/accounts/users";
import { HttpError } from "@server/errors";
import type { Locale } from "@core/locales";
import { FORBIDDEN_KEYS } from "@core/content/payload";

/*
 * POST /api/v1/buckets/{slug}/save {content, collection}, the adapter of the JSON API and the bucket-form modal:
 * the envelope checked, then the front door (server/content/save.ts), which validates and saves as for the edit
 * form. The same bad input gets the same messages under the same field names as on the page and in the modal.
 */

/** What a save call's body should be: the web layer refuses a body that is no JSON object with it. */
export const SAVE_USAGE = { key: "api.usage.save" } as const;

/** Checks the envelope {content, collection}: the content, or the 400 (an HttpError) that refuses it. */
function readEnvelope(body: Record<string, unknown>, bucket: Bucket): Record<string, unknown> {
  const forbidden = Object.keys(body).find((key) => FORBIDDEN_KEYS.has(key));
  if (forbidden) throw new HttpError(400, "api.forbiddenName", { name: forbidden });
  const content = body.content;
  if (typeof content !== "object" || content === null || Array.isArray(content)) throw new HttpError(400, "api.contentNotObject");
  if (body.collection !== undefined && typeof body.collection !== "string") throw new HttpError(400, "api.collectionNotString");
  if (body.collection !== undefined && body.collection !== bucket.collectionName) {
    throw new HttpError(400, "api.collectionMismatch", { collection: body.collection, bucket: bucket.slug });
  }
  // A contentId or _id of another type must not quietly turn the save into a new document.
  for (const key of ["contentId", "_id"] as const) {
    const id = (content as Record<string, unknown>)[key];
    if (id !== undefined && id !== null && typeof id !== "string") throw new HttpError(400, "api.idNotString", { key });
  }
  return content as Record<string, unknown>;
}

/** A JSON save's outcome: the saved document, or the refusal as the API words it ({error, errors, locales}). */
export type JsonSaveOutcome =
  | { saved: true; created: boolean; document: Record<string, unknown> }
  | { saved: false; status: number; refusal: { error: string; errors: Record<string, string[]>; locales: string[] } };

const refused = (status: number, error: string, errors: Record<string, string[]>, locales: string[] = []): JsonSaveOutcome => ({
  saved: false,
  status,
  refusal: { error, errors, locales },
});

/**
 * The saved document (new, or a new version), or the refusal. A malformed envelope, a version conflict or an
 * unknown document is thrown (HttpError, VersionConflictError, ContentNotFoundError) for the route's apiRoute to
 * answer. `body` is the call's JSON object; `locale` the interface language of whoever sends it (an API client's:
 * its Accept-Language, else the default).
 */
export async function submitJsonDocument(
  context: SaveDeps & { db: Db },
  body: Record<string, unknown>,
  target: { author: Author; bucket: Bucket; locale: Locale },
  options: { merge?: boolean } = {},
): Promise<JsonSaveOutcome> {
  const { author: actor, bucket, locale } = target;
  const { contentId, baseVersionId, data } = splitDocument(readEnvelope(body, bucket));
  // No token comes with a JSON save: a pending upload is refused under its field, so none is taken by another save.
  const request = { actor, bucket, locale, contentId, baseVersionId, document: { payload: data } };
  try {
    const outcome = await saveDocument(context, request);
    if (!outcome.ok) return refused(outcome.status, outcome.message, outcome.errors.byField, outcome.errors.locales);
    return { saved: true, created: outcome.created, document: toDocument(outcome.version) };
  } catch (error) {
    if (!(error instanceof VersionConflictError) || !options.merge || !contentId || !baseVersionId) throw error;
    const { schema } = compileBucketSchema(bucket);
    const merged = await saveMerged(context, { ...request, contentId, baseVersionId }, schema, data, error);
    if (merged.kind === "conflicts")
      throw new HttpError(
        409,
        "merge.apiConflict",
        {},
        {
          code: "DOCUMENT_MERGE_CONFLICT",
          body: {
            latestVersionId: merged.latestVersionId,
            conflicts: merged.fields.map(({ name, mine, theirs }) => ({ field: name, mine, theirs })),
          },
        },
      );
    const outcome = merged.result;
    if (!outcome.ok) return refused(outcome.status, outcome.message, outcome.errors.byField, outcome.errors.locales);
    const document = toDocument(outcome.version);
    return {
      saved: true,
      created: false,
      document: { ...document, merged: { loadedVersionId: baseVersionId, fromNewest: merged.fromNewest.map((path) => path.join(".")) } },
    };
  }
}
