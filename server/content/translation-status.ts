import { translatedFields } from "@core/content/translated-texts";
import { translationCompleteness } from "@core/content/translation-completeness";
import type { Bucket } from "./buckets";

/*
 * The overview's translation column (issue 34): per listed document and locale, how many of its translated texts are
 * filled (core/content/translation-completeness.ts, the count the dle-content strip shows too).
 */

export interface LocaleCount {
  locale: string;
  filled: number;
  total: number;
}

/** Whether the bucket has translated texts in more than one locale: only then does its overview count them. */
export const hasTranslatedTexts = (bucket: Pick<Bucket, "jsonSchema" | "locales">): boolean =>
  bucket.locales.length > 1 && translatedFields(bucket.jsonSchema, {}).length > 0;

/** A document's counts, per locale of the bucket. */
export const translationCounts = (bucket: Pick<Bucket, "jsonSchema" | "locales">, data: unknown): LocaleCount[] =>
  translationCompleteness(bucket.jsonSchema, data, bucket.locales).map(({ locale, filled, total }) => ({ locale, filled, total }));
