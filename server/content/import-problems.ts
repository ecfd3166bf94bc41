import { stringify } from "csv-stringify/sync";
import type { Queryable } from "@server/db/client";
import type { ImportProblem } from "./import-runs";

/*
 * Every problem of an import run (issue 34, import_problems, migration 044): the run's page shows the first 100
 * (import_runs.problems), the rest is a CSV download, read a page at a time so 100,000 problems never sit in memory.
 */

/** Rows of problems read per query of the download. */
const PAGE = 5000;

/** A batch's problems, in the batch's transaction: one statement however many. */
export async function recordProblems(tx: Queryable, runId: string, problems: readonly ImportProblem[]): Promise<void> {
  if (!problems.length) return;
  const positions = new Map<number, number>();
  const rows = problems.map((problem) => {
    const position = positions.get(problem.row) ?? 0;
    positions.set(problem.row, position + 1);
    return { row_no: problem.row, position, field: problem.field, message: problem.message };
  });
  await tx.query(
    `INSERT INTO import_problems (run_id, row_no, position, field, message)
     SELECT $1, p.row_no, p.position, p.field, p.message
     FROM jsonb_to_recordset($2::jsonb) AS p(row_no integer, position integer, field text, message text)`,
    [runId, JSON.stringify(rows)],
  );
}

/** The run's problems as CSV (row, field, message), with a byte-order mark for spreadsheets, in row order. */
export async function* problemsCsv(db: Queryable, runId: string): AsyncGenerator<string> {
  yield `\uFEFF${stringify([["row", "field", "message"]])}`;
  let after = { row: 0, position: -1 };
  for (;;) {
    const { rows } = await db.query<{ row: number; position: number; field: string; message: string }>(
      `SELECT row_no AS row, position, field, message FROM import_problems
       WHERE run_id = $1 AND (row_no, position) > ($2, $3)
       ORDER BY row_no, position LIMIT ${PAGE}`,
      [runId, after.row, after.position],
    );
    if (!rows.length) return;
    yield stringify(rows.map((problem) => [problem.row, problem.field, problem.message]));
    const last = rows[rows.length - 1];
    if (!last || rows.length < PAGE) return;
    after = { row: last.row, position: last.position };
  }
}

/** How many problems the run found. */
export async function countProblems(db: Queryable, runId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM import_problems WHERE run_id = $1`, [runId]);
  return rows[0]?.count ?? 0;
}
