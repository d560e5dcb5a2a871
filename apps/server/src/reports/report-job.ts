/**
 * A report to build, as plain data that crosses to a report thread (structured clone), and the
 * one function that builds it from that data and its row sources, on whichever thread it runs
 * (report-threads.ts runs it on a thread of the pool, or in the calling thread with
 * REPORT_THREADS=0).
 *
 * What cannot be cloned stays with the caller as named sources: row streams (read a batch at a
 * time) and calls (the campaign's spans and best frames). The database is only ever read by the
 * caller's thread: the embedded PGlite database lives in the server's own thread.
 */
import { cutFrame } from '../analytics/best-frame.ts';
import { ClutterIndex } from '../analytics/exposure.ts';
import {
  writeCampaignReport,
  type CampaignDetection,
  type CampaignInput,
  type CampaignVideo,
} from '../analytics/campaign-report.ts';
import {
  writeExcelReport,
  type ReportBrand,
  type ReportDetection,
  type ReportPlacement,
  type ReportTag,
  type ReportVideo,
} from './excel-report.ts';

export interface Span {
  brand_id: number;
  time_begin: number;
  time_end: number;
}

/** The per-video report (GET /api/videos/excel/): ReportInput less its streams. */
export interface ExcelJob {
  kind: 'excel';
  video: ReportVideo;
  brands: Map<number, ReportBrand>;
  placements: Map<number, ReportPlacement>;
  tags: ReportTag[];
  withoutPlacement: boolean;
  /** The video's counted spans for the clutter measure, packed by packSpans (transferred, not copied). */
  clutterSpans: Float64Array;
  rates: Map<number, number>;
  currency: string;
}

/** The campaign report (GET /api/analytics/campaign-report/): CampaignInput less its callbacks. */
export type CampaignJob = { kind: 'campaign' } & Pick<
  CampaignInput,
  'title' | 'currency' | 'includeUnreviewed' | 'brands' | 'placements' | 'rates'
>;

export type ReportJob = ExcelJob | CampaignJob;

/**
 * What the caller serves while a report is built:
 * - excel: stream `detections` (rows as ReportRow of detections.repository.ts, in id order, or
 *   pages of them as JSON text: streamDetectionPages);
 * - campaign: stream `videos` (CampaignVideo), stream `detections` with a video (the same rows),
 *   call `spans` with a video (packSpans), call `frameFile` with a video (the
 *   video file's path; the frame is cut here).
 */
export interface ReportSources {
  stream(name: string, arg?: unknown): AsyncIterable<unknown>;
  call(name: string, arg?: unknown): Promise<unknown>;
}

/** Spans as one flat array (brand, begin, end, ...): it crosses threads in one piece. */
export function packSpans(spans: readonly Span[]): Float64Array {
  const packed = new Float64Array(spans.length * 3);
  spans.forEach((s, i) => {
    packed[i * 3] = s.brand_id;
    packed[i * 3 + 1] = s.time_begin;
    packed[i * 3 + 2] = s.time_end;
  });
  return packed;
}

function* unpackSpans(packed: Float64Array): Generator<Span> {
  for (let i = 0; i + 2 < packed.length; i += 3) {
    yield { brand_id: packed[i], time_begin: packed[i + 1], time_end: packed[i + 2] };
  }
}

interface SourceRow {
  brand_id: number;
  placement_id: number;
}

/** Rows, whether they come one by one or as pages of JSON text (parsed here, on the report's thread). */
async function* parsedRows<T>(items: AsyncIterable<unknown>): AsyncGenerator<T> {
  for await (const item of items) {
    if (typeof item === 'string') yield* JSON.parse(item) as T[];
    else yield item as T;
  }
}

async function* reportDetections(rows: AsyncIterable<unknown>): AsyncGenerator<ReportDetection> {
  for await (const r of parsedRows<SourceRow & ReportDetection>(rows)) {
    r.brandId = r.brand_id;
    r.placementId = r.placement_id;
    yield r;
  }
}

/** Builds the report into `out` (exceljs ends `out` when the workbook is complete). */
export async function buildReport(
  job: ReportJob,
  sources: ReportSources,
  out: NodeJS.WritableStream,
): Promise<void> {
  if (job.kind === 'excel') {
    await writeExcelReport(
      {
        video: job.video,
        brands: job.brands,
        placements: job.placements,
        tags: job.tags,
        withoutPlacement: job.withoutPlacement,
        detections: reportDetections(sources.stream('detections')),
        clutter: new ClutterIndex(unpackSpans(job.clutterSpans)),
        rates: job.rates,
        currency: job.currency,
      },
      out,
    );
    return;
  }
  await writeCampaignReport(
    {
      title: job.title,
      currency: job.currency,
      includeUnreviewed: job.includeUnreviewed,
      brands: job.brands,
      placements: job.placements,
      rates: job.rates,
      videos: sources.stream('videos') as AsyncIterable<CampaignVideo>,
      spans: async (video) => [...unpackSpans((await sources.call('spans', video)) as Float64Array)],
      detections: (video) => parsedRows<CampaignDetection>(sources.stream('detections', video)),
      async frame(video, seconds) {
        const file = (await sources.call('frameFile', video)) as string;
        return cutFrame(file, seconds);
      },
    },
    out,
  );
}
