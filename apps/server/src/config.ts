import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { LIMITS } from '@logo-review/contract';
import { backgroundNice } from './ops/thread-priority.ts';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  role: Role;
  adminUsername: string;
  adminPassword: string | undefined;
  /** Concurrent jobs per worker process and queue. */
  workerConcurrency: number;
  /** The queue's last resort: a job still running after this many seconds is failed and retried. */
  jobExpireSeconds: number;
  /**
   * A running job's process renews its lease every third of this; a job whose lease is this old
   * (its process died) is retried. Also the analysis lease of a video.
   */
  jobLeaseSeconds: number;
  /** Frames analysed per second of video; undefined = the engine's benchmarked default. */
  analysisSampleFps: number | undefined;
  /** Frames are downscaled to this height for analysis; undefined = the engine's default. */
  analysisHeight: number | undefined;
  /**
   * A video longer than this many seconds is analysed as chunks of this length, each a job of its
   * own that any worker can take; 0: every video as one job.
   */
  analysisChunkSeconds: number;
  /** Chunk jobs a worker process runs at once (each on about one core). */
  analysisChunkConcurrency: number;
  /**
   * Seconds an analysis's engine thread and detector threads are kept after it for the next
   * analysis (the next chunk); 0: started and ended with each analysis.
   */
  analysisKeepWarmSeconds: number;
  webDist: string;
  logLevel: string;
  /**
   * Proxies whose X-Forwarded-For is believed (addresses, CIDRs, or proxy-addr's names loopback,
   * linklocal, uniquelocal); false: none, the client address is the connection's.
   */
  trustProxy: false | string[];
  /**
   * The bearer token that /metrics asks for; undefined: /metrics is off (404), so a fresh install
   * never publishes its load and job volume to whoever can reach it.
   */
  metricsToken: string | undefined;
  /**
   * A second port that serves only /health, /ready and /metrics; undefined: none. A worker-only
   * process has no other HTTP listener, so this is how it is probed and scraped.
   */
  opsPort: number | undefined;
  /**
   * Threads that build Excel reports (the per-video and campaign reports), off the event loop;
   * more reports at once wait their turn. 0: reports are built in the server's own thread.
   */
  reportThreads: number;
  /** BACKGROUND_NICE: checked at start; the background threads read it themselves (thread-priority.ts). */
  backgroundNice: number;
  /** Bytes of detection JSON the API keeps for the editor's window query (WINDOW_CACHE_MB; 0: none). */
  windowCacheBytes: number;
  /** On SIGTERM/SIGINT, running jobs get this long to finish before they are handed back to the queue. */
  shutdownGraceSeconds: number;
  /** The largest video an upload may bring, multipart or resumable (bytes). */
  uploadMaxBytes: number;
  /**
   * A resumable upload not finished this long after it began is abandoned: its partial file is
   * removed, and the client starts a new upload (hours).
   */
  uploadExpireHours: number;
}

function int(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number (got '${value}')`);
  return n;
}

function positive(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!(n > 0)) throw new Error(`${name} must be a positive number (got '${value}')`);
  return n;
}

/** UPLOAD_MAX_BYTES: a whole number of bytes, or one with a unit (500MB, 8GiB, 2TB). */
function byteSize(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(|B|KB|KiB|MB|MiB|GB|GiB|TB|TiB)\s*$/i.exec(value);
  const units: Record<string, number> = { '': 1, b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2 };
  Object.assign(units, { gb: 1e9, gib: 1024 ** 3, tb: 1e12, tib: 1024 ** 4 });
  const n = m ? Math.floor(Number(m[1]) * units[m[2].toLowerCase()]) : NaN;
  if (!(n > 0))
    throw new Error(`${name} must be a size in bytes such as 8589934592 or 8GiB (got '${value}')`);
  return n;
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** TRUST_PROXY: unset or empty = trust no proxy; else a comma-separated list of addresses or CIDRs. */
function trustProxy(value: string | undefined): false | string[] {
  if (value === undefined || value.trim() === '') return false;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [addr, bits, ...rest] = entry.split('/');
    const version = isIP(addr);
    const okBits =
      bits === undefined ||
      (/^\d+$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32) && rest.length === 0);
    if (!(PROXY_NAMES.includes(entry) || (version !== 0 && okBits)))
      throw new Error(`TRUST_PROXY must list addresses or CIDRs (got '${entry}')`);
  }
  return list;
}

/** METRICS_TOKEN: long enough that it cannot be guessed, and sendable in a header as it is. */
function metricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[\x21-\x7e]{16,200}$/.test(value))
    throw new Error('METRICS_TOKEN must be 16 to 200 printable characters without spaces');
  return value;
}

/** ANALYSIS_CHUNK_SECONDS's default, chosen by measurement (bench/scale/README.md). */
export const DEFAULT_CHUNK_SECONDS = 120;

/** Reads the configuration from the environment (see README, "Configuration"). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const role = (env.ROLE ?? 'all') as Role;
  if (!['all', 'api', 'worker'].includes(role))
    throw new Error(`ROLE must be all, api or worker (got '${role}')`);
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  return {
    port: int('PORT', env.PORT, 8000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    role,
    adminUsername: env.ADMIN_USERNAME ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    workerConcurrency: int('WORKER_CONCURRENCY', env.WORKER_CONCURRENCY, 1),
    jobExpireSeconds: int('JOB_EXPIRE_SECONDS', env.JOB_EXPIRE_SECONDS, 3600),
    jobLeaseSeconds: Math.max(3, int('JOB_LEASE_SECONDS', env.JOB_LEASE_SECONDS, 30)),
    analysisSampleFps: positive('ANALYSIS_SAMPLE_FPS', env.ANALYSIS_SAMPLE_FPS),
    analysisHeight: env.ANALYSIS_HEIGHT
      ? int('ANALYSIS_HEIGHT', env.ANALYSIS_HEIGHT, 0) || undefined
      : undefined,
    analysisChunkSeconds: int('ANALYSIS_CHUNK_SECONDS', env.ANALYSIS_CHUNK_SECONDS, DEFAULT_CHUNK_SECONDS),
    analysisChunkConcurrency: Math.max(
      1,
      int('ANALYSIS_CHUNK_CONCURRENCY', env.ANALYSIS_CHUNK_CONCURRENCY, availableParallelism()),
    ),
    analysisKeepWarmSeconds: int('ANALYSIS_KEEP_WARM_SECONDS', env.ANALYSIS_KEEP_WARM_SECONDS, 60),
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: trustProxy(env.TRUST_PROXY),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    opsPort: env.OPS_PORT ? int('OPS_PORT', env.OPS_PORT, 0) : undefined,
    reportThreads: int('REPORT_THREADS', env.REPORT_THREADS, 2),
    backgroundNice: backgroundNice(env.BACKGROUND_NICE),
    windowCacheBytes: int('WINDOW_CACHE_MB', env.WINDOW_CACHE_MB, 128) * 2 ** 20,
    shutdownGraceSeconds: int('SHUTDOWN_GRACE_SECONDS', env.SHUTDOWN_GRACE_SECONDS, 30),
    uploadMaxBytes: byteSize('UPLOAD_MAX_BYTES', env.UPLOAD_MAX_BYTES, LIMITS.videoMaxBytes),
    uploadExpireHours: positive('UPLOAD_EXPIRE_HOURS', env.UPLOAD_EXPIRE_HOURS) ?? 48,
  };
}
