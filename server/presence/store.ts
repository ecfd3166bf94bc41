import { prepared, type Queryable } from "@server/db/client";
import { perPerson, type PresentEditor, type SavedEvent } from "@core/content/presence";

/*
 * The presence table (migration 040): one row per page of a document shown. A page shown counts for
 * PAGE_SHOWN_MS unless its browser opens the event stream, which makes the row its server's (server_id) for as
 * long as the stream is open; the server extends it every LIVE_RENEW_MS. Its triggers tell every server (channel
 * vitrine_presence) who came, left or has unsaved changes, and when a document someone has open is saved or deleted.
 */

/** How long a page shown without a live stream (no JavaScript) counts as someone having the document open. */
export const PAGE_SHOWN_MS = 10 * 60 * 1000;
/** How long a live page's row outlives its server's last renewal: a server that died stops counting after this. */
export const LIVE_LEASE_MS = 3 * 60 * 1000;
/** How often a server with live pages renews their rows (and removes the rows that ran out, everyone's). */
export const LIVE_RENEW_MS = 60 * 1000;

export const PRESENCE_CHANNEL = "vitrine_presence";

export interface PresencePage {
  pageId: string;
  bucketId: string;
  contentId: string;
  userId: string;
}

interface EditorRow {
  userId: string;
  name: string;
  since: Date;
  unsaved: boolean;
}

const asEditors = (rows: readonly EditorRow[]): PresentEditor[] =>
  rows.map((row) => ({ userId: row.userId, name: row.name, since: new Date(row.since).toISOString(), unsaved: row.unsaved }));

const EDITORS_SELECT = `SELECT p.user_id AS "userId", u.name, p.since, p.unsaved FROM presence p JOIN users u ON u.id = p.user_id`;

/**
 * Records a page of the document shown to `page.userId` (replacing their earlier pages shown without a live stream,
 * whose `since` it keeps) and answers who else has it open, in one statement.
 */
export async function recordPageShown(db: Queryable, page: PresencePage): Promise<PresentEditor[]> {
  const { rows } = await db.query<EditorRow>(
    prepared(`WITH previous AS (
       DELETE FROM presence WHERE content_id = $3 AND user_id = $4 AND server_id IS NULL RETURNING since, expires_at
     ), shown AS (
       INSERT INTO presence (page_id, bucket_id, content_id, user_id, since, expires_at)
       VALUES ($1, $2, $3, $4, COALESCE((SELECT min(since) FROM previous WHERE expires_at > now()), now()),
               now() + $5 * interval '1 millisecond')
     )
     ${EDITORS_SELECT} WHERE p.content_id = $3 AND p.user_id <> $4 AND p.expires_at > now()`),
    [page.pageId, page.bucketId, page.contentId, page.userId, PAGE_SHOWN_MS],
  );
  return perPerson(asEditors(rows));
}

/**
 * Makes the page's row this server's while its stream is open (a row that ran out or was never shown is made
 * anew). False when the page id is another user's or another document's.
 */
export async function goLive(db: Queryable, page: PresencePage, serverId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO presence (page_id, bucket_id, content_id, user_id, server_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond')
     ON CONFLICT (page_id) DO UPDATE SET server_id = EXCLUDED.server_id, expires_at = EXCLUDED.expires_at
       WHERE presence.user_id = EXCLUDED.user_id AND presence.content_id = EXCLUDED.content_id`,
    [page.pageId, page.bucketId, page.contentId, page.userId, serverId, LIVE_LEASE_MS],
  );
  return rowCount > 0;
}

/** Whether the user was shown this page of the document in this bucket (its row outlives the document's deletion). */
export async function pageShown(db: Queryable, page: PresencePage): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM presence WHERE page_id = $1 AND user_id = $2 AND content_id = $3 AND bucket_id = $4", [
    page.pageId,
    page.userId,
    page.contentId,
    page.bucketId,
  ]);
  return rows.length > 0;
}

/** The page's stream closed: it no longer counts. */
export async function leave(db: Queryable, pageId: string, serverId: string): Promise<void> {
  await db.query("DELETE FROM presence WHERE page_id = $1 AND server_id = $2", [pageId, serverId]);
}

/**
 * Whether the user's page of the document has unsaved changes; false when the page is not theirs, not of this
 * document in this bucket, or no longer counts.
 */
export async function setUnsaved(db: Queryable, page: PresencePage, unsaved: boolean): Promise<boolean> {
  const { rows } = await db.query<{ changed: boolean }>(
    `WITH page AS (
       SELECT page_id FROM presence
       WHERE page_id = $1 AND user_id = $2 AND content_id = $3 AND bucket_id = $4 AND expires_at > now()
     ), changed AS (
       UPDATE presence SET unsaved = $5 WHERE page_id = (SELECT page_id FROM page) AND unsaved <> $5 RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM page) AS changed`,
    [page.pageId, page.userId, page.contentId, page.bucketId, unsaved],
  );
  return rows[0]?.changed === true;
}

/** Extends this server's live rows, and removes every row that ran out (their documents' pages hear of it). */
export async function renewAndSweep(db: Queryable, serverId: string): Promise<void> {
  await db.query(
    `WITH renewed AS (
       UPDATE presence SET expires_at = now() + $2 * interval '1 millisecond' WHERE server_id = $1
     )
     DELETE FROM presence WHERE expires_at <= now()`,
    [serverId, LIVE_LEASE_MS],
  );
}

/** Rows that ran out, whoever's (the hourly maintenance: pages shown without JavaScript while no server renews). */
export async function removeExpired(db: Queryable): Promise<void> {
  await db.query("DELETE FROM presence WHERE expires_at <= now()");
}

/** A stopping server's rows: its streams are closed, their browsers reconnect to another server. */
export async function leaveAll(db: Queryable, serverId: string): Promise<void> {
  await db.query("DELETE FROM presence WHERE server_id = $1", [serverId]);
}

/** Everyone with the document open now, one row per page. */
export async function editorsOf(db: Queryable, contentId: string): Promise<PresentEditor[]> {
  const { rows } = await db.query<EditorRow>(`${EDITORS_SELECT} WHERE p.content_id = $1 AND p.expires_at > now()`, [contentId]);
  return asEditors(rows);
}

/** Who has each of these documents open, but `userId`: names per document, for an overview's rows. */
export async function editorsOfDocuments(db: Queryable, contentIds: readonly string[], userId: string): Promise<Record<string, string[]>> {
  if (contentIds.length === 0) return {};
  const { rows } = await db.query<{ contentId: string; names: string[] }>(
    prepared(`SELECT p.content_id AS "contentId", array_agg(DISTINCT u.name ORDER BY u.name) AS names
     FROM presence p JOIN users u ON u.id = p.user_id
     WHERE p.content_id = ANY($1::uuid[]) AND p.user_id <> $2 AND p.expires_at > now()
     GROUP BY p.content_id`),
    [contentIds, userId],
  );
  return Object.fromEntries(rows.map((row) => [row.contentId, row.names]));
}

/** The document's latest version and who saved it, for the pages that have it open; null once it is gone. */
export async function latestSave(db: Queryable, contentId: string): Promise<SavedEvent | null> {
  const { rows } = await db.query<SavedEvent>(
    `SELECT c.latest_version_id AS "versionId", u.name AS author, v.created_by AS "authorId"
     FROM contents c JOIN versions v ON v.version_id = c.latest_version_id LEFT JOIN users u ON u.id = v.created_by
     WHERE c.content_id = $1`,
    [contentId],
  );
  return rows[0] ?? null;
}
