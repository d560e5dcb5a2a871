-- Who changed what: one row per successful change through the API (POST, PUT, PATCH, DELETE), with
-- the user who made it, or for a script the organization's API key (masked) instead of a user.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id integer REFERENCES users(id) ON DELETE SET NULL,
  api_key text,
  method text NOT NULL,
  route text NOT NULL,
  url text NOT NULL,
  status integer NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_organization_at ON audit_log (organization_id, at);
