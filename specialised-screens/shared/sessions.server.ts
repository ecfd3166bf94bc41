import { findBucketByCollection, findBucketById, isBucketVisible, type Bucket } from "@server/content/buckets";
import { likePattern } from "@server/db/like-pattern";
import { pageClause } from "@server/db/page-clause";
import { documentCountSql } from "@server/content/document-counts";
import { searchedPageSql } from "@server/content/search";
import { publicationStateCondition } from "@server/content/listing";
import { inScheduledReleaseSql } from "@server/content/publication-state";
import { publicationState, type PublicationState } from "@core/content/publication";
import type { User } from "@server/accounts/users";
import type { Db, Queryable } from "@server/db/client";
import { chosenStillUrl } from "@server/media/content";
import type { MediaDetails } from "@server/media/store";
import { casesField } from "@core/content/renderers";
import { availabilityOf, movedOrder, type MoveTarget, type SessionCard } from "./session-overview";
import { titleProperty, titleText } from "@core/content/title";
import { mediaKindOfSchema } from "@core/form/field-kind";
import { isPlainObject } from "@core/plain-object";
import { propertiesOf } from "@core/schema/walk";
import type { JsonSchema } from "@core/schema/normalize";

/*
 * The session overviews (/sessies/{bucket}, /dle-sessies/{bucket}; docs/screens.md): a page of
 * sessions as clip cards in a bounded number of queries (one for the page, one for the cases of all its sessions with
 * their videos' stills and durations), and the stored order of a learning environment's sessions (contents.position,
 * migration 017).
 */

export interface SessionRow {
  contentId: string;
  versionId: string;
  data: Record<string, unknown>;
  /** What exhibits get of it (docs/publishing.md). */
  state: PublicationState;
}

interface SessionsOptions {
  limit: number;
  offset: number;
  search?: string;
  ordered: boolean;
  /** Only the sessions in this publication state (the overview's ?state=). */
  state?: PublicationState | null;
}

/** The statement of listSessions, for it and for EXPLAIN in tests. */
export function sessionsStatement(bucketId: string, options: SessionsOptions): { text: string; values: unknown[] } {
  const search = options.search?.trim();
  const placed = (table: string) => (options.ordered ? `${table}.position ASC NULLS LAST, ` : "");
  const order = `${placed("c")}c.updated_at DESC, c.content_id DESC`;
  const page = pageClause(options.limit, options.offset);
  const condition = options.state ? publicationStateCondition(options.state) : undefined;
  // The page is chosen from contents alone (an index serves either order), and only its documents' versions are read.
  const listed = search
    ? searchedPageSql({ bucket: "$1::uuid", pattern: "$2", text: "$3", page, order, condition, published: true })
    : `SELECT c.content_id, c.latest_version_id, c.updated_at, c.position, c.published_version_id, c.unpublished_at
       FROM contents c WHERE c.bucket_id = $1::uuid${condition ? ` AND ${condition}` : ""} ORDER BY ${order} ${page}`;
  const text = `SELECT ${documentCountSql("$1::uuid")} AS total, page."contentId", page."versionId", page.data,
            page."publishedVersionId", page."unpublishedAt", page.scheduled
     FROM buckets b
     LEFT JOIN LATERAL (
       SELECT c.content_id AS "contentId", v.version_id AS "versionId", v.data, c.position, c.updated_at,
              c.published_version_id AS "publishedVersionId", c.unpublished_at AS "unpublishedAt",
              ${inScheduledReleaseSql("c")} AS scheduled
       FROM (${listed}) c JOIN versions v ON v.version_id = c.latest_version_id
     ) page ON true
     WHERE b.id = $1
     ORDER BY ${placed("page")}page.updated_at DESC, page."contentId" DESC`;
  return { text, values: search ? [bucketId, likePattern(search), search] : [bucketId] };
}

/**
 * A page of a bucket's sessions with their publication state: newest first, or (`ordered`) in their stored order
 * with the never-placed ones after, newest first. Total is null while searching or filtering (as the generic
 * overview).
 */
export async function listSessions(
  db: Queryable,
  bucketId: string,
  options: SessionsOptions,
): Promise<{ rows: SessionRow[]; total: number | null }> {
  const { text, values } = sessionsStatement(bucketId, options);
  const { rows } = await db.query<{
    total: number;
    contentId: string | null;
    versionId: string | null;
    data: Record<string, unknown> | null;
    publishedVersionId: string | null;
    unpublishedAt: Date | null;
    scheduled: boolean | null;
  }>(text, values);
  const page = rows.flatMap(({ contentId, versionId, data, publishedVersionId, unpublishedAt, scheduled }) =>
    contentId && versionId
      ? [
          {
            contentId,
            versionId,
            data: data ?? {},
            state: publicationState({ latestVersionId: versionId, publishedVersionId, unpublishedAt, scheduled: scheduled === true }),
          },
        ]
      : [],
  );
  return { rows: page, total: options.search?.trim() || options.state ? null : (rows[0]?.total ?? 0) };
}

/** The property of a case document that holds its video: `thumbnail` (spec §3 Case item), else its first video field. */
function caseVideoProperty(schema: JsonSchema): string | null {
  const properties = propertiesOf(schema);
  if (properties.thumbnail && mediaKindOfSchema(properties.thumbnail) === "video") return "thumbnail";
  return Object.entries(properties).find(([, property]) => mediaKindOfSchema(property) === "video")?.[0] ?? null;
}

interface CaseMedia {
  caseId: string;
  mediaId: string | null;
  bucketId: string | null;
  details: MediaDetails | null;
}

/** The cases (of the collection) these ids name that exist, with their video's latest media row: one query. */
async function casesWithMedia(db: Queryable, caseBucket: Bucket, ids: readonly string[]): Promise<Map<string, CaseMedia>> {
  const video = caseVideoProperty(caseBucket.jsonSchema);
  if (!ids.length) return new Map();
  const { rows } = await db.query<CaseMedia>(
    `SELECT c.content_id AS "caseId", m.content_id AS "mediaId", m.bucket_id AS "bucketId", m.details
     FROM contents c
     JOIN versions v ON v.version_id = c.latest_version_id
     CROSS JOIN LATERAL (
       SELECT CASE WHEN $3::text IS NOT NULL AND v.data ->> $3::text ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                   THEN (v.data ->> $3::text)::uuid END AS video_id
     ) ref
     LEFT JOIN LATERAL (
       SELECT content_id, bucket_id, details FROM media WHERE content_id = ref.video_id ORDER BY seq DESC LIMIT 1
     ) m ON true
     WHERE c.bucket_id = $1 AND c.content_id = ANY($2::uuid[])`,
    [caseBucket.id, ids, video],
  );
  return new Map(rows.map((row) => [row.caseId.toLowerCase(), row]));
}

/** Today as YYYY-MM-DD in the server's time zone (availability is by day). */
export function today(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

/**
 * The sessions of a page as clip cards for this user: the first existing case's still, how many of the named cases
 * exist, and their videos' total duration (null when one is unknown). Cases (and media) in a bucket the user may not
 * see show nothing of themselves: the count is the list's length, no still, no duration.
 */
export async function sessionCards(
  db: Queryable,
  user: User,
  bucket: Bucket,
  rows: readonly SessionRow[],
  options: { availability: boolean; today: string },
): Promise<SessionCard[]> {
  const titleKey = titleProperty(bucket.jsonSchema);
  const casesKey = casesField(bucket.jsonSchema);
  const casesSchema = casesKey ? propertiesOf(bucket.jsonSchema)[casesKey] : undefined;
  const collection =
    casesSchema && isPlainObject(casesSchema.items) && typeof casesSchema.items._ref === "string" ? casesSchema.items._ref : null;
  const caseBucket = collection ? await findBucketByCollection(db, collection) : null;
  const readable = caseBucket && isBucketVisible(caseBucket, user) ? caseBucket : null;
  const casesOf = (data: Record<string, unknown>) => {
    const value = casesKey ? data[casesKey] : undefined;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string").map((id) => id.toLowerCase()) : [];
  };
  const ids = [...new Set(rows.flatMap((row) => casesOf(row.data)))].filter((id) => /^[0-9a-f-]{36}$/.test(id));
  const found = readable ? await casesWithMedia(db, readable, ids) : new Map<string, CaseMedia>();
  // The media of a case usually lives in the cases' bucket; any other bucket must be one the user may see.
  const mediaBuckets = new Map<string, boolean>();
  for (const row of found.values()) {
    if (!row.bucketId || mediaBuckets.has(row.bucketId)) continue;
    const mediaBucket = row.bucketId === readable?.id ? readable : await findBucketById(db, row.bucketId);
    mediaBuckets.set(row.bucketId, !!mediaBucket && isBucketVisible(mediaBucket, user));
  }
  const mediaOf = (item: CaseMedia | undefined) =>
    item?.mediaId && item.details && item.bucketId && mediaBuckets.get(item.bucketId)
      ? { contentId: item.mediaId, details: item.details }
      : null;
  return rows.map((row) => {
    const named = casesOf(row.data);
    const existing = readable ? named.flatMap((id) => found.get(id) ?? []) : [];
    const first = mediaOf(existing[0]);
    const durations = existing.map((item) => mediaOf(item)?.details.duration);
    const known = durations.length > 0 && durations.every((value): value is number => typeof value === "number" && Number.isFinite(value));
    return {
      contentId: row.contentId,
      versionId: row.versionId,
      title: titleKey ? titleText(row.data[titleKey], bucket.locales) : "",
      still: first ? chosenStillUrl(first) : null,
      caseCount: readable ? existing.length : named.length,
      duration: known ? durations.reduce<number>((sum, value) => sum + value, 0) : null,
      availability: options.availability ? availabilityOf(row.data, options.today) : null,
      state: row.state,
    };
  });
}

/** A move that could not be made: the session or its neighbour is gone (deleted since the editor's view). */
export class MoveRefusedError extends Error {
  constructor() {
    super("the session or its neighbour is gone");
  }
}

/**
 * Moves a session right before or after another one and renumbers the bucket's positions 1…n, in one transaction.
 * The bucket's row is locked first, so two editors' moves run one after the other, each on the order the other left:
 * a move names its neighbour (what the editor saw), so it lands where it was meant to even on a stale view.
 */
export async function moveSession(db: Db, bucketId: string, contentId: string, target: MoveTarget): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT id FROM buckets WHERE id = $1 FOR NO KEY UPDATE", [bucketId]);
    const { rows } = await tx.query<{ contentId: string }>(
      `SELECT content_id AS "contentId" FROM contents WHERE bucket_id = $1 ORDER BY position ASC NULLS LAST, updated_at DESC, content_id DESC`,
      [bucketId],
    );
    const order = movedOrder(
      rows.map((row) => row.contentId.toLowerCase()),
      contentId.toLowerCase(),
      lowerTarget(target),
    );
    if (!order) throw new MoveRefusedError();
    await tx.query(
      `UPDATE contents SET position = placed.n
       FROM unnest($2::uuid[]) WITH ORDINALITY AS placed(id, n)
       WHERE contents.bucket_id = $1 AND contents.content_id = placed.id AND contents.position IS DISTINCT FROM placed.n`,
      [bucketId, order],
    );
  });
}

const lowerTarget = (target: MoveTarget): MoveTarget =>
  "before" in target ? { before: target.before.toLowerCase() } : { after: target.after.toLowerCase() };
