import type { Queryable } from "@server/db/client";
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

/** The counts of these versions (the overview's page), by versionId. */
export async function translationCounts(
  db: Queryable,
  bucket: Pick<Bucket, "jsonSchema" | "locales">,
  versionIds: readonly string[],
): Promise<Record<string, LocaleCount[]>> {
  if (versionIds.length === 0) return {};
  const { rows } = await db.query<{ versionId: string; data: Record<string, unknown> }>(
    `SELECT version_id AS "versionId", data FROM versions WHERE version_id = ANY($1::uuid[])`,
    [versionIds],
  );
  return Object.fromEntries(
    rows.map((row) => [
      row.versionId,
      translationCompleteness(bucket.jsonSchema, row.data, bucket.locales).map(({ locale, filled, total }) => ({ locale, filled, total })),
    ]),
  );
}
