import type { Services } from "@server/services";
import { writeDocument } from "./save";
import { checkSave, type SaveRefusal } from "./save-rules";
import { ContentNotFoundError, VersionConflictError } from "./store";
import type { SubFormBucket } from "./subforms";
import type { Author } from "@server/accounts/users";
import type { Queryable } from "@server/db/client";
import { subFormFieldName, type SubDocument } from "@core/form/subforms";
import { sameJson } from "@core/content/merge";
import type { Locale } from "@core/locales";
import { translate } from "@core/messages";

/*
 * The inline sub-forms' part of a save (server/content/save-form.ts): their server-only checks before anything is
 * written, then their documents written first inside the parent's transaction (saveDocument's `before`), so the
 * parent's field holds each one's contentId and a refused parent (validation, conflict, any server check) leaves
 * no sub-document behind. A sub-document is a new version on top of the version the form was loaded with, so a
 * concurrent edit of it is a conflict.
 */

/** A sub-document's write failed inside the transaction (which is rolled back): which sub-form, and why. */
export class SubFormSaveError extends Error {
  constructor(
    readonly field: string,
    readonly reason: unknown,
  ) {
    super(`The sub-form ${field} could not be saved`);
    this.name = "SubFormSaveError";
  }
}

const usable = (buckets: readonly SubFormBucket[], field: string) => {
  const sub = buckets.find((candidate) => candidate.field === field);
  return sub?.ok ? sub : null;
};

/** The server-only checks of each sub-document (ids, text ids), its refusal under the sub-form's fields. */
export async function checkSubDocuments(
  context: Services,
  user: Author,
  buckets: readonly SubFormBucket[],
  documents: readonly SubDocument[],
  locale: Locale,
): Promise<SaveRefusal | null> {
  for (const document of documents) {
    const sub = usable(buckets, document.field);
    if (!sub) continue;
    let refused: SaveRefusal | null;
    try {
      refused = await checkSave(context.db, user, sub.bucket, document, locale, context.screens);
    } catch (error) {
      if (!(error instanceof ContentNotFoundError)) throw error;
      return subFormRefusal(context, new SubFormSaveError(document.field, error), locale);
    }
    if (!refused) continue;
    const byField = Object.fromEntries(
      Object.entries(refused.errors.byField).map(([name, messages]) => [subFormFieldName(document.field, name), messages]),
    );
    if (!Object.keys(byField).length) byField[subFormFieldName(document.field)] = [refused.message];
    return { ...refused, errors: { ...refused.errors, byField } };
  }
  return null;
}

/** saveDocument's `before`: writes each sub-document in the transaction and answers the parent's fields. */
/** Whether a sub-document's posted data is its base version's (the version the form was loaded with). */
async function unchangedSince(tx: Queryable, document: SubDocument): Promise<boolean> {
  const { rows } = await tx.query<{ data: unknown }>(`SELECT data FROM versions WHERE content_id = $1 AND version_id = $2`, [
    document.contentId,
    document.baseVersionId,
  ]);
  const base = rows[0];
  return base !== undefined && sameJson(base.data, document.data);
}

export function writeSubDocuments(user: Author, buckets: readonly SubFormBucket[], documents: readonly SubDocument[]) {
  return async (tx: Queryable): Promise<Record<string, unknown>> => {
    const fields: Record<string, unknown> = {};
    for (const document of documents) {
      const sub = usable(buckets, document.field);
      if (!sub) continue;
      try {
        // A sub-document the form left as it was loaded is not saved again: no empty version, and a colleague's save
        // of it in between (or of the parent, merged) is no conflict.
        if (document.contentId && document.baseVersionId && (await unchangedSince(tx, document))) {
          fields[document.field] = document.contentId;
          continue;
        }
        const version = await writeDocument(tx, sub.bucket, user, document);
        fields[document.field] = version.contentId;
      } catch (error) {
        throw new SubFormSaveError(document.field, error);
      }
    }
    return fields;
  };
}

/**
 * A sub-form's failed save as the form shows it, under the sub-form (spec §8): a conflict says so
 * (DOCUMENT_VERSION_CONFLICT), anything else is 'Error saving sub-form…'.
 */
export function subFormRefusal(context: Services, error: SubFormSaveError, locale: Locale): SaveRefusal {
  const conflict = error.reason instanceof VersionConflictError;
  if (!conflict) context.logger.error({ err: error.reason, field: error.field }, "Error saving sub-form");
  const message = translate(locale, conflict ? "subForm.conflict" : "subForm.saveFailed");
  return {
    ok: false,
    status: conflict ? 409 : 500,
    errors: { byField: { [subFormFieldName(error.field)]: [message] }, locales: [] },
    message,
  };
}
