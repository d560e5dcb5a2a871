import type { Database } from '@logo-review/db';
import type { Config } from './config.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { MediaSigner } from './media/signer.ts';
import type { Storage } from './media/storage.ts';
import type { Metrics } from './ops/metrics.ts';
import type { DetectionJsonCache } from './repositories/detection-json-cache.ts';
import type { ReportThreads } from './reports/report-threads.ts';

/** Everything a route, service or job needs, built once at start. */
export interface AppContext {
  config: Config;
  db: Database;
  storage: Storage;
  signer: MediaSigner;
  jobs: JobQueue;
  metrics: Metrics;
  /** Builds Excel reports off the event loop (REPORT_THREADS). */
  reports: ReportThreads;
  /** Detections' JSON for the window query (null when WINDOW_CACHE_MB is 0). */
  windowCache: DetectionJsonCache | null;
}

/** The signed-in caller, set by the auth hook. */
export interface Caller {
  /** The signed-in user; null for a call made with the organization's API key. */
  userId: number | null;
  organizationId: number;
  /** Hash of the session token, or of the API key. */
  tokenHash: string;
  /** Set for a call made with the API key: how the key is shown (masked). */
  apiKey?: string;
}
