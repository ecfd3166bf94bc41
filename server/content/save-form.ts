import { parse, type SubmissionResult } from "@conform-to/react";
import type { Bucket } from "./buckets";
import { referenceReply, type ReferenceReply } from "./references";
import type { ContentVersion } from "./store";
import { checkFormFiles, checkMediaReferences, discardFiles, keepAsPending, showErrorsOf, type StagedFormFile } from "./save-media";
import { compileBucketSchema } from "./validator";
import { subFormBuckets, subFormChecks } from "./subforms";
import { leaveForSubForm, pickForDraft } from "./drafts";
import { takeMergeChoices } from "./merge-save";
import { asFormPayload, keepForNewDocument, writeSubmission } from "./submission-write";
import type { User } from "@server/accounts/users";
import type { FormPost } from "@server/media/form-upload";
import { applyMediaEdit } from "@server/media/form-edits";
import { mediaKindOfSchema } from "@core/form/field-kind";
import { removeHostileEntries } from "@core/form/hostile";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD } from "@core/form/resolve";
import { takeReferenceSearch } from "@core/form/reference-search";
import { OPEN_NEW_SUBFORM_FIELD, OPEN_SUBFORM_FIELD, RETURN_FIELD, subFormResolver } from "@core/form/subforms";
import { leaveForLibrary, leaveForOwnTexts } from "@server/media/library-pick";
import { kickJobs } from "@server/media/intake";
import { CHOOSE_FROM_LIBRARY_FIELD, USE_TEXTS_FIELD } from "@core/media/wire";
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

/*
 * The edit form's adapter to the front door (server/content/save.ts): how a form post becomes a saved document:
 *   read (urlencoded, or multipart with its files in temporary files only)
 *   → hostile check (400, the temporary files removed: nothing written)
 *   → intents (the field kinds' no-JavaScript buttons: core/form/intents.ts; the 'Upload' button, a media field's
 *     crop and thumbnail; Conform's list intents)
 *   → validate once (the files' read-only checks, Conform with resolveDocument, the pending uploads)
 *   → save (submission-write.ts: the front door, server/content/save.ts, with the server's rules, then files, media
 *     rows, jobs and the document; a stale save merged).
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
  const posted = {
    contentId: textField(formData, CONTENT_ID_FIELD) || undefined,
    baseVersionId: textField(formData, BASE_VERSION_FIELD) || undefined,
  };
  const outcome = await writeSubmission(context, target, posted, submission, files.staged, checked, subBuckets, locale, {
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
