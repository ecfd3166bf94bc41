/** What an overview's filters were when it lists nothing. */
export interface OverviewFilters {
  search?: string | null;
  state?: string | null;
  missing?: string | null;
}

/**
 * An empty overview's sentence, by what emptied it: the search, the state filter, the missing-translation filter (on
 * the overviews that have it), or nothing at all.
 */
export function OverviewEmpty({
  filters,
  words,
}: {
  filters: OverviewFilters;
  words: { noResults: string; noneInState: string; noneMissing?: (locale: string) => string; empty: string };
}) {
  const text = filters.search
    ? words.noResults
    : filters.state
      ? words.noneInState
      : filters.missing && words.noneMissing
        ? words.noneMissing(filters.missing.toUpperCase())
        : words.empty;
  return <p className="empty">{text}</p>;
}
