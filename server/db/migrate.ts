import type { Db } from "./client";
import init from "./migrations/001_init.sql?raw";
import contentSingletons from "./migrations/002_content_singletons.sql?raw";
import media from "./migrations/005_media.sql?raw";
import search from "./migrations/008_search.sql?raw";
import insertOrder from "./migrations/009_insert_order.sql?raw";
import jobBackoff from "./migrations/010_job_backoff.sql?raw";
import pendingUploads from "./migrations/011_pending_uploads.sql?raw";
import administration from "./migrations/012_administration.sql?raw";
import bucketAdmin from "./migrations/013_bucket_admin.sql?raw";
import contentsKeyset from "./migrations/014_contents_keyset.sql?raw";
import formDrafts from "./migrations/015_form_drafts.sql?raw";
import versionOrder from "./migrations/016_version_order.sql?raw";
import bucketScreens from "./migrations/017_bucket_screens.sql?raw";
import webhooks from "./migrations/018_webhooks.sql?raw";
import shareables from "./migrations/019_shareables.sql?raw";
import clientOrigins from "./migrations/020_client_origins.sql?raw";
import deliveryBundles from "./migrations/025_delivery_bundles.sql?raw";
import readCacheNotices from "./migrations/026_read_cache_notices.sql?raw";
import storedSearchText from "./migrations/027_stored_search_text.sql?raw";
import documentCountSlots from "./migrations/028_document_count_slots.sql?raw";
import searchTextLowered from "./migrations/029_search_text_lowered.sql?raw";
import contentsCreatedOrder from "./migrations/030_contents_created_order.sql?raw";
import passwordResetRequests from "./migrations/031_password_reset_requests.sql?raw";
import bucketNames from "./migrations/032_bucket_names.sql?raw";
import activityLog from "./migrations/033_activity_log.sql?raw";
import publishing from "./migrations/034_publishing.sql?raw";
import releases from "./migrations/035_releases.sql?raw";
import preview from "./migrations/036_preview.sql?raw";
import reviewRequests from "./migrations/037_review_requests.sql?raw";
import publishedSearchText from "./migrations/038_published_search_text.sql?raw";
import mergedVersions from "./migrations/039_merged_versions.sql?raw";
import presence from "./migrations/040_presence.sql?raw";
import mediaLibrary from "./migrations/041_media_library.sql?raw";
import mediaUseItems from "./migrations/042_media_use_items.sql?raw";
import documentImports from "./migrations/043_document_imports.sql?raw";
import importMediaProblems from "./migrations/044_import_media_problems.sql?raw";
import bucketScreenAny from "./migrations/045_bucket_screen_any.sql?raw";

/**
 * Numbered migrations, applied in order; never edit one that has shipped. Numbers 3, 4, 6, 7 and 21–24 were never
 * shipped: the gaps are harmless, since a migration runs when its version is not yet recorded in schema_migrations,
 * whatever the numbers around it; a new migration takes the next number after the last one here.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  { version: 1, name: "init", sql: init },
  { version: 2, name: "content_singletons", sql: contentSingletons },
  { version: 5, name: "media", sql: media },
  { version: 8, name: "search", sql: search },
  { version: 9, name: "insert_order", sql: insertOrder },
  { version: 10, name: "job_backoff", sql: jobBackoff },
  { version: 11, name: "pending_uploads", sql: pendingUploads },
  { version: 12, name: "administration", sql: administration },
  { version: 13, name: "bucket_admin", sql: bucketAdmin },
  { version: 14, name: "contents_keyset", sql: contentsKeyset },
  { version: 15, name: "form_drafts", sql: formDrafts },
  { version: 16, name: "version_order", sql: versionOrder },
  { version: 17, name: "bucket_screens", sql: bucketScreens },
  { version: 18, name: "webhooks", sql: webhooks },
  { version: 19, name: "shareables", sql: shareables },
  { version: 20, name: "client_origins", sql: clientOrigins },
  { version: 25, name: "delivery_bundles", sql: deliveryBundles },
  { version: 26, name: "read_cache_notices", sql: readCacheNotices },
  { version: 27, name: "stored_search_text", sql: storedSearchText },
  { version: 28, name: "document_count_slots", sql: documentCountSlots },
  { version: 29, name: "search_text_lowered", sql: searchTextLowered },
  { version: 30, name: "contents_created_order", sql: contentsCreatedOrder },
  { version: 31, name: "password_reset_requests", sql: passwordResetRequests },
  { version: 32, name: "bucket_names", sql: bucketNames },
  { version: 33, name: "activity_log", sql: activityLog },
  { version: 34, name: "publishing", sql: publishing },
  { version: 35, name: "releases", sql: releases },
  { version: 36, name: "preview", sql: preview },
  { version: 37, name: "review_requests", sql: reviewRequests },
  { version: 38, name: "published_search_text", sql: publishedSearchText },
  { version: 39, name: "merged_versions", sql: mergedVersions },
  { version: 40, name: "presence", sql: presence },
  { version: 41, name: "media_library", sql: mediaLibrary },
  { version: 42, name: "media_use_items", sql: mediaUseItems },
  { version: 43, name: "document_imports", sql: documentImports },
  { version: 44, name: "import_media_problems", sql: importMediaProblems },
  { version: 45, name: "bucket_screen_any", sql: bucketScreenAny },
];

const MIGRATION_LOCK_KEY = 7_472_846_301; // any constant shared by every server

/**
 * Applies pending migrations in one transaction under an advisory lock, so
 * that servers starting at once migrate once: the others wait, then find
 * nothing left to do.
 */
export async function migrate(db: Db, migrations = MIGRATIONS): Promise<number[]> {
  // Nearly every start has nothing to apply: one read says so, without a transaction, a lock or a CREATE TABLE.
  // A migration that another server is applying is not committed yet, so it counts as missing here.
  if (await allApplied(db, migrations)) return [];
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number }>("SELECT version FROM schema_migrations");
    const done = new Set(rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return applied;
  });
}

const UNDEFINED_TABLE = "42P01";

async function allApplied(db: Db, migrations: ReadonlyArray<{ version: number }>): Promise<boolean> {
  try {
    const { rows } = await db.query<{ applied: number }>(
      "SELECT count(*)::int AS applied FROM schema_migrations WHERE version = ANY($1::int[])",
      [migrations.map((migration) => migration.version)],
    );
    return rows[0]?.applied === migrations.length;
  } catch (error) {
    // A new database has no schema_migrations yet: the locked path creates it.
    if ((error as { code?: string }).code === UNDEFINED_TABLE) return false;
    throw error;
  }
}
