import { parse, type Submission, type SubmissionResult } from "@conform-to/react";
import type { Bucket } from "./buckets";
import { referenceReply, type ReferenceReply } from "./references";
import { saveDocument } from "./save";
import type { SaveRefusal } from "./save-rules";
import { ContentNotFoundError, VersionConflictError, type ContentVersion } from "./store";
import {
  checkFormFiles,
  checkMediaReferences,
  discardFiles,
  keepAsPending,
  showErrorsOf,
  type MediaReferenceCheck,
  type StagedFormFile,
} from "./save-media";
import { compileBucketSchema } from "./validator";
import { checkSubDocuments, SubFormSaveError, subFormRefusal, writeSubDocuments } from "./save-subforms";
import { subFormBuckets, subFormChecks, type SubFormBucket } from "./subforms";
import { asNewSubDocuments, InlineCopyError, inlineCopyRefusal, ownedInlineDocuments, writeDuplicateDocuments } from "./duplicate";
import type { User } from "@server/accounts/users";
import { mediaReferences, type FormPost } from "@server/media/form-upload";
import { applyMediaEdit } from "@server/media/form-edits";
import { PendingUploadTaken } from "@server/media/pending";
import { mediaKindOfSchema } from "@core/form/field-kind";
import { removeHostileEntries } from "@core/form/hostile";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD } from "@core/form/resolve";
import { takeReferenceSearch } from "@core/form/reference-search";
import { OPEN_NEW_SUBFORM_FIELD, OPEN_SUBFORM_FIELD, RETURN_FIELD, subFormResolver, takeSubDocuments } from "@core/form/subforms";
import { createDraft, leaveForSubForm, pickForDraft } from "./drafts";
import { leaveForLibrary, leaveForOwnTexts } from "@server/media/library-pick";
import { kickJobs } from "@server/media/intake";
import { CHOOSE_FROM_LIBRARY_FIELD, USE_TEXTS_FIELD } from "@core/media/wire";
import { newDocumentPath } from "@core/content/screens";
import { HttpError } from "@server/errors";
import { applyFormIntents, type IntentEffects } from "@core/form/intents";
import { schemaAtName } from "@core/schema/walk";
import { PENDING_UPLOAD_FIELD, type PendingFile } from "@core/media/pending";
import { MEDIA_UPLOAD_FIELD } from "@core/media/wire";
import type { JsonSchema } from "@core/schema/normalize";
import type { Locale } from "@core/locales";
import type { Services } from "@server/services";
import { isUuid } from "@core/ids";
import { storedFormValue } from "@core/form/kinds";
import type { MergeConflicts } from "@core/content/merge";
import { saveMerged, shownValue, takeChosenTheirs, takeMergeChoices, type MergedSave } from "./merge-save";

/*
 * The edit form's adapter to the front door (server/content/save.ts): how a form post becomes a saved document:
 *   read (urlencoded, or multipart with its files in temporary files only)
 *   → hostile check (400, the temporary files removed: nothing written)
 *   → intents (the field kinds' no-JavaScript buttons: core/form/intents.ts; the 'Upload' button, a media field's
 *     crop and thumbnail; Conform's list intents)
 *   → validate once (the files' read-only checks, Conform with resolveDocument, the pending uploads)
 *   → save (the front door, server/content/save.ts: the server's rules, then files, media rows, jobs and the document).
 * A post that does not save re-renders with its input; its checked files wait as pending uploads.
 */

const CONFORM_INTENT = "__intent__";

/** What the re-rendered form gets besides its input and errors (and what the field kinds' intents hand it). */
export interface FormReply extends IntentEffects {
  result: SubmissionResult;
  notice: "invalid" | "conflict" | "merge" | null;
  /** A stale save both sides changed the same fields of: who saved the newest, and each field with both values. */
  merge?: MergeConflicts;
  latestVersionId: string | null;
  /**
   * The version the post was based on, for a form that comes back unsaved (an intent without JavaScript, a refused
   * save): it stays the form's base, so that a save made meanwhile by someone else is still a conflict.
   */
  baseVersionId?: string | null;
  pending: PendingFile[];
  /** A popup sub-form's draft this page returns to after its save (server/content/drafts.ts). */
  returnToken?: string;
  /** The posted references' titles and a reference search's results (server/content/references.ts). */
  references?: ReferenceReply;
}

export type FormSubmission =
  | {
      saved: true;
      version: ContentVersion;
      /** The form a popup sub-form without JavaScript returns to. */
      returnTo: string | null;
      /** Saved by merging with a version someone else saved meanwhile (its page says whose changes were taken). */
      merged: boolean;
    }
  | { saved: false; status: number; reply: FormReply }
  /** A popup sub-form's button without JavaScript: the input kept as a draft, the referenced document's page next. */
  | { saved: false; leaveTo: string };

function takeAll(formData: FormData, name: string): string[] {
  const values = formData.getAll(name).filter((value): value is string => typeof value === "string");
  formData.delete(name);
  return values;
}

/** 'Upload' without JavaScript shows the chosen file without saving: Conform's update intent of its field does that. */
function applyUploadIntent(formData: FormData, field: string | undefined, schema: JsonSchema): void {
  const property = field ? schemaAtName(schema, field) : null;
  if (!field || !property || !mediaKindOfSchema(property) || formData.has(CONFORM_INTENT)) return;
  const value = formData.get(field);
  formData.set(CONFORM_INTENT, JSON.stringify({ type: "update", payload: { name: field, value: typeof value === "string" ? value : "" } }));
}

const hasErrors = (errors: Record<string, string[]>) => Object.keys(errors).length > 0;

/** A text field of the post ("" when missing). */
const textField = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
};

/** What a post saves besides the form: a duplicate names its original, whose inline sub-documents it copies. */
export interface SubmitOptions {
  duplicateOf?: string;
}

/**
 * Runs the pipeline on a bucket edit form post (read by readFormPost, its files staged). Throws
 * ContentNotFoundError for a document that is not there. `target.locale` is the editor's interface language: every
 * message under the form's fields, the files' included, is in it (the configured default locale unless the editor
 * chose another, spec §5), so a page never mixes two. `target.path` is the page's path (where a sub-form returns to).
 */
export async function submitBucketForm(
  context: Services,
  post: FormPost,
  target: { user: User; bucket: Bucket; locale: Locale; path: string },
  options: SubmitOptions = {},
): Promise<FormSubmission> {
  const { user, bucket, locale } = target;
  const { schema, validate } = compileBucketSchema(bucket);
  const messageLocale = locale;
  const { storage } = context.media;
  const { formData } = post;
  const referenceSearch = takeReferenceSearch(formData, schema);
  const tokens = takeAll(formData, PENDING_UPLOAD_FIELD);
  const mergeChoices = takeMergeChoices(formData);
  // Popup sub-forms without JavaScript: the button that leaves for the referenced document's page, and the token
  // of the form this page returns to after its save.
  const openSubForm = takeAll(formData, OPEN_SUBFORM_FIELD)[0];
  const openNewSubForm = takeAll(formData, OPEN_NEW_SUBFORM_FIELD)[0];
  const returnToken = takeAll(formData, RETURN_FIELD)[0];
  // A media field's "Choose from library": the input kept as a draft, the library next, for that field.
  const chooseFromLibrary = takeAll(formData, CHOOSE_FROM_LIBRARY_FIELD)[0];
  // An image or file field's "Texts for this use": the input kept as a draft, the item's texts next.
  const ownTexts = takeAll(formData, USE_TEXTS_FIELD)[0];
  // Inline sub-forms are validated with their own buckets' validators and saved in the parent's transaction.
  const subBuckets = await subFormBuckets(context, user, schema);
  const resolver = (hostile?: Parameters<typeof subFormResolver>[0]["hostile"]) =>
    subFormResolver({
      schema,
      validate,
      messageLocale,
      subForms: subFormChecks(subBuckets),
      hostile,
      screen: bucket.screen,
      screens: context.screens,
    });
  const savedDocumentId = isUuid(textField(formData, CONTENT_ID_FIELD)) ? textField(formData, CONTENT_ID_FIELD) : null;
  const references = (value: unknown, staged: readonly StagedFormFile[] = []) =>
    checkMediaReferences(context.db, storage, { user, bucket, documentId: savedDocumentId, schema, value, tokens, staged, locale });

  const hostile = removeHostileEntries(formData);
  if (hostile.length) {
    await discardFiles(
      storage,
      post.files.filter((part) => part.tooLarge === undefined).map((part) => ({ path: part.file.temporaryPath })),
    );
    const submission = parse(formData, { resolve: resolver(hostile) });
    const { shown } = await references(submission.payload);
    return {
      saved: false,
      status: 400,
      reply: { result: submission.reply(), notice: null, latestVersionId: null, pending: shown, returnToken },
    };
  }
  if (openSubForm !== undefined || openNewSubForm !== undefined || chooseFromLibrary !== undefined || ownTexts !== undefined) {
    await discardFiles(
      storage,
      post.files.filter((part) => part.tooLarge === undefined).map((part) => ({ path: part.file.temporaryPath })),
    );
    const leaveTo =
      chooseFromLibrary !== undefined
        ? await leaveForLibrary(context.db, { user, bucket, schema }, target.path, formData, chooseFromLibrary)
        : ownTexts !== undefined
          ? await leaveForOwnTexts(
              context.db,
              { user, bucket, schema, documentId: savedDocumentId, onMediaMade: (kind) => kickJobs(context.media, [kind]) },
              target.path,
              formData,
              ownTexts,
            )
          : await leaveForSubForm(context.db, { user, bucket, schema }, target.path, formData, {
              field: openNewSubForm ?? openSubForm ?? "",
              fresh: openNewSubForm !== undefined,
            });
    if (!leaveTo) throw new HttpError(400, "errors.badRequest");
    return { saved: false, leaveTo };
  }

  const { casesPicker } = applyFormIntents(formData, schema);
  // Crop and thumbnail without JavaScript: applied at once, then the form re-renders (server/media/form-edits.ts).
  const mediaEdit = await applyMediaEdit(formData, schema, { context, user, bucket, locale, documentId: savedDocumentId });
  const uploadButton = takeAll(formData, MEDIA_UPLOAD_FIELD)[0];
  const files = await checkFormFiles(post.files, formData, context.media, locale);
  applyUploadIntent(formData, uploadButton, schema);
  const submission = parse(formData, { resolve: resolver() });
  const checked = await references(submission.payload, files.staged);
  // Refused files and a refused crop or thumbnail: a 422, the message under the field.
  const refused = mediaEdit?.errors.length
    ? { ...files.errors, [mediaEdit.field]: [...(files.errors[mediaEdit.field] ?? []), ...mediaEdit.errors] }
    : files.errors;
  const fieldErrors = { ...refused };
  for (const [name, messages] of Object.entries(checked.errors)) fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];

  const notSaved = async (
    status: number,
    extra: Partial<FormReply> & { fieldErrors?: Record<string, string[]> } = {},
  ): Promise<FormSubmission> => {
    const kept = await keepAsPending(context.db, storage, files.staged, submission.payload, schema, target);
    const { fieldErrors: errors, ...rest } = extra;
    const result = showErrorsOf(
      errors && hasErrors(errors) ? submission.reply({ fieldErrors: errors }) : submission.reply(),
      Object.keys(refused),
    );
    const referenceData = await referenceReply(context, user, schema, submission.payload, referenceSearch);
    const postedBase = textField(formData, BASE_VERSION_FIELD);
    const baseVersionId = isUuid(postedBase) ? postedBase : null;
    return {
      saved: false,
      status,
      reply: {
        result,
        notice: null,
        latestVersionId: null,
        baseVersionId,
        ...rest,
        pending: [...checked.shown, ...kept],
        returnToken,
        references: referenceData,
        casesPicker,
      },
    };
  };

  if (submission.status !== "success" || hasErrors(fieldErrors)) {
    // A refused file is a 422 (as from the API); a failed validation a 400; a list or upload intent re-renders (200).
    const status = hasErrors(refused) ? 422 : submission.status === "error" || hasErrors(fieldErrors) ? 400 : 200;
    return notSaved(status, { fieldErrors });
  }
  const outcome = await save(context, target, formData, submission, files.staged, checked, subBuckets, locale, {
    ...options,
    mergeChoices,
  });
  if (outcome.kind === "saved") {
    const returnTo = returnToken ? await pickForDraft(context.db, returnToken, user.id, outcome.version.contentId) : null;
    return { saved: true, version: outcome.version, returnTo, merged: outcome.merged };
  }
  if (outcome.kind === "conflict") return notSaved(409, { notice: "conflict", latestVersionId: outcome.latestVersionId });
  if (outcome.kind === "deleted") return { saved: false, leaveTo: await keepForNewDocument(context, target, formData) };
  if (outcome.kind === "merge") {
    const reply = await notSaved(409, { notice: "merge", latestVersionId: outcome.latestVersionId, merge: outcome.conflicts });
    // The form shows the merged document: the other side's changes in, the editor's values at the conflicts.
    if (!reply.saved && "reply" in reply)
      reply.reply.result = {
        ...reply.reply.result,
        initialValue: asFormPayload(storedFormValue(outcome.merged, schema)) as SubmissionResult["initialValue"],
      };
    return reply;
  }
  return notSaved(outcome.refusal.status, { notice: "invalid", fieldErrors: outcome.refusal.errors.byField });
}

type SaveStep =
  | { kind: "saved"; version: ContentVersion; merged: boolean }
  | { kind: "merge"; latestVersionId: string; conflicts: MergeConflicts; merged: Record<string, unknown> }
  | { kind: "conflict"; latestVersionId: string | null }
  /** Someone else deleted the document while the form was open. */
  | { kind: "deleted" }
  | { kind: "refused"; refusal: SaveRefusal };

/**
 * The form of a document someone else deleted meanwhile: its input kept as a draft for a new document's page,
 * which opens with it and says why (server/content/drafts.ts); answers that page's path.
 */
async function keepForNewDocument(context: Services, target: { user: User; bucket: Bucket }, formData: FormData): Promise<string> {
  const entries = [...formData.entries()].flatMap(([name, value]): Array<[string, string]> =>
    typeof value === "string" && name !== CONTENT_ID_FIELD && name !== BASE_VERSION_FIELD ? [[name, value]] : [],
  );
  const returnPath = newDocumentPath(target.bucket);
  const token = await createDraft(context.db, { userId: target.user.id, bucketId: target.bucket.id, returnPath, field: "", entries });
  return `${returnPath}?draft=${encodeURIComponent(token)}&deleted`;
}

/** Saves a valid submission with the files its document references; the post's other files are removed. */
async function save(
  context: Services,
  target: { user: User; bucket: Bucket },
  formData: FormData,
  submission: Extract<Submission<Record<string, unknown>>, { status: "success" }>,
  staged: readonly StagedFormFile[],
  checked: MediaReferenceCheck,
  subBuckets: readonly SubFormBucket[],
  messageLocale: Locale,
  options: SubmitOptions & { mergeChoices: readonly string[] },
): Promise<SaveStep> {
  const { schema } = compileBucketSchema(target.bucket);
  const { data, subDocuments: posted } = takeSubDocuments(submission.value);
  // A duplicate: the original's inline sub-documents are copied in the save's transaction (server/content/duplicate.ts).
  const owned = options.duplicateOf ? await ownedInlineDocuments(context.db, target.bucket, options.duplicateOf) : null;
  const subDocuments = owned ? asNewSubDocuments(posted, owned) : posted;
  const subRefusal = await checkSubDocuments(context, target.user, subBuckets, subDocuments, messageLocale);
  if (subRefusal) return { kind: "refused", refusal: subRefusal };
  const contentId = textField(formData, CONTENT_ID_FIELD) || undefined;
  const baseVersionId = textField(formData, BASE_VERSION_FIELD) || undefined;
  // Fields a merge conflict's editor chose the newest version's value for (the form's base is that version now).
  if (contentId && baseVersionId) await takeChosenTheirs(context.db, contentId, baseVersionId, data, options.mergeChoices);
  const referenced = new Set(mediaReferences(schema, data).map((reference) => reference.contentId.toLowerCase()));
  const request = {
    actor: target.user,
    bucket: target.bucket,
    locale: messageLocale,
    contentId,
    baseVersionId,
    upload: { files: staged.filter((file) => referenced.has(file.contentId)), references: checked },
    // Inline sub-forms' documents (and a duplicate's copies) are written in the document's transaction.
    before: owned?.size
      ? writeDuplicateDocuments(
          context,
          target.user,
          { schema, data },
          { buckets: subBuckets, documents: subDocuments },
          owned,
          messageLocale,
        )
      : subDocuments.length
        ? writeSubDocuments(target.user, subBuckets, subDocuments)
        : undefined,
  };
  const done = async (version: ContentVersion, merged: boolean): Promise<SaveStep> => {
    await discardFiles(
      context.media.storage,
      staged.filter((file) => !referenced.has(file.contentId)),
    );
    return { kind: "saved", version, merged };
  };
  try {
    const outcome = await saveDocument(context, {
      ...request,
      // The resolver validated the submission (Conform's parse): the front door does not again.
      document: { validated: data },
    });
    if (!outcome.ok) return { kind: "refused", refusal: outcome };
    return await done(outcome.version, false);
  } catch (error) {
    // A stale save: merged with the newest version (server/content/merge-save.ts). Its inline sub-forms' documents are
    // written with it, each on its own base version (a stale one is the spec's sub-form conflict).
    if (error instanceof VersionConflictError && contentId && baseVersionId) {
      try {
        const merged = await saveMerged(
          context,
          { ...request, contentId, baseVersionId, document: { validated: data } },
          schema,
          data,
          error,
        );
        if (merged.kind === "conflicts") return mergeConflicts(merged);
        if (!merged.result.ok) return { kind: "refused", refusal: merged.result };
        return await done(merged.result.version, true);
      } catch (again) {
        return await unsaved(again);
      }
    }
    return await unsaved(error);
  }

  async function unsaved(error: unknown): Promise<SaveStep> {
    // A sub-document's write failed: the transaction took the parent back too; the files wait as pending.
    if (error instanceof SubFormSaveError) return { kind: "refused", refusal: subFormRefusal(context, error, messageLocale) };
    // A sub-document of the original that cannot be copied: nothing of the duplicate was saved.
    if (error instanceof InlineCopyError) return { kind: "refused", refusal: inlineCopyRefusal(error) };
    if (error instanceof VersionConflictError) return { kind: "conflict", latestVersionId: error.latestVersionId };
    if (error instanceof ContentNotFoundError && contentId) {
      await discardFiles(context.media.storage, staged);
      return { kind: "deleted" };
    }
    // A double submit: the other post saved these uploads first; this one is stale, like a version conflict.
    if (error instanceof PendingUploadTaken) return { kind: "conflict", latestVersionId: null };
    await discardFiles(context.media.storage, staged);
    throw error;
  }
}

/** Stored values as a form post carries them (Conform's own serialization of default values): text throughout. */
function asFormPayload(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asFormPayload);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, asFormPayload(inner)]));
  if (typeof value === "boolean") return value ? "on" : undefined;
  if (typeof value === "number") return String(value);
  return value ?? undefined;
}

/** A merge's conflicts as the re-rendered form shows them. */
function mergeConflicts(merged: Extract<MergedSave, { kind: "conflicts" }>): SaveStep {
  return {
    kind: "merge",
    latestVersionId: merged.latestVersionId,
    merged: merged.merged,
    conflicts: {
      author: merged.author,
      fields: merged.fields.map((field) => ({ ...field, mine: shownValue(field.mine), theirs: shownValue(field.theirs) })),
    },
  };
}
