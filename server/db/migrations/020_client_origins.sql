-- The delivery API (issue 14): the web origins whose pages may call it with a client's token (CORS). Empty: none,
-- which is right for apps that are not web pages (a kiosk app, a script).
ALTER TABLE api_clients ADD COLUMN allowed_origins text[] NOT NULL DEFAULT '{}';
