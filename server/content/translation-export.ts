import { documentTitle } from "@core/content/title";
import { isWritten, translationUnits } from "@core/content/translation-units";
import { translate } from "@core/messages";
import type { Locale } from "@core/locales";
import type { Bucket } from "./buckets";
import { xliffFile, xliffHead, XLIFF_TAIL, type XliffNote } from "./xliff-build";

/*
 * A bucket's texts for translation into one locale, as XLIFF 2.0 (issue 34, docs/transfer.md "Translations"): a
 * <file id="{contentId}"> per document that has a text to translate, a <unit id="{path}"> per plain translated text
 * whose source locale has one (the source's text, the target's when it has one), with the field's label, its
 * description and its maximum length as notes. Ids come from the document and the field's path alone, so they are
 * the same in every export.
 */

export interface TranslationLanguages {
  source: string;
  target: string;
}

/** The languages asked for, when the bucket has both and they differ; else null. */
export function translationLanguages(
  bucket: Pick<Bucket, "locales">,
  target: string | null,
  source: string | null = null,
): TranslationLanguages | null {
  const from = source ?? bucket.locales.find((locale) => locale !== target) ?? null;
  if (!from || !target || from === target || !bucket.locales.includes(from) || !bucket.locales.includes(target)) return null;
  return { source: from, target };
}

/**
 * The XLIFF text, piece by piece: nothing until the first document with a text to translate (so a caller can tell
 * an export with nothing to translate from one with texts before it answers), then the head and that document.
 */
export async function* translationXliff(
  bucket: Pick<Bucket, "slug" | "jsonSchema" | "locales">,
  documents: AsyncIterable<{ contentId: string; data: Record<string, unknown> }>,
  languages: TranslationLanguages,
  interfaceLocale: Locale,
): AsyncGenerator<string> {
  let started = false;
  for await (const document of documents) {
    const units = translationUnits(bucket.jsonSchema, document.data, languages.source, languages.target).filter((unit) =>
      isWritten(unit.source),
    );
    if (!units.length) continue;
    if (!started) yield xliffHead(languages.source, languages.target);
    started = true;
    const title = documentTitle(document.data, bucket.jsonSchema, [languages.source, ...bucket.locales]);
    yield xliffFile({
      id: document.contentId,
      original: `${bucket.slug}/${document.contentId}`,
      notes: title ? [{ category: "title", text: title }] : [],
      units: units.map((unit) => {
        const notes: XliffNote[] = [{ category: "label", text: unit.label }];
        if (unit.description) notes.push({ category: "description", text: unit.description });
        if (unit.maxLength !== null)
          notes.push({ category: "maxLength", text: translate(interfaceLocale, "translations.maxLengthNote", { max: unit.maxLength }) });
        return { id: unit.id, name: unit.pointer, notes, source: unit.source, target: isWritten(unit.target) ? unit.target : null };
      }),
    });
  }
  if (started) yield XLIFF_TAIL;
}

/** The download's file name: the bucket's slug, the languages and the day. */
export const translationFileName = (slug: string, languages: TranslationLanguages, now = new Date()) =>
  `${slug}-${languages.source}-${languages.target}-${now.toISOString().slice(0, 10)}.xlf`;
