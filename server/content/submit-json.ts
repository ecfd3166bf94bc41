import type { Bucket } from "./buckets";
import { saveDocument, splitDocument, toDocument } from "./save";
import { checkMediaReferences } from "./submit-media";
import { compileBucketSchema } from "./validator";
import type { Author } from "@server/accounts/users";
import { HttpError } from "@server/errors";
import type { Services } from "@server/services";
import type { Locale } from "@core/locales";
import { FORBIDDEN_KEYS } from "@core/content/payload";
import { checkDocument, INVALID_CONTENT } from "@core/form/resolve";
import { translateMessage } from "@core/messages";

/*
 * POST /api/v1/buckets/{slug}/save {content, collection}, the same pipeline as the edit form
 * (server/content/submit.ts) from a JSON body: read → hostile envelope → validate once (inspectPayload, the
 * bucket's validator and the error mapping the form's resolver uses, then the media references) → save. The
 * same bad input gets the same messages under the same field names as on the page and in the modal.
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
  context: Services,
  body: Record<string, unknown>,
  target: { author: Author; bucket: Bucket; locale: Locale },
): Promise<JsonSaveOutcome> {
  const { author: user, bucket, locale } = target;
  const content = readEnvelope(body, bucket);
  const { contentId, baseVersionId, data } = splitDocument(content);
  const { schema, validate, problems } = compileBucketSchema(bucket);
  if (!validate) return refused(422, problems.join("; "), { "": problems });
  const checked = checkDocument(data, schema, validate, locale);
  if (!checked.ok) return refused(checked.status, checked.message, checked.errors.byField, checked.errors.locales);
  const media = await checkMediaReferences(context.db, context.media.storage, {
    user,
    bucket,
    schema,
    value: checked.value,
    tokens: [],
    staged: [],
    locale,
  });
  if (Object.keys(media.errors).length) return refused(422, translateMessage(locale, INVALID_CONTENT), media.errors);
  // No pending uploads reach this save (the check above refuses them all): nothing can be taken by another save.
  const outcome = await saveDocument(context, user, bucket, { contentId, baseVersionId, data: checked.value, messageLocale: locale });
  if (!outcome.ok) return refused(outcome.status, outcome.message, outcome.errors.byField, outcome.errors.locales);
  return { saved: true, created: !contentId, document: toDocument(outcome.version) };
}
