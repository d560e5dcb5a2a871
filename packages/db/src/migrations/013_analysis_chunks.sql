-- A long video is analysed as chunks (spans of ANALYSIS_CHUNK_SECONDS), each a queue job of its own
-- that any worker can take. One row a chunk of one analysis (request_hash): its span, the worker
-- holding it and when that worker last said it is alive (a chunk whose worker died is taken over
-- by the job's rerun), and, once done, the engine detections found in its span. When the last chunk
-- is done its tracks are stitched across the boundaries and written as the video's detections.
-- A new analysis of the video (another request_hash) deletes the rows of the earlier one.
CREATE TABLE analysis_chunks (
  video_id integer NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  request_hash text NOT NULL,
  chunk integer NOT NULL,
  chunks integer NOT NULL,
  start_ms integer NOT NULL,
  end_ms integer NOT NULL,
  owner text,
  beat timestamptz,
  detections jsonb,
  done_at timestamptz,
  -- seconds spent by the engine on this span, for the scale-out benchmark and the logs
  engine_seconds double precision,
  PRIMARY KEY (video_id, request_hash, chunk)
);
