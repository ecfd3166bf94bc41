import type { Author } from "@server/accounts/users";
import type { Services } from "@server/services";
import { fieldLabel } from "@core/content/merge";
import { isPlainObject } from "@core/plain-object";
import type { Locale } from "@core/locales";
import type { Bucket } from "./buckets";
import { saveDocument } from "./save";
import { ContentNotFoundError, VersionConflictError } from "./store";
import { checkTranslations, type DocumentFills, type TranslationCheck, type TranslationProblem } from "./translation-import";
import { compileBucketSchema } from "./validator";
import type { ParsedXliff } from "./xliff-parse";

/*
 * A checked XLIFF file applied (issue 34): checked again against the documents as they are now, refused whole when a
 * source changed, else each document with texts to fill saved once through the front door (saveDocument, its own
 * transaction) on top of the version just read, by the importing user. A document the editor's rules refuse, or one
 * saved by someone else since it was read, is left as it is and listed with why.
 */

export interface TranslationOutcome {
  check: TranslationCheck;
  /** Texts written, in `documents` documents. */
  filled: number;
  documents: number;
  /** The check's problems, and the documents the save refused. */
  problems: TranslationProblem[];
}

/** The document's data with the target locale's texts of the fills set. */
function filledData(document: DocumentFills, target: string): Record<string, unknown> {
  const data = structuredClone(document.data);
  for (const { unit, text } of document.fills) {
    let node: Record<string, unknown> | unknown[] = data;
    for (const segment of unit.path) {
      const child: unknown = Array.isArray(node) ? node[Number(segment)] : node[String(segment)];
      const next = isPlainObject(child) || Array.isArray(child) ? child : {};
      if (Array.isArray(node)) node[Number(segment)] = next;
      else node[String(segment)] = next;
      node = next;
    }
    if (!Array.isArray(node)) node[target] = text;
  }
  return data;
}

/** Checks the file again and writes its texts (nothing when a source changed since the export). */
export async function applyTranslations(
  services: Services,
  request: { actor: Author; bucket: Bucket; locale: Locale; askedTarget: string; buckets?: Parameters<typeof checkTranslations>[5] },
  file: ParsedXliff,
): Promise<TranslationOutcome> {
  const { actor, bucket, locale } = request;
  const check = await checkTranslations(services.db, bucket, file, request.askedTarget, locale, request.buckets);
  const outcome: TranslationOutcome = { check, filled: 0, documents: 0, problems: [...check.problems] };
  if (check.blocked) return outcome;
  const { schema } = compileBucketSchema(bucket);
  for (const document of check.documents) {
    const refuse = (message: TranslationProblem["message"], field = "") =>
      outcome.problems.push({ contentId: document.contentId, title: document.title, field, unit: "", message, blocking: false });
    try {
      const saved = await saveDocument(services, {
        actor,
        bucket,
        locale,
        contentId: document.contentId,
        baseVersionId: document.versionId,
        document: { payload: filledData(document, check.target) },
      });
      if (saved.ok) {
        outcome.filled += document.fills.length;
        outcome.documents += 1;
        continue;
      }
      const byField = Object.entries(saved.errors.byField);
      if (!byField.length) refuse({ key: "translations.refused", params: { message: saved.message } });
      for (const [name, messages] of byField)
        for (const message of messages)
          refuse({ key: "translations.refused", params: { message } }, name ? fieldLabel(schema, name.split(".")) : "");
    } catch (error) {
      if (!(error instanceof VersionConflictError || error instanceof ContentNotFoundError)) throw error;
      refuse({ key: "translations.changedMeanwhile" });
    }
  }
  return outcome;
}
