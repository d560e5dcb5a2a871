import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How a job's run ended: done, failed (its handler threw), or released at shutdown to run again. */
export type JobOutcome = 'completed' | 'failed' | 'released';

/** Jobs waiting (created or waiting to retry) and running, per job kind. */
export interface QueueCounts {
  kind: string;
  waiting: number;
  active: number;
}

/**
 * The process's Prometheus metrics (prom-client), served at /metrics. One registry per context
 * rather than prom-client's global one: tests run several servers in one process, and a metric
 * registered twice in one registry is an error.
 *
 * Labels are bounded on purpose: the route label is the route's pattern (`/api/videos/:id/`), never
 * the URL, and statuses are grouped by class, so ids in paths cannot multiply the series.
 */
export class Metrics {
  readonly registry = new Registry();

  private readonly httpDuration = new Histogram({
    name: 'logo_review_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status class (2xx, 4xx, ...)',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  private readonly jobDuration = new Histogram({
    name: 'logo_review_job_duration_seconds',
    help: 'Wall time of a job run by job kind and outcome (completed, failed, released)',
    labelNames: ['kind', 'outcome'] as const,
    // Jobs range from a brand activation (seconds) to a whole match's analysis (half an hour).
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600],
    registers: [this.registry],
  });

  private readonly jobsFailed = new Counter({
    name: 'logo_review_jobs_failed_total',
    help: 'Failed job tries by job kind; final="true" when it was the last try (the job is given up)',
    labelNames: ['kind', 'final'] as const,
    registers: [this.registry],
  });

  private readonly analysisSpeed = new Histogram({
    name: 'logo_review_analysis_realtime_ratio',
    help: 'Analysis speed per analysed video: seconds of video per second of wall time (x real time)',
    buckets: [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 16, 32],
    registers: [this.registry],
  });

  private readonly analysedSeconds = new Counter({
    name: 'logo_review_analysis_video_seconds_total',
    help: 'Seconds of video analysed (its rate is the throughput in video seconds per second)',
    registers: [this.registry],
  });

  private readonly queueDepth = new Gauge({
    name: 'logo_review_queue_depth',
    help: 'Jobs waiting to run (created, or waiting to retry) by job kind; the queue is shared, so every process reports the same value',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private readonly queueActive = new Gauge({
    name: 'logo_review_queue_active',
    help: 'Jobs running on any worker by job kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  private queueCounts: (() => Promise<QueueCounts[]>) | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Where the queue gauges read their counts at each scrape. */
  watchQueue(counts: () => Promise<QueueCounts[]>): void {
    this.queueCounts = counts;
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
  }

  jobRun(kind: string, outcome: JobOutcome, seconds: number): void {
    this.jobDuration.observe({ kind, outcome }, seconds);
  }

  jobFailed(kind: string, final: boolean): void {
    this.jobsFailed.inc({ kind, final: String(final) });
  }

  /** One video analysed: `videoSeconds` of footage in `wallSeconds`. */
  analysis(videoSeconds: number, wallSeconds: number): void {
    if (!(videoSeconds > 0) || !(wallSeconds > 0)) return;
    this.analysisSpeed.observe(videoSeconds / wallSeconds);
    this.analysedSeconds.inc(videoSeconds);
  }

  /** The text exposition format. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    // The queue is read at scrape time. An unreachable database leaves the queue gauges without
    // values rather than failing the scrape: the process's own metrics still count then.
    this.queueDepth.reset();
    this.queueActive.reset();
    const counts = await this.queueCounts?.().catch(() => undefined);
    for (const c of counts ?? []) {
      this.queueDepth.set({ kind: c.kind }, c.waiting);
      this.queueActive.set({ kind: c.kind }, c.active);
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
