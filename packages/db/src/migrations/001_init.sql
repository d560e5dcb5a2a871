-- Initial schema. Every business row carries organization_id: queries are always scoped by it.
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE TABLE server_settings (
  name text PRIMARY KEY,
  value text NOT NULL
);

CREATE TABLE organizations (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  api_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  username text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions(user_id);

CREATE TABLE brands (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  localized_name text NOT NULL DEFAULT '',
  url text NOT NULL DEFAULT '',
  logograb_id text,
  status text NOT NULL DEFAULT 'NO LOGOS',
  status_reason text NOT NULL DEFAULT '',
  activation_progress real NOT NULL DEFAULT 0,
  deactivated boolean NOT NULL DEFAULT false,
  index_version integer NOT NULL DEFAULT 0,
  index_path text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX brands_org_idx ON brands(organization_id);

CREATE TABLE brand_logos (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  brand_id integer NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  file_name text NOT NULL,
  stored_path text NOT NULL,
  mime text NOT NULL,
  sha256 text NOT NULL,
  width integer NOT NULL DEFAULT 0,
  height integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX brand_logos_brand_idx ON brand_logos(brand_id);

CREATE TABLE placements (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  localized_name text NOT NULL,
  color text NOT NULL DEFAULT '#000000',
  manual boolean NOT NULL DEFAULT true,
  auto_key text,
  UNIQUE (organization_id, auto_key)
);

CREATE TABLE projects (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE project_hidden_brands (
  project_id integer NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  brand_id integer NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, brand_id)
);
CREATE TABLE project_hidden_placements (
  project_id integer NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  placement_id integer NOT NULL REFERENCES placements(id) ON DELETE CASCADE,
  PRIMARY KEY (project_id, placement_id)
);

CREATE TABLE folders (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  parent_id integer REFERENCES folders(id) ON DELETE RESTRICT,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX folders_org_idx ON folders(organization_id);

CREATE TABLE videos (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  folder_id integer REFERENCES folders(id) ON DELETE RESTRICT,
  project_id integer REFERENCES projects(id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'UPLOADED',
  status_reason text NOT NULL DEFAULT '',
  progress real NOT NULL DEFAULT 0,
  request_hash text NOT NULL DEFAULT '',
  content_sha256 text NOT NULL DEFAULT '',
  frames integer NOT NULL DEFAULT 0,
  fps double precision NOT NULL DEFAULT 0,
  width integer NOT NULL DEFAULT 0,
  height integer NOT NULL DEFAULT 0,
  duration double precision NOT NULL DEFAULT 0,
  file_name text NOT NULL,
  stored_path text NOT NULL,
  size bigint NOT NULL DEFAULT 0,
  thumbnails jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX videos_org_idx ON videos(organization_id);
CREATE INDEX videos_folder_idx ON videos(folder_id);

CREATE TABLE tags (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  brand_id integer NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  project_id integer REFERENCES projects(id) ON DELETE SET NULL,
  archived boolean NOT NULL DEFAULT false
);
CREATE TABLE tag_placements (
  tag_id integer NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  placement_id integer NOT NULL REFERENCES placements(id) ON DELETE CASCADE,
  PRIMARY KEY (tag_id, placement_id)
);

CREATE TABLE verification_videos (
  id serial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name text NOT NULL,
  video_id integer NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'SUBMITTED',
  status_reason text NOT NULL DEFAULT '',
  progress real NOT NULL DEFAULT 0,
  stored_path text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One detection = one brand instance over a time span. coordinates: [{start_time,end_time,points[8]}].
-- placement_id is the current placement; auto_placement_id the engine's choice, used again when a
-- manual placement is deleted. review: UNREVIEWED, TRUE_POSITIVE, FALSE_POSITIVE (kept, not listed).
CREATE TABLE detections (
  id bigserial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  video_id integer NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  brand_id integer NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  placement_id integer NOT NULL REFERENCES placements(id),
  auto_placement_id integer NOT NULL REFERENCES placements(id),
  logo_id integer REFERENCES brand_logos(id) ON DELETE SET NULL,
  time_begin double precision NOT NULL,
  time_end double precision NOT NULL,
  coordinates jsonb NOT NULL,
  confidence real,
  review text NOT NULL DEFAULT 'UNREVIEWED',
  source text NOT NULL DEFAULT 'engine',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (time_begin <= time_end)
);
-- The window query asks "span overlaps [start, end]" for one video: a GiST index over
-- (video_id, span) answers it without scanning every detection that began earlier.
CREATE INDEX detections_window_idx ON detections USING gist (
  video_id, int8range(floor(time_begin)::bigint, ceil(time_end)::bigint, '[]')
);
CREATE INDEX detections_video_begin_idx ON detections(video_id, time_begin);
CREATE INDEX detections_brand_idx ON detections(brand_id);
CREATE INDEX detections_placement_idx ON detections(placement_id);
