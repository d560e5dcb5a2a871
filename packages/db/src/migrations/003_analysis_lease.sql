-- Who is analysing a video right now, and when it last said it is alive. The queue reruns a job
-- whose worker looks dead (it ran past its expiry); the lease stops a rerun from analysing the same
-- video beside a live attempt, and lets only the lease holder write the result.
ALTER TABLE videos ADD COLUMN analysis_owner text;
ALTER TABLE videos ADD COLUMN analysis_beat timestamptz;
