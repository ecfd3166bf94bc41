import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import type { Bucket } from "./buckets";
import type { Author, User } from "@server/accounts/users";
import type { Db, Queryable } from "@server/db/client";
import type { MediaServices } from "@server/services";
import { checkUpload, type MediaFacts } from "@server/media/accept";
import type { FormFilePart } from "@server/media/form-upload";
import { mediaReferences } from "@server/media/form-upload";
import type { StagedMedia } from "@server/media/intake";
import {
  bucketField,
  committedContentIds,
  findPending,
  holdsSecret,
  parsePendingToken,
  pendingFileOf,
  stagedFromPending,
  stashPending,
} from "@server/media/pending";
import type { MediaStorage } from "@server/media/storage";
import { checkChosenMedia, type Chooser } from "@server/media/library-pick";
import type { ReceivedFile } from "@server/media/upload";
import { tooLargeMessage } from "@core/media/bounds";
import { translateMessage } from "@core/messages";
import { errorText, HttpError } from "@server/errors";
import type { Locale } from "@core/locales";
import type { PendingFile } from "@core/media/pending";
import { translate } from "@core/messages";
import type { JsonSchema } from "@core/schema/normalize";

/* The media side of a form post's validation, between reading it and saving it (server/content/save-form.ts). */

/** A checked file of this post, under the media contentId its field now holds. */
export interface StagedFormFile {
  /** Its temporary file. */
  path: string;
  facts: MediaFacts;
  contentId: string;
  name: string;
}

type FieldErrors = Record<string, string[]>;
const add = (errors: FieldErrors, name: string, message: string) => void (errors[name] ??= []).push(message);

/**
 * The checks of the post's files that only read them (size, type by content,
 * image header or ffprobe, the field's bounds): part of the form's
 * validation. A checked file's field gets the contentId the file will have;
 * a refused one keeps its value, gets the message (in `locale`) under it and
 * its temporary file is removed.
 */
export async function checkFormFiles(
  files: ReadonlyArray<ReceivedFile<FormFilePart>>,
  formData: FormData,
  media: MediaServices,
  locale: Locale,
) {
  const staged: StagedFormFile[] = [];
  const errors: FieldErrors = {};
  for (const { tag: part, file, tooLarge } of files) {
    if (tooLarge !== undefined) {
      add(errors, part.name, translateMessage(locale, tooLargeMessage(tooLarge)));
      continue;
    }
    try {
      const facts = await checkUpload({ kind: part.kind, file, property: part.property }, media.ffmpeg);
      const contentId = randomUUID();
      staged.push({ path: file.temporaryPath, facts, contentId, name: part.name });
      formData.set(part.name, contentId);
    } catch (error) {
      await media.storage.remove(file.temporaryPath);
      if (!(error instanceof HttpError)) throw error;
      add(errors, part.name, errorText(error, locale));
    }
  }
  return { staged, errors };
}

/** Removes the temporary files of a post that will not use them. */
export async function discardFiles(storage: MediaStorage, files: ReadonlyArray<{ path: string }>): Promise<void> {
  await Promise.all(files.map((file) => storage.remove(file.path)));
}

export interface MediaReferenceCheck {
  /** Pending uploads the document references, its owner's: committed by the save. */
  pending: Array<StagedMedia & { contentId: string }>;
  /** What the re-rendered form shows of them (and keeps the tokens of). */
  shown: PendingFile[];
  errors: FieldErrors;
}

/**
 * The document's media values against the pending uploads: a value that is
 * a pending upload's contentId needs that upload's token in the post, from
 * the same user, bucket and field (anything else is refused under the field);
 * a token whose upload was swept is reported under the field that still holds
 * its contentId. Other values (and uploads another save committed meanwhile)
 * are media items: one the document did not use yet must be visible to the
 * user and fit its field (server/media/library-pick.ts).
 */
export async function checkMediaReferences(
  db: Queryable,
  storage: MediaStorage,
  input: {
    user: Author & Chooser;
    bucket: Bucket;
    /** The saved document, when it exists: the items it uses already are not checked again. */
    documentId?: string | null;
    schema: JsonSchema;
    value: unknown;
    tokens: readonly string[];
    staged: readonly StagedFormFile[];
    locale: Locale;
  },
): Promise<MediaReferenceCheck> {
  const gone = translate(input.locale, "pendingUpload.gone");
  const refused = translate(input.locale, "pendingUpload.refused");
  const secrets = new Map<string, string>();
  for (const token of input.tokens) {
    const parsed = parsePendingToken(token);
    if (parsed) secrets.set(parsed.contentId, parsed.secret);
  }
  const fresh = new Set(input.staged.map((file) => file.contentId));
  const references = mediaReferences(input.schema, input.value)
    .map((reference) => ({ ...reference, contentId: reference.contentId.toLowerCase() }))
    .filter((reference) => !fresh.has(reference.contentId));
  const rows = new Map(
    (
      await findPending(
        db,
        references.map((reference) => reference.contentId),
      )
    ).map((row) => [row.contentId, row]),
  );
  // A token without its upload: swept (gone), or committed by another save of this form (a double submit).
  const tokenOnly = references.filter(({ contentId }) => !rows.has(contentId) && secrets.has(contentId)).map(({ contentId }) => contentId);
  const committed = await committedContentIds(db, tokenOnly);
  const check: MediaReferenceCheck = { pending: [], shown: [], errors: {} };
  const seen = new Set<string>();
  const stored: typeof references = [];
  for (const reference of references) {
    const { name, contentId } = reference;
    const row = rows.get(contentId);
    const secret = secrets.get(contentId);
    if (!row) {
      if (secret === undefined) stored.push(reference);
      if (secret === undefined || committed.has(contentId)) continue;
      add(check.errors, name, gone);
      if (!seen.has(contentId)) check.shown.push({ token: `${contentId}.${secret}`, contentId, kind: null, originalFilename: null });
    } else if (
      secret !== undefined &&
      holdsSecret(row, secret) &&
      row.userId === input.user.id &&
      row.bucketId === input.bucket.id &&
      row.field === bucketField(name)
    ) {
      if (!seen.has(contentId)) {
        check.pending.push(stagedFromPending(storage, row));
        check.shown.push(pendingFileOf(row, secret));
      }
    } else {
      add(check.errors, name, refused);
    }
    seen.add(contentId);
  }
  const chosen = await checkChosenMedia(db, {
    chooser: input.user,
    documentId: input.documentId ?? null,
    references: stored,
    locale: input.locale,
  });
  for (const [name, messages] of Object.entries(chosen)) for (const message of messages) add(check.errors, name, message);
  return check;
}

/**
 * Keeps the checked files of a post that did not save, if its form still
 * shows them: pending, for its next save. The others are removed.
 */
export async function keepAsPending(
  db: Db,
  storage: MediaStorage,
  staged: readonly StagedFormFile[],
  shownValue: unknown,
  schema: JsonSchema,
  owner: { user: User; bucket: Bucket },
): Promise<PendingFile[]> {
  const shown = new Set(mediaReferences(schema, shownValue).map((reference) => reference.contentId));
  const kept = staged.filter((file) => shown.has(file.contentId));
  await discardFiles(
    storage,
    staged.filter((file) => !shown.has(file.contentId)),
  );
  return stashPending(db, storage, kept, { bucketId: owner.bucket.id, userId: owner.user.id });
}

/**
 * Marks fields as validated in a re-rendered form's reply, so that Conform shows their errors: a refused
 * file's message under its field after an intent ('Upload' without JavaScript, a list button), which
 * otherwise leaves the fields it did not touch unvalidated and their errors hidden.
 */
export function showErrorsOf(result: SubmissionResult, fields: readonly string[]): SubmissionResult {
  if (!fields.length) return result;
  const validated = { ...(result.state?.validated ?? {}) };
  for (const name of fields) validated[name] = true;
  return { ...result, state: { ...result.state, validated } };
}
