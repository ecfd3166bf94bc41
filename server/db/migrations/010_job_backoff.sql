-- A failed attempt queues its job again for later (server/jobs/backoff.ts): a new job is claimed once run_after
-- has passed. Jobs already queued are due at once.
ALTER TABLE jobs ADD COLUMN run_after timestamptz NOT NULL DEFAULT now();
