-- Password reset requests made while the installation cannot send mail (issue 36): the admins see them under
-- Settings → Users until one of them sets the user's password or makes a reset link, or the user resets. Only requests
-- for existing, active accounts are kept (the request page answers every address the same); at most one is open per
-- user, a repeat moves its time.
CREATE TABLE password_reset_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  requested_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz
);
CREATE UNIQUE INDEX password_reset_requests_open_key ON password_reset_requests (user_id) WHERE closed_at IS NULL;
