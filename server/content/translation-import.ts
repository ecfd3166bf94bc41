import type { Queryable } from "@server/db/client";
import { bucketName } from "@core/content/bucket-name";
import { documentTitle } from "@core/content/title";
import { isWritten, textLength, translationUnits, type TranslationUnit } from "@core/content/translation-units";
import { isUuid } from "@core/ids";
import type { Locale } from "@core/locales";
import type { Message } from "@core/messages";
import type { Bucket, BucketSummary } from "./buckets";
import { XliffError, type ParsedXliff } from "./xliff-parse";

/*
 * A translated XLIFF file checked against the bucket's documents as they are now (issue 34, docs/transfer.md
 * "Translations"): what it would fill, and every problem, by document title and field. A unit whose source text is
 * no longer the document's blocks the whole file (it was translated from a text that changed since the export);
 * other problems (an unknown document or unit, a text over the field's maximum, inline codes) leave that unit out.
 * An empty target leaves its field as it is.
 */

export interface TranslationProblem {
  contentId: string | null;
  title: string;
  /** The field's label, or the unit's id when the document has no such field. */
  field: string;
  unit: string;
  message: Message;
  /** A problem that refuses the whole file. */
  blocking: boolean;
}

export interface TranslationFill {
  unit: TranslationUnit;
  text: string;
}

/** One document's part of the file: its latest version and the texts to fill in it. */
export interface DocumentFills {
  contentId: string;
  versionId: string;
  title: string;
  data: Record<string, unknown>;
  fills: TranslationFill[];
}

export interface TranslationCheck {
  source: string;
  target: string;
  documents: DocumentFills[];
  /** Units with a target equal to the document's text already. */
  unchanged: number;
  /** Units without a target (left as they are). */
  untranslated: number;
  problems: TranslationProblem[];
  blocked: boolean;
}

interface StoredDocument {
  contentId: string;
  versionId: string;
  bucketId: string;
  data: Record<string, unknown>;
}

async function storedDocuments(db: Queryable, ids: readonly string[]): Promise<Map<string, StoredDocument>> {
  const found = new Map<string, StoredDocument>();
  for (let start = 0; start < ids.length; start += 500) {
    const { rows } = await db.query<StoredDocument>(
      `SELECT c.content_id AS "contentId", c.latest_version_id AS "versionId", c.bucket_id AS "bucketId", v.data
       FROM contents c JOIN versions v ON v.version_id = c.latest_version_id WHERE c.content_id = ANY($1::uuid[])`,
      [ids.slice(start, start + 500)],
    );
    for (const row of rows) found.set(row.contentId, row);
  }
  return found;
}

/** The file's languages, checked against the bucket and the target asked for; else the file is refused. */
function checkLanguages(bucket: Pick<Bucket, "locales">, file: ParsedXliff, asked: string): { source: string; target: string } {
  const { srcLang: source, trgLang: target } = file;
  if (!target) throw new XliffError({ key: "translations.noTarget" });
  if (target !== asked) throw new XliffError({ key: "translations.otherTarget", params: { found: target, asked } });
  if (!bucket.locales.includes(source) || source === target)
    throw new XliffError({ key: "translations.otherSource", params: { found: source, locales: bucket.locales.join(", ") } });
  if (!file.files.length) throw new XliffError({ key: "translations.empty" });
  return { source, target };
}

/** Checks a parsed file against the bucket's documents as they are; throws an XliffError for a file it cannot take. */
export async function checkTranslations(
  db: Queryable,
  bucket: Bucket,
  file: ParsedXliff,
  askedTarget: string,
  interfaceLocale: Locale,
  buckets: readonly BucketSummary[] = [],
): Promise<TranslationCheck> {
  const { source, target } = checkLanguages(bucket, file, askedTarget);
  const stored = await storedDocuments(db, [...new Set(file.files.map((part) => part.id.toLowerCase()).filter(isUuid))]);
  const elsewhere = [...stored.values()].filter((document) => document.bucketId !== bucket.id);
  if (stored.size && elsewhere.length === stored.size) {
    const other = buckets.find((candidate) => candidate.id === elsewhere[0]?.bucketId);
    throw new XliffError({
      key: "translations.otherBucket",
      params: { bucket: other ? bucketName(other, interfaceLocale) : { key: "translations.someBucket" } },
    });
  }
  const check: TranslationCheck = { source, target, documents: [], unchanged: 0, untranslated: 0, problems: [], blocked: false };
  const problem = (entry: Omit<TranslationProblem, "blocking">, blocking = false) => {
    check.problems.push({ ...entry, blocking });
    check.blocked ||= blocking;
  };
  const seen = new Set<string>();
  for (const part of file.files) {
    const document = stored.get(part.id.toLowerCase());
    if (!document || document.bucketId !== bucket.id || seen.has(document.contentId)) {
      const key = seen.has(part.id.toLowerCase()) ? "translations.duplicateDocument" : "translations.unknownDocument";
      problem({ contentId: null, title: part.id, field: "", unit: "", message: { key, params: { id: part.id } } });
      continue;
    }
    seen.add(document.contentId);
    const title = documentTitle(document.data, bucket.jsonSchema, [source, ...bucket.locales]);
    const units = new Map(translationUnits(bucket.jsonSchema, document.data, source, target).map((unit) => [unit.id, unit]));
    const fills: TranslationFill[] = [];
    const done = new Set<string>();
    for (const item of part.units) {
      const unit = units.get(item.id);
      const about = { contentId: document.contentId, title, field: unit?.label ?? item.id, unit: item.id };
      if (!unit || done.has(item.id)) {
        problem({
          ...about,
          message: { key: unit ? "translations.duplicateUnit" : "translations.unknownUnit", params: { unit: item.id } },
        });
        continue;
      }
      done.add(item.id);
      if (item.source !== unit.source) {
        problem({ ...about, message: { key: "translations.changedSource", params: { text: excerpt(unit.source) } } }, true);
        continue;
      }
      if (item.markup) problem({ ...about, message: { key: "translations.markup" } });
      else if (item.target === null || !isWritten(item.target)) check.untranslated += 1;
      else if (item.target === unit.target) check.unchanged += 1;
      else if (unit.maxLength !== null && textLength(item.target) > unit.maxLength)
        problem({ ...about, message: { key: "translations.tooLong", params: { length: textLength(item.target), max: unit.maxLength } } });
      else fills.push({ unit, text: item.target });
    }
    if (fills.length)
      check.documents.push({ contentId: document.contentId, versionId: document.versionId, title, data: document.data, fills });
  }
  return check;
}

/** A text's start, for a message. */
export const excerpt = (text: string, length = 60): string =>
  textLength(text) > length ? `${Array.from(text).slice(0, length).join("")}…` : text;
