import type { Queryable } from "@server/db/client";
import { likePattern } from "@server/db/like-pattern";
import type { PublicationState } from "@core/content/publication";
import type { Bucket } from "./buckets";
import { missingTranslationCondition, publicationStateCondition } from "./listing";
import { searchCondition } from "./search";

/*
 * Which of a bucket's documents an export or a bulk action takes (issue 34): every one, the matches of the overview's
 * search and publication state filter, or chosen ones.
 */

export interface DocumentSelection {
  search?: string;
  state?: PublicationState | null;
  ids?: readonly string[];
  /** Only the documents missing a translation into this locale. */
  missing?: string | null;
}

/**
 * The selection as conditions over contents `c` (joined with the bucket's id as $1), and their values from $2 on:
 * what an export's pages and a bulk action's ids are read with.
 */
export function selectionWhere(
  bucket: Pick<Bucket, "id" | "jsonSchema">,
  selection: DocumentSelection,
): { where: string; values: unknown[] } {
  const conditions = ["c.bucket_id = $1"];
  const values: unknown[] = [bucket.id];
  const search = selection.search?.trim();
  if (search) {
    values.push(likePattern(search));
    conditions.push(searchCondition(`$${values.length}`));
  }
  if (selection.state) conditions.push(publicationStateCondition(selection.state));
  if (selection.missing) {
    values.push(selection.missing);
    conditions.push(missingTranslationCondition(bucket.jsonSchema, `$${values.length}`));
  }
  if (selection.ids) {
    values.push(selection.ids);
    conditions.push(`c.content_id = ANY($${values.length}::uuid[])`);
  }
  return { where: conditions.join(" AND "), values };
}

/** The selected documents' ids, oldest first, at most `limit` (one more says there are more). */
export async function selectedIds(
  db: Queryable,
  bucket: Pick<Bucket, "id" | "jsonSchema">,
  selection: DocumentSelection,
  limit: number,
): Promise<string[]> {
  const { where, values } = selectionWhere(bucket, selection);
  const { rows } = await db.query<{ contentId: string }>(
    `SELECT c.content_id AS "contentId" FROM contents c WHERE ${where} ORDER BY c.created_at, c.content_id LIMIT ${Math.trunc(limit)}`,
    values,
  );
  return rows.map((row) => row.contentId);
}
