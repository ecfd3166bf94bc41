/**
 * A page's LIMIT and OFFSET, written into the statement's text rather than passed as parameters. With parameters,
 * Postgres cannot tell how many rows a generic plan reads (it assumes a tenth of the table), so a prepared statement
 * is planned anew on every call. PGlite prepares every statement (pglite-statements.ts), and there planning the
 * overview's page cost more than running it: 0.4–1.4 ms against 0.1–0.3. Each distinct page is one more prepared
 * text, and nearly every visit is to the first.
 */
export function pageClause(limit: number, offset = 0): string {
  if (!isCount(limit) || !isCount(offset)) throw new RangeError(`Not a page: LIMIT ${limit} OFFSET ${offset}`);
  return `LIMIT ${limit} OFFSET ${offset}`;
}

const isCount = (value: number) => Number.isSafeInteger(value) && value >= 0;
