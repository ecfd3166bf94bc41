import type { AppLoadContext } from "react-router";
import type { Bucket } from "./buckets";
import {
  ContentNotFoundError, createContent, getSingletonContent, getVersion, saveVersion, type ContentVersion,
} from "./store";
import { hasPermission, type User } from "../accounts/users";
import { inspectPayload } from "../../core/content/payload";
import { changedTextIds, TEXT_IDS_MESSAGE } from "../../core/content/texts-rule";
import type { JsonSchema } from "../../core/schema/normalize";
import { isUuid } from "../../core/ids";
import { mapValidationErrors, type FieldErrors } from "../../core/schema/errors";
import { compileBucketSchema } from "./validator";

export const SINGLETON_TAKEN = "This singleton bucket already has its document: save it with its contentId and _id";

export type SaveOutcome =
  | { ok: true; version: ContentVersion }
  | { ok: false; status: 400 | 403 | 409 | 422; errors: FieldErrors; message: string };

export function splitDocument(document: Record<string, unknown>) {
  const { _id, contentId, language, ...data } = document;
  return {
    baseVersionId: typeof _id === "string" ? _id : undefined,
    contentId: typeof contentId === "string" ? contentId : undefined,
    language: typeof language === "string" ? language : undefined,
    data,
  };
}

/** The document as exhibit apps and the API see it: data plus _id and contentId. */
export function toDocument(version: ContentVersion) {
  return { ...version.data, _id: version.versionId, contentId: version.contentId };
}

/**
 * Validates and saves one document of a bucket: a new document without
 * contentId, else a new version on top of the version it started from.
 * Throws VersionConflictError / ContentNotFoundError from the service.
 */
export async function saveDocument(
  context: AppLoadContext,
  user: User,
  bucket: Bucket,
  input: { contentId?: string; baseVersionId?: string; data: unknown },
): Promise<SaveOutcome> {
  const empty: FieldErrors = { byField: {}, locales: [] };
  if (typeof input.data !== "object" || input.data === null || Array.isArray(input.data)) {
    return { ok: false, status: 400, errors: empty, message: "content must be a JSON object" };
  }
  const problem = inspectPayload(input.data);
  if (problem) {
    return { ok: false, status: problem.status, errors: { byField: { [problem.field]: [problem.message] }, locales: [] }, message: problem.message };
  }
  const compiled = compileBucketSchema(bucket);
  if (!compiled.validate) {
    return { ok: false, status: 422, errors: { byField: { "": compiled.problems }, locales: [] }, message: compiled.problems.join("; ") };
  }
  const data = input.data as Record<string, unknown>;
  if (!compiled.validate(data)) {
    const errors = mapValidationErrors(compiled.validate.errors, compiled.schema, context.config.DEFAULT_LOCALE);
    return { ok: false, status: 422, errors, message: "The content is not valid" };
  }
  const mayEditTextIds = hasPermission(user, "admin") || hasPermission(user, "dev");
  if (!mayEditTextIds && !input.contentId) {
    const refused = textIdsRefusal(compiled.schema, undefined, data);
    if (refused) return refused;
  }
  if (input.contentId) {
    // Ids are checked before any query: a malformed contentId is simply not found (as in URLs), a malformed _id is
    // a bad request; neither reaches the database as a uuid it cannot parse.
    if (!isUuid(input.contentId)) throw new ContentNotFoundError(input.contentId);
    if (!input.baseVersionId) return { ok: false, status: 400, errors: empty, message: "_id (the version this save started from) is required" };
    if (!isUuid(input.baseVersionId)) {
      return { ok: false, status: 400, errors: empty, message: "_id (the version this save started from) is not a version id" };
    }
    if (!mayEditTextIds) {
      const base = await getVersion(context.db, bucket.id, input.contentId, input.baseVersionId);
      const refused = base ? textIdsRefusal(compiled.schema, base.data, data) : null;
      if (refused) return refused;
    }
    const version = await saveVersion(context.db, {
      bucketId: bucket.id,
      contentId: input.contentId,
      baseVersionId: input.baseVersionId,
      data,
      userId: user.id,
    });
    return { ok: true, version };
  }
  const singletonTaken = { ok: false as const, status: 409 as const, errors: empty, message: SINGLETON_TAKEN };
  if (bucket.singleton && (await getSingletonContent(context.db, bucket.id))) return singletonTaken;
  try {
    return { ok: true, version: await createContent(context.db, bucket.id, data, user.id, { singleton: bucket.singleton }) };
  } catch (error) {
    // Two first saves of a singleton raced: the unique index let one in.
    if (bucket.singleton && (error as { code?: string }).code === "23505") return singletonTaken;
    throw error;
  }
}

function textIdsRefusal(schema: JsonSchema, before: unknown, after: unknown): SaveOutcome | null {
  const field = changedTextIds(schema, before, after);
  if (field === null) return null;
  return { ok: false, status: 403, errors: { byField: { [field]: [TEXT_IDS_MESSAGE] }, locales: [] }, message: TEXT_IDS_MESSAGE };
}
