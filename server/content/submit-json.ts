import type { AppLoadContext } from "react-router";
import type { Bucket } from "./buckets";
import { saveDocument, splitDocument, toDocument } from "./save";
import { ContentNotFoundError, VersionConflictError } from "./store";
import { checkMediaReferences } from "./submit-media";
import { compileBucketSchema } from "./validator";
import type { User } from "../accounts/users";
import { PendingUploadTaken } from "../media/pending";
import { BadRequest, jsonError, readJsonBody } from "../web/api";
import { FORBIDDEN_KEYS } from "../../core/content/payload";
import { checkDocument, INVALID_CONTENT } from "../../core/form/resolve";

/*
 * POST /api/v1/buckets/{slug}/save {content, collection}, the same pipeline as the edit form
 * (server/content/submit.ts) from a JSON body: read → hostile envelope → validate once (inspectPayload, the
 * bucket's validator and the error mapping the form's resolver uses, then the media references) → save. The
 * same bad input gets the same messages under the same field names as on the page and in the modal.
 */

const conflict = (latestVersionId: string | null) =>
  Response.json({ error: "DOCUMENT_VERSION_CONFLICT", message: "Someone else saved this document in the meantime.", latestVersionId }, { status: 409 });

/** Reads the envelope {content, collection}: the content, or the 400 that refuses it. */
async function readEnvelope(request: Request, bucket: Bucket): Promise<Record<string, unknown> | Response> {
  let body: Record<string, unknown>;
  try {
    body = await readJsonBody(request);
  } catch (error) {
    if (error instanceof BadRequest) return jsonError(error.message, 400);
    throw error;
  }
  const forbidden = Object.keys(body).find((key) => FORBIDDEN_KEYS.has(key));
  if (forbidden) return jsonError(`Forbidden property name '${forbidden}'`, 400);
  const content = body.content;
  if (typeof content !== "object" || content === null || Array.isArray(content)) return jsonError("content must be a JSON object", 400);
  if (body.collection !== undefined && typeof body.collection !== "string") {
    return jsonError("collection must be the bucket's collection name (a string)", 400);
  }
  if (body.collection !== undefined && body.collection !== bucket.collectionName) {
    return jsonError(`collection '${body.collection}' does not belong to bucket '${bucket.slug}'`, 400);
  }
  // A contentId or _id of another type must not quietly turn the save into a new document.
  for (const key of ["contentId", "_id"] as const) {
    const id = (content as Record<string, unknown>)[key];
    if (id !== undefined && id !== null && typeof id !== "string") return jsonError(`${key} must be a string`, 400);
  }
  return content as Record<string, unknown>;
}

/** The saved document (201 new, 200 a new version), or the refusal as {error, errors, locales}. */
export async function submitJsonDocument(request: Request, context: AppLoadContext, target: { user: User; bucket: Bucket }): Promise<Response> {
  const { user, bucket } = target;
  const content = await readEnvelope(request, bucket);
  if (content instanceof Response) return content;
  const { contentId, baseVersionId, data } = splitDocument(content);
  const { schema, validate, problems } = compileBucketSchema(bucket);
  if (!validate) return Response.json({ error: problems.join("; "), errors: { "": problems }, locales: [] }, { status: 422 });
  const checked = checkDocument(data, schema, validate, context.config.DEFAULT_LOCALE);
  if (!checked.ok) return Response.json({ error: checked.message, errors: checked.errors.byField, locales: checked.errors.locales }, { status: checked.status });
  const media = await checkMediaReferences(context.db, context.media.storage, {
    user, bucket, schema, value: checked.value, tokens: [], staged: [], messageLocale: context.config.DEFAULT_LOCALE,
  });
  if (Object.keys(media.errors).length) return Response.json({ error: INVALID_CONTENT, errors: media.errors, locales: [] }, { status: 422 });
  try {
    const outcome = await saveDocument(context, user, bucket, { contentId, baseVersionId, data: checked.value });
    if (!outcome.ok) return Response.json({ error: outcome.message, errors: outcome.errors.byField, locales: outcome.errors.locales }, { status: outcome.status });
    return Response.json(toDocument(outcome.version), { status: contentId ? 200 : 201 });
  } catch (error) {
    if (error instanceof VersionConflictError) return conflict(error.latestVersionId);
    if (error instanceof PendingUploadTaken) return conflict(null);
    if (error instanceof ContentNotFoundError) return jsonError(error.message, 404);
    throw error;
  }
}
