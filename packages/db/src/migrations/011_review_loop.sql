-- The review loop (issue 17): more review states, who reviewed a detection last and when, and a
-- per-detection history. The audit_log (010) records calls, not which detection a call changed nor
-- what it was before: a history that the editor reads per detection needs its own rows.
--
-- review: listed states UNREVIEWED, TRUE_POSITIVE, EDITED (moved, resized, trimmed, split or merged
-- by a person), MANUAL (drawn by a person); kept but never listed: FALSE_POSITIVE (counts for
-- precision) and DELETED (a soft delete, so that it can be undone).
ALTER TABLE detections ADD COLUMN reviewed_by integer REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE detections ADD COLUMN reviewed_at timestamptz;

-- Hand-drawn detections were stored as TRUE_POSITIVE; a false positive among them stays one.
UPDATE detections SET review = 'MANUAL' WHERE source = 'manual' AND review = 'TRUE_POSITIVE';

ALTER TABLE detections ADD CONSTRAINT detections_review_check
  CHECK (review IN ('UNREVIEWED', 'TRUE_POSITIVE', 'EDITED', 'MANUAL', 'FALSE_POSITIVE', 'DELETED'));

-- The video list shows each video's review progress in one aggregate over this index.
CREATE INDEX detections_video_review_idx ON detections (video_id, review);

-- One row per review action on a detection: user_id is null for a call made with the API key.
CREATE TABLE detection_history (
  id bigserial PRIMARY KEY,
  organization_id integer NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  detection_id bigint NOT NULL REFERENCES detections(id) ON DELETE CASCADE,
  user_id integer REFERENCES users(id) ON DELETE SET NULL,
  action text NOT NULL,
  detail text NOT NULL DEFAULT '',
  at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX detection_history_detection_idx ON detection_history (detection_id, id);
