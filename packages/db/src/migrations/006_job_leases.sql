-- Which worker process runs which queue job, and when that process last said it is alive. A job
-- whose process stopped beating (it was killed, or its machine died) is failed back to the queue,
-- which retries it within about two lease periods, whatever the queue's expiry. One row a running
-- job; the process deletes it when the job ends.
CREATE TABLE job_leases (
  job_id uuid PRIMARY KEY,
  queue text NOT NULL,
  owner text NOT NULL,
  beat timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_leases_beat ON job_leases (beat);
CREATE INDEX job_leases_owner ON job_leases (owner);
