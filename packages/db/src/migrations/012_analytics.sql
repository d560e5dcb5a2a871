-- Analytics (issue 20): media value settings per organization, measured analysis times, and
-- per-video per-brand exposure aggregates that the dashboard reads instead of the detections.
-- The same SQL runs on PostgreSQL and on the embedded PGlite database.

-- Media value: a currency and whether unreviewed detections count, per organization...
CREATE TABLE analytics_settings (
  organization_id integer PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  currency text NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
  count_unreviewed boolean NOT NULL DEFAULT true
);
-- ... and a rate (money per second of fully weighted exposure) per placement.
CREATE TABLE placement_rates (
  placement_id integer PRIMARY KEY REFERENCES placements(id) ON DELETE CASCADE,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  rate_per_second double precision NOT NULL CHECK (rate_per_second >= 0)
);

-- The analysis speed shown as an ETA: when the current analysis started, and how long the last
-- successful one took (wall seconds, decoding to written result).
ALTER TABLE videos ADD COLUMN analysis_started_at timestamptz;
ALTER TABLE videos ADD COLUMN analysis_wall_seconds double precision;
ALTER TABLE videos ADD COLUMN analysis_finished_at timestamptz;
CREATE INDEX videos_org_created_idx ON videos (organization_id, created_at, id);
CREATE INDEX videos_project_idx ON videos (project_id);
CREATE INDEX videos_org_analysed_idx ON videos (organization_id, analysis_finished_at)
  WHERE analysis_wall_seconds IS NOT NULL;

-- Per video, per brand, per counting mode (with_unreviewed): the sums of
-- apps/server/src/analytics/exposure.ts over all placements (video_brand_stats) and per placement
-- (video_placement_stats), with the media value at the organization's current rates (rewritten
-- when rates change). Rebuilt from the video's detections when it is marked dirty (below); rows of
-- a deleted video go with it. Two tables, so that the dashboard's brand totals scan only those.
CREATE TABLE video_brand_stats (
  video_id integer NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  with_unreviewed boolean NOT NULL,
  brand_id integer NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  detections integer NOT NULL,
  exposure_s double precision NOT NULL,
  size_weighted_s double precision NOT NULL,
  valued_s double precision NOT NULL,
  share_w double precision NOT NULL,
  weight double precision NOT NULL,
  max_share double precision NOT NULL,
  position_w double precision NOT NULL,
  clutter_w double precision NOT NULL,
  clutter_factor_w double precision NOT NULL,
  duration_ms double precision NOT NULL,
  media_value double precision NOT NULL DEFAULT 0,
  PRIMARY KEY (video_id, with_unreviewed, brand_id)
);
CREATE TABLE video_placement_stats (
  video_id integer NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  with_unreviewed boolean NOT NULL,
  brand_id integer NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  placement_id integer NOT NULL REFERENCES placements(id) ON DELETE CASCADE,
  detections integer NOT NULL,
  exposure_s double precision NOT NULL,
  valued_s double precision NOT NULL,
  media_value double precision NOT NULL DEFAULT 0,
  PRIMARY KEY (video_id, with_unreviewed, brand_id, placement_id)
);
CREATE INDEX video_brand_stats_org_idx ON video_brand_stats (organization_id);
CREATE INDEX video_placement_stats_org_idx ON video_placement_stats (organization_id, placement_id);

-- Per video: listed detections (not false positive or deleted) and how many are reviewed.
CREATE TABLE video_review_stats (
  video_id integer PRIMARY KEY REFERENCES videos(id) ON DELETE CASCADE,
  total integer NOT NULL,
  reviewed integer NOT NULL
);

-- Videos whose aggregates are stale. No foreign key: a deleted video's detections mark it on their
-- way out; the refresh drops such rows. version tells a refresh whether the video changed again
-- while it computed.
CREATE SEQUENCE analytics_dirty_seq;
CREATE TABLE analytics_dirty (
  video_id integer PRIMARY KEY,
  version bigint NOT NULL DEFAULT nextval('analytics_dirty_seq')
);

CREATE FUNCTION analytics_mark_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty (video_id) SELECT DISTINCT video_id FROM changed
  ON CONFLICT (video_id) DO UPDATE SET version = nextval('analytics_dirty_seq');
  RETURN NULL;
END $$;

-- Statement-level triggers: a bulk insert of a video's detections marks it once.
CREATE TRIGGER detections_analytics_ins AFTER INSERT ON detections
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_new();
CREATE TRIGGER detections_analytics_upd AFTER UPDATE ON detections
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_new();
CREATE TRIGGER detections_analytics_del AFTER DELETE ON detections
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION analytics_mark_new();

-- A video's frame size and project (hidden brands and placements) change its aggregates too.
CREATE FUNCTION analytics_mark_video() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty (video_id) VALUES (NEW.id)
  ON CONFLICT (video_id) DO UPDATE SET version = nextval('analytics_dirty_seq');
  RETURN NULL;
END $$;
CREATE TRIGGER videos_analytics_upd AFTER UPDATE OF project_id, width, height, duration ON videos
  FOR EACH ROW WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id OR OLD.width <> NEW.width
    OR OLD.height <> NEW.height OR OLD.duration <> NEW.duration)
  EXECUTE FUNCTION analytics_mark_video();
CREATE TRIGGER videos_analytics_ins AFTER INSERT ON videos
  FOR EACH ROW EXECUTE FUNCTION analytics_mark_video();

CREATE FUNCTION analytics_mark_project() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO analytics_dirty (video_id)
    SELECT id FROM videos WHERE project_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.project_id ELSE NEW.project_id END)
  ON CONFLICT (video_id) DO UPDATE SET version = nextval('analytics_dirty_seq');
  RETURN NULL;
END $$;
CREATE TRIGGER project_hidden_brands_analytics AFTER INSERT OR DELETE ON project_hidden_brands
  FOR EACH ROW EXECUTE FUNCTION analytics_mark_project();
CREATE TRIGGER project_hidden_placements_analytics AFTER INSERT OR DELETE ON project_hidden_placements
  FOR EACH ROW EXECUTE FUNCTION analytics_mark_project();

-- Videos analysed before this migration get their aggregates at the first dashboard call.
INSERT INTO analytics_dirty (video_id) SELECT id FROM videos;
