/* How far each locale's translation of a document is (issue 34): the overview's column, from the server's counts. */

export interface LocaleCount {
  locale: string;
  filled: number;
  total: number;
}

/** "NL ✓ EN 2/4"; `label` says each in words (its title, and what a screen reader reads). */
export function TranslationCounts({ counts, label }: { counts: readonly LocaleCount[]; label: (count: LocaleCount) => string }) {
  return (
    <span className="translation-counts">
      {counts.map((count) => {
        const complete = count.filled === count.total;
        return (
          <span key={count.locale} className={complete ? "locale-count complete" : "locale-count"} title={label(count)}>
            <span aria-hidden="true">
              {count.locale.toUpperCase()} {complete ? "✓" : `${count.filled}/${count.total}`}
            </span>
            <span className="visually-hidden">{label(count)}</span>
          </span>
        );
      })}
    </span>
  );
}
