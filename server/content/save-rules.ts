import type { Bucket } from "./buckets";
import { ContentNotFoundError, getSingletonContent, getVersion } from "./store";
import { compileBucketSchema } from "./validator";
import { hasPermission, type Author } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { documentRuleFindings } from "@core/content/document-rules";
import type { ScreenTable } from "@core/content/screen-table";
import { changedTextIds, schemaHasTextIds, TEXT_IDS_MESSAGE } from "@core/content/texts-rule";
import type { FieldErrors } from "@core/schema/errors";
import type { JsonSchema } from "@core/schema/normalize";
import { isUuid } from "@core/ids";
import type { Locale } from "@core/locales";
import { translate, type MessageKey, type MessageParams } from "@core/messages";

/*
 * The rules of a save that only the server can check, on a document already validated (server/content/save.ts
 * runs them for every save; inline sub-forms and a duplicate's copies run them for their own documents). A rule
 * the browser can check too belongs in core/ and the bucket's validator or the form's resolver instead.
 */

/** A save that did not happen, in the words of the validation messages (the editor's interface language). */
export type SaveRefusal = { ok: false; status: 400 | 403 | 409 | 422 | 500; errors: FieldErrors; message: string };

/** A refusal with one message, under `field` when given. */
export function refusal(
  locale: Locale,
  status: SaveRefusal["status"],
  key: MessageKey,
  field?: string,
  params?: MessageParams,
): SaveRefusal {
  const message = translate(locale, key, params);
  return { ok: false, status, errors: { byField: field === undefined ? {} : { [field]: [message] }, locales: [] }, message };
}

export const singletonTaken = (locale: Locale) => refusal(locale, 409, "content.singletonTaken");

/** Which document a save writes and with what data. */
export interface SaveTarget {
  contentId?: string;
  baseVersionId?: string;
  data: Record<string, unknown>;
}

/**
 * The screens' and field kinds' rules (core/content/document-rules.ts), the ids (a malformed contentId is simply
 * not found, as in URLs: ContentNotFoundError; a missing or malformed _id is a bad request; neither reaches the
 * database as a uuid it cannot parse), who may change text ids and the one document of a singleton bucket. `db` is where it
 * reads: a transaction that is writing reads there (PGlite runs one statement at a time).
 */
export async function checkSave(
  db: Queryable,
  actor: Author,
  bucket: Bucket,
  input: SaveTarget,
  locale: Locale,
  screens: ScreenTable,
): Promise<SaveRefusal | null> {
  const { schema } = compileBucketSchema(bucket);
  const mayEditTextIds = hasPermission(actor, "admin") || hasPermission(actor, "dev");
  // The screens' and field kinds' own rules (core/content/document-rules.ts): the form's resolver says those it can
  // first; the API and every other door meet them here. A malformed contentId is no document's (refused below).
  const contentId = input.contentId && isUuid(input.contentId) ? input.contentId : undefined;
  const rules = { screen: bucket.screen, schema, collection: bucket.collectionName, contentId, data: input.data };
  const [found] = documentRuleFindings(rules, "all", screens);
  if (found) return refusal(locale, found.status, found.message.key, found.field, found.message.params);
  if (!input.contentId) {
    if (!mayEditTextIds) {
      const refused = textIdsRefusal(locale, schema, undefined, input.data);
      if (refused) return refused;
    }
    return bucket.singleton && (await getSingletonContent(db, bucket.id)) ? singletonTaken(locale) : null;
  }
  if (!isUuid(input.contentId)) throw new ContentNotFoundError(input.contentId);
  if (!input.baseVersionId) return refusal(locale, 400, "content.baseVersionMissing");
  if (!isUuid(input.baseVersionId)) return refusal(locale, 400, "content.baseVersionMalformed");
  // The base version is read only when the schema has text ids to compare.
  if (!mayEditTextIds && schemaHasTextIds(schema)) {
    const base = await getVersion(db, bucket.id, input.contentId, input.baseVersionId);
    return base ? textIdsRefusal(locale, schema, base.data, input.data) : null;
  }
  return null;
}

function textIdsRefusal(locale: Locale, schema: JsonSchema, before: unknown, after: unknown): SaveRefusal | null {
  const field = changedTextIds(schema, before, after);
  return field === null ? null : refusal(locale, 403, TEXT_IDS_MESSAGE.key, field);
}
