import type { Submission } from "@conform-to/react";
import type { Bucket } from "./buckets";
import { saveDocument } from "./save";
import type { SaveRefusal } from "./save-rules";
import { ContentNotFoundError, VersionConflictError, type ContentVersion } from "./store";
import { discardFiles, type MediaReferenceCheck, type StagedFormFile } from "./save-media";
import { compileBucketSchema } from "./validator";
import { checkSubDocuments, SubFormSaveError, subFormRefusal, writeSubDocuments } from "./save-subforms";
import type { SubFormBucket } from "./subforms";
import { asNewSubDocuments, InlineCopyError, inlineCopyRefusal, ownedInlineDocuments, writeDuplicateDocuments } from "./duplicate";
import { createDraft } from "./drafts";
import { saveMerged, shownValue, takeChosenTheirs, type MergedSave } from "./merge-save";
import type { User } from "@server/accounts/users";
import { mediaReferences } from "@server/media/form-upload";
import { PendingUploadTaken } from "@server/media/pending";
import { BASE_VERSION_FIELD, CONTENT_ID_FIELD } from "@core/form/resolve";
import { takeSubDocuments } from "@core/form/subforms";
import { newDocumentPath } from "@core/content/screens";
import type { Locale } from "@core/locales";
import type { Services } from "@server/services";
import type { MergeConflicts } from "@core/content/merge";

/*
 * The save step of an edit form post that passed validation (save-form.ts runs the steps before it): the inline
 * sub-forms' checks, the front door (save.ts) with the files the document references, a stale save merged with the
 * newest version (merge-save.ts), and what came of it as a SaveStep: saved, merged, a conflict, deleted meanwhile or
 * refused. Also what the re-rendered form needs of those outcomes: a merge's values as a form payload, a deleted
 * document's input kept as a draft.
 */

export type SaveStep =
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
export async function keepForNewDocument(context: Services, target: { user: User; bucket: Bucket }, formData: FormData): Promise<string> {
  const entries = [...formData.entries()].flatMap(([name, value]): Array<[string, string]> =>
    typeof value === "string" && name !== CONTENT_ID_FIELD && name !== BASE_VERSION_FIELD ? [[name, value]] : [],
  );
  const returnPath = newDocumentPath(target.bucket);
  const token = await createDraft(context.db, { userId: target.user.id, bucketId: target.bucket.id, returnPath, field: "", entries });
  return `${returnPath}?draft=${encodeURIComponent(token)}&deleted`;
}

/**
 * Saves a valid submission with the files its document references; the post's other files are removed. `posted`: the
 * document the form edits (none: a new one) and the version it was based on, as the post named them.
 */
export async function writeSubmission(
  context: Services,
  target: { user: User; bucket: Bucket },
  posted: { contentId: string | undefined; baseVersionId: string | undefined },
  submission: Extract<Submission<Record<string, unknown>>, { status: "success" }>,
  staged: readonly StagedFormFile[],
  checked: MediaReferenceCheck,
  subBuckets: readonly SubFormBucket[],
  messageLocale: Locale,
  options: { duplicateOf?: string; mergeChoices: readonly string[] },
): Promise<SaveStep> {
  const { schema } = compileBucketSchema(target.bucket);
  const { data, subDocuments: postedSubDocuments } = takeSubDocuments(submission.value);
  // A duplicate: the original's inline sub-documents are copied in the save's transaction (server/content/duplicate.ts).
  const owned = options.duplicateOf ? await ownedInlineDocuments(context.db, target.bucket, options.duplicateOf) : null;
  const subDocuments = owned ? asNewSubDocuments(postedSubDocuments, owned) : postedSubDocuments;
  const subRefusal = await checkSubDocuments(context, target.user, subBuckets, subDocuments, messageLocale);
  if (subRefusal) return { kind: "refused", refusal: subRefusal };
  const { contentId, baseVersionId } = posted;
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
export function asFormPayload(value: unknown): unknown {
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
