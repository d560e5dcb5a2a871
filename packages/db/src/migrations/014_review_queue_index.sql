-- The review queue by confidence over the whole video (issue 17): GET /api/videos/detections/next/
-- answers the most confident unreviewed detection of a video, ties by start then id. Without this
-- index a 50,000-detection video sorted all its unreviewed rows for every verdict (about half a
-- second on PostgreSQL); with it the answer is the first index entry that passes the filters.
CREATE INDEX detections_review_queue_idx ON detections (video_id, confidence DESC NULLS LAST, time_begin, id)
  WHERE review = 'UNREVIEWED';
