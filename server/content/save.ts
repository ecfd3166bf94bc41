import type { Services } from "@server/services";
import type { Bucket } from "./buckets";
import { ContentNotFoundError, createContent, getSingletonContent, getVersion, saveVersion, type ContentVersion } from "./store";
import { hasPermission, type Author } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { kickJobs, placeMedia, recordMedia, type StagedMedia } from "@server/media/intake";
import { claimPending, PendingUploadTaken } from "@server/media/pending";
import { changedTextIds, schemaHasTextIds, TEXT_IDS_MESSAGE } from "@core/content/texts-rule";
import { selfReferencingField } from "@core/content/trends";
import type { JsonSchema } from "@core/schema/normalize";
import { isUuid } from "@core/ids";
import type { FieldErrors } from "@core/schema/errors";
import { compileBucketSchema } from "./validator";
import { translate, type MessageKey, type MessageParams } from "@core/messages";
import { screenFieldErrors } from "@core/content/availability";
import type { Locale } from "@core/locales";

export type SaveRefusal = { ok: false; status: 400 | 403 | 409 | 422 | 500; errors: FieldErrors; message: string };
export type SaveOutcome = { ok: true; version: ContentVersion } | SaveRefusal;

/** A validated document to save, with the media files it commits (new uploads and pending ones). */
export interface SaveInput {
  contentId?: string;
  baseVersionId?: string;
  data: Record<string, unknown>;
  media?: readonly StagedMedia[];
  /** contentIds of the pending uploads among `media`, whose rows the save removes. */
  pendingIds?: readonly string[];
  /** The language of the refusal's messages: the editor's interface language (the default locale when not given). */
  messageLocale?: Locale;
}

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

/** A refusal of the save, in the words of the validation messages (the editor's interface language). */
function refusal(locale: Locale, status: SaveRefusal["status"], key: MessageKey, field?: string, params?: MessageParams): SaveRefusal {
  const message = translate(locale, key, params);
  return { ok: false, status, errors: { byField: field === undefined ? {} : { [field]: [message] }, locales: [] }, message };
}

const singletonTaken = (locale: Locale) => refusal(locale, 409, "content.singletonTaken");

const messageLocaleOf = (context: Services, input: SaveInput): Locale => input.messageLocale ?? context.config.DEFAULT_LOCALE;

export interface SaveOptions {
  /**
   * Runs first in the document's transaction (inline sub-forms: their documents are written there, so the parent
   * and its sub-documents are saved together or not at all) and answers values the document's data takes over.
   */
  before?: (tx: Queryable) => Promise<Record<string, unknown>>;
}

/**
 * The checks of a save that only the server can make, on a document already
 * validated: the ids (a malformed contentId is simply not found, as in URLs:
 * ContentNotFoundError; a missing or malformed _id is a bad request; neither
 * reaches the database as a uuid it cannot parse), who may change text ids,
 * a trend related to itself, and the one document of a singleton bucket.
 * `db` is where it reads: a transaction that is writing reads there (PGlite runs one statement at a time).
 */
export async function checkSave(
  context: Services,
  user: Author,
  bucket: Bucket,
  input: SaveInput,
  db: Queryable = context.db,
): Promise<SaveRefusal | null> {
  const { schema } = compileBucketSchema(bucket);
  const mayEditTextIds = hasPermission(user, "admin") || hasPermission(user, "dev");
  const locale = messageLocaleOf(context, input);
  // A screen's own rule (a learning session's end before its start): the form's resolver says it first; the API
  // meets it here.
  const [field, messages] = Object.entries(screenFieldErrors(bucket.screen, input.data))[0] ?? [];
  if (field && messages?.[0]) return refusal(locale, 400, messages[0].key, field, messages[0].params);
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
  // A trend related to itself (a trend-select field of the document's own collection naming it).
  const self = selfReferencingField(schema, bucket.collectionName, input.contentId, input.data);
  if (self !== null) return refusal(locale, 422, "trendScreen.errors.selfReference", self);
  // The base version is read only when the schema has text ids to compare.
  if (!mayEditTextIds && schemaHasTextIds(schema)) {
    const base = await getVersion(db, bucket.id, input.contentId, input.baseVersionId);
    return base ? textIdsRefusal(locale, schema, base.data, input.data) : null;
  }
  return null;
}

/**
 * Saves a validated document: a new document without contentId, else a new
 * version on top of the version it started from. Its media files move into
 * the store, and one transaction records them (rows, video jobs), takes the
 * pending ones and writes the document; the job runner is kicked after. On
 * any failure the files go back where they were. Throws VersionConflictError
 * / ContentNotFoundError from the store.
 */
export async function saveDocument(
  context: Services,
  user: Author,
  bucket: Bucket,
  input: SaveInput,
  options: SaveOptions = {},
): Promise<SaveOutcome> {
  const refusal = await checkSave(context, user, bucket, input);
  if (refusal) return refusal;
  const media = input.media ?? [];
  const { placed, undo } = await placeMedia(context.media.storage, media).catch((error: unknown) => {
    // Another save of the same pending uploads moved their files first.
    if ((error as { code?: string }).code === "ENOENT" && input.pendingIds?.length) throw new PendingUploadTaken();
    throw error;
  });
  try {
    // Without media the document is one statement (its own transaction): a BEGIN and COMMIT more are two round
    // trips per save, which count on PGlite.
    const { before } = options;
    const version =
      media.length || before
        ? await context.db.transaction(async (tx) => {
            const data = before ? { ...input.data, ...(await before(tx)) } : input.data;
            await recordMedia(tx, placed, { bucketId: bucket.id, userId: user.id });
            await claimPending(tx, input.pendingIds ?? []);
            return writeDocument(tx, bucket, user, { ...input, data });
          })
        : await writeDocument(context.db, bucket, user, input);
    kickJobs(
      context.media,
      media.map((item) => item.facts.kind),
    );
    if (media.length)
      context.logger.info({ contentId: version.contentId, media: media.map((item) => item.contentId) }, "media saved with the document");
    return { ok: true, version };
  } catch (error) {
    await undo();
    // Two first saves of a singleton raced: the unique index let one in.
    if (bucket.singleton && !input.contentId && (error as { code?: string }).code === "23505")
      return singletonTaken(messageLocaleOf(context, input));
    throw error;
  }
}

/** A new document, or a new version on top of its base (checkSave made sure a contentId comes with one). */
export function writeDocument(tx: Queryable, bucket: Bucket, user: Author, input: SaveInput): Promise<ContentVersion> {
  const { contentId, baseVersionId = "", data } = input;
  // Each version records the schema version it was validated against: the bucket's as the request loaded it.
  const { schemaVersionId } = bucket;
  if (!contentId) return createContent(tx, bucket.id, data, user.id, { singleton: bucket.singleton, schemaVersionId });
  return saveVersion(tx, { bucketId: bucket.id, contentId, baseVersionId, data, userId: user.id, schemaVersionId });
}

function textIdsRefusal(locale: Locale, schema: JsonSchema, before: unknown, after: unknown): SaveRefusal | null {
  const field = changedTextIds(schema, before, after);
  return field === null ? null : refusal(locale, 403, TEXT_IDS_MESSAGE.key, field);
}
