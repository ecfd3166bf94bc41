-- A bucket's screen is one of the screens' table (specialised-screens/table.ts), checked by the bucket definition's
-- schema where a definition is saved: a new screen is a folder and a line in that table, not a migration. A bucket
-- whose screen later leaves the table opens in the generic editor (core/content/screens.ts).
ALTER TABLE buckets DROP CONSTRAINT IF EXISTS buckets_screen_check;
