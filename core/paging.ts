/** A page number from a query string: 1 for anything that is not a whole number from 1 to 1,000,000. */
export function pageNumber(value: string | null | undefined): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1;
}
