import type { Db } from "../db/client";

export interface ContentVersion {
  contentId: string;
  versionId: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Creates a document with its first version. */
export async function createContent(
  db: Db,
  bucketId: string,
  data: Record<string, unknown>,
  userId: string | null,
): Promise<ContentVersion> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<ContentVersion>(
      `WITH version AS (
         INSERT INTO versions (content_id, data, created_by) VALUES (gen_random_uuid(), $2, $3)
         RETURNING version_id, content_id, data, created_at
       ), content AS (
         INSERT INTO contents (content_id, bucket_id, latest_version_id)
         SELECT content_id, $1, version_id FROM version
       )
       SELECT content_id AS "contentId", version_id AS "versionId", data, created_at AS "createdAt" FROM version`,
      [bucketId, data, userId],
    );
    return rows[0]!;
  });
}

export async function countContents(db: Db, bucketId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM contents WHERE bucket_id = $1",
    [bucketId],
  );
  return rows[0]?.count ?? 0;
}
