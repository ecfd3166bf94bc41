import type { Queryable } from "@server/db/client";

/*
 * A bucket's schema versions (schema_versions: one row each time saveBucket changes the schema), for its settings
 * page's history and diff. Every document version records the schema version it was validated against.
 */

export interface SchemaVersionSummary {
  id: string;
  number: number;
  createdAt: Date;
  createdByName: string | null;
}

export async function schemaHistory(db: Queryable, bucketId: string): Promise<SchemaVersionSummary[]> {
  const { rows } = await db.query<SchemaVersionSummary>(
    `SELECT s.id, s.number, s.created_at AS "createdAt", u.name AS "createdByName"
     FROM schema_versions s LEFT JOIN users u ON u.id = s.created_by
     WHERE s.bucket_id = $1 ORDER BY s.number DESC`,
    [bucketId],
  );
  return rows;
}

export async function schemaVersionByNumber(
  db: Queryable,
  bucketId: string,
  number: number,
): Promise<{ number: number; jsonSchema: unknown } | null> {
  const { rows } = await db.query<{ number: number; jsonSchema: unknown }>(
    `SELECT number, json_schema AS "jsonSchema" FROM schema_versions WHERE bucket_id = $1 AND number = $2`,
    [bucketId, number],
  );
  return rows[0] ?? null;
}
