import type { Database } from '@logo-review/db';
import type { Config } from './config.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { MediaSigner } from './media/signer.ts';
import type { Storage } from './media/storage.ts';

/** Everything a route, service or job needs, built once at start. */
export interface AppContext {
  config: Config;
  db: Database;
  storage: Storage;
  signer: MediaSigner;
  jobs: JobQueue;
}

/** The signed-in caller, set by the auth hook. */
export interface Caller {
  userId: number;
  organizationId: number;
  tokenHash: string;
}
