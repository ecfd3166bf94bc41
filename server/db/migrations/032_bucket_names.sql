-- A bucket's name per interface locale ({"en": "…", "nl": "…"}), besides its name (the default): pages show the name
-- for the interface language and fall back to the default name (core/content/bucket-name.ts).
ALTER TABLE buckets ADD COLUMN names jsonb NOT NULL DEFAULT '{}'::jsonb;
