import { SUPPORTED_LOCALES, type Locale } from "@core/locales";

/*
 * A bucket's name per interface locale: besides its name (the default) an admin may give one for each language of
 * the interface (en, nl). Pages show the name for the interface language, else the default name.
 */

/** The names per interface locale, by locale; a locale without one is absent. */
export type BucketNames = Partial<Record<Locale, string>>;

/** The bucket's name for the interface language: its name for that locale when it has one, else its default name. */
export function bucketName(bucket: { name: string; names?: BucketNames | null }, locale: Locale): string {
  return bucket.names?.[locale]?.trim() || bucket.name;
}

/** The names kept: only interface locales, trimmed, empty ones left out (the stored and exported shape). */
export function cleanBucketNames(names: Partial<Record<string, string | undefined>> | null | undefined): BucketNames {
  const kept: BucketNames = {};
  for (const locale of SUPPORTED_LOCALES) {
    const name = names?.[locale]?.trim();
    if (name) kept[locale] = name;
  }
  return kept;
}
