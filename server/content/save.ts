import type { Bucket } from "./buckets";
import { checkMediaReferences, type MediaReferenceCheck } from "./save-media";
import { checkSave, singletonTaken, type SaveRefusal } from "./save-rules";
import { createContent, saveVersion, type ContentVersion, type VersionMerge } from "./store";
import { compileBucketSchema } from "./validator";
import type { Author } from "@server/accounts/users";
import type { Db, Queryable } from "@server/db/client";
import type { JobRunner } from "@server/jobs/runner";
import { kickJobs, placeMedia, recordMedia, type StagedMedia } from "@server/media/intake";
import { claimPending, PendingUploadTaken } from "@server/media/pending";
import type { MediaStorage } from "@server/media/storage";
import { checkDocument, INVALID_CONTENT } from "@core/form/resolve";
import type { Locale } from "@core/locales";
import type { ScreenTable } from "@core/content/screen-table";
import { translateMessage } from "@core/messages";

/*
 * The one front door of every save. The edit form (save-form.ts), the bucket-form modal and the JSON API
 * (save-json.ts), restoring a version (history.ts), the demo seed (seed.ts) and the CLI's save-document are
 * adapters that read their input and call saveDocument, which runs:
 *   validate once (the bucket's validator; the form's resolver already did, with the same checkDocument rules)
 *   → media references (pending uploads are the poster's own, in their own field)
 *   → the server's rules (save-rules.ts: ids, text ids, a trend related to itself, a screen's rule, a singleton)
 *   → write (files into the store, media rows and jobs, pending uploads taken, then the document, in one transaction).
 * A new save rule goes in save-rules.ts, or in core/ when the browser checks it too.
 */

/** What a save writes with: Services as the web layer has them, or the seed's own transaction and media store. */
export interface SaveDeps {
  /** A Db, or a transaction already open (the seed's), which the save joins. */
  db: Db | Queryable;
  media: { storage: MediaStorage; jobs?: Pick<JobRunner, "kick"> };
  logger?: { info(facts: object, message: string): void };
  /** The specialised screens' table: the rules of the bucket's screen run with the field kinds'. */
  screens: ScreenTable;
}

export interface SaveRequest {
  actor: Author;
  bucket: Bucket;
  /** The language of a refusal's messages: the actor's interface language. */
  locale: Locale;
  /** An existing document (with the version the edit started from), or none for a new one. */
  contentId?: string;
  baseVersionId?: string;
  /** A new document's chosen contentId (the demo seed's documents refer to each other). */
  newContentId?: string;
  /** A merged save (server/content/merge-save.ts): recorded with the version. */
  merge?: VersionMerge;
  /**
   * The document's data: a payload to validate, or data the edit form's resolver validated already
   * (core/form/resolve.ts resolveDocument: the same validator and the same limits as checkDocument).
   */
  document: { payload: unknown } | { validated: Record<string, unknown> };
  /** A form post's files: the new ones the document references, and its media check (with its pending uploads). */
  upload?: { files: readonly StagedMedia[]; references: MediaReferenceCheck };
  /**
   * Runs first in the document's transaction (inline sub-forms and a duplicate's copies are written there, so the
   * parent and its sub-documents are saved together or not at all) and answers values the document's data takes over.
   */
  before?: (tx: Queryable) => Promise<Record<string, unknown>>;
}

export type SaveResult = { ok: true; version: ContentVersion; created: boolean } | SaveRefusal;

/**
 * Saves a document: a new one without contentId, else a new version on top of the version it started from. Throws
 * the domain's errors for the caller's layer to answer: ContentNotFoundError, VersionConflictError (someone saved
 * since) and PendingUploadTaken (another post saved these uploads first). On any failure the files go back where
 * they were and nothing is written.
 */
export async function saveDocument(deps: SaveDeps, request: SaveRequest): Promise<SaveResult> {
  const { actor, bucket, locale } = request;
  const checked = validateOnce(request);
  if (!checked.ok) return checked;
  const data = checked.data;
  const references =
    request.upload?.references ??
    (await checkMediaReferences(deps.db, deps.media.storage, {
      user: actor,
      bucket,
      documentId: request.contentId ?? null,
      schema: compileBucketSchema(bucket).schema,
      value: data,
      tokens: [],
      staged: [],
      locale,
    }));
  if (Object.keys(references.errors).length) {
    return {
      ok: false,
      status: 422,
      message: translateMessage(locale, INVALID_CONTENT),
      errors: { byField: references.errors, locales: [] },
    };
  }
  const target = { contentId: request.contentId, baseVersionId: request.baseVersionId, data };
  const refused = await checkSave(deps.db, actor, bucket, target, locale, deps.screens);
  if (refused) return refused;
  const media = [...(request.upload?.files ?? []), ...references.pending];
  const pendingIds = references.pending.map((item) => item.contentId);
  const { placed, undo } = await placeMedia(deps.media.storage, media).catch((error: unknown) => {
    // Another save of the same pending uploads moved their files first.
    if ((error as { code?: string }).code === "ENOENT" && pendingIds.length) throw new PendingUploadTaken();
    throw error;
  });
  const { before } = request;
  const write = { ...target, newContentId: request.newContentId, merge: request.merge };
  try {
    // Without media the document is one statement (its own transaction): a BEGIN and COMMIT more are two round
    // trips per save, which count on PGlite.
    const version =
      media.length || before
        ? await inTransaction(deps.db, async (tx) => {
            const written = before ? { ...write, data: { ...data, ...(await before(tx)) } } : write;
            await recordMedia(tx, placed, { bucketId: bucket.id, userId: actor.id });
            await claimPending(tx, pendingIds);
            return writeDocument(tx, bucket, actor, written);
          })
        : await writeDocument(deps.db, bucket, actor, write);
    kickJobs(
      deps.media,
      media.map((item) => item.facts.kind),
    );
    if (media.length)
      deps.logger?.info({ contentId: version.contentId, media: media.map((item) => item.contentId) }, "media saved with the document");
    return { ok: true, version, created: !request.contentId };
  } catch (error) {
    await undo();
    // Two first saves of a singleton raced: the unique index let one in.
    if (bucket.singleton && !request.contentId && (error as { code?: string }).code === "23505") return singletonTaken(locale);
    throw error;
  }
}

/** The request's data, validated unless the form's resolver did; or the refusal. */
function validateOnce(request: SaveRequest): { ok: true; data: Record<string, unknown> } | SaveRefusal {
  if ("validated" in request.document) return { ok: true, data: request.document.validated };
  const { schema, validate, problems } = compileBucketSchema(request.bucket);
  // A schema that does not compile refuses every save until an admin fixes it.
  if (!validate) return { ok: false, status: 422, message: problems.join("; "), errors: { byField: { "": problems }, locales: [] } };
  const checked = checkDocument(request.document.payload, schema, validate, request.locale);
  return checked.ok ? { ok: true, data: checked.value } : checked;
}

/** The save joins a transaction already open (a Queryable without its own), else opens one. */
const inTransaction = <T>(db: Db | Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> =>
  "transaction" in db ? db.transaction(fn) : fn(db);

/**
 * A new document, or a new version on top of its base (checkSave made sure a contentId comes with one). Only the
 * front door and the documents written inside its transaction (inline sub-forms, a duplicate's copies) call this.
 */
export function writeDocument(
  tx: Queryable,
  bucket: Bucket,
  actor: Author,
  input: { contentId?: string; baseVersionId?: string; newContentId?: string; data: Record<string, unknown>; merge?: VersionMerge },
): Promise<ContentVersion> {
  const { contentId, baseVersionId = "", data } = input;
  // Each version records the schema version it was validated against: the bucket's as the request loaded it.
  const { schemaVersionId } = bucket;
  if (!contentId)
    return createContent(tx, bucket.id, data, actor.id, { singleton: bucket.singleton, schemaVersionId, contentId: input.newContentId });
  return saveVersion(tx, { bucketId: bucket.id, contentId, baseVersionId, data, userId: actor.id, schemaVersionId, merge: input.merge });
}
