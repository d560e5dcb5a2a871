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
import { ClutterIndex } from '../analytics/exposure.ts';
import {
  writeCampaignReport,
  type CampaignDetection,
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
  /** The counted spans of the video for the clutter measure (ClutterIndex is built from them). */
  clutterSpans: Span[];
  rates: Map<number, number>;
  currency: string;
}

/** The campaign report (GET /api/analytics/campaign-report/): CampaignInput less its callbacks. */
export interface CampaignJob {
  kind: 'campaign';
  title: string;
  currency: string;
  includeUnreviewed: boolean;
  brands: Map<number, ReportBrand>;
  placements: Map<number, ReportPlacement>;
  rates: Map<number, number>;
}

export type ReportJob = ExcelJob | CampaignJob;

/**
 * What the caller serves while a report is built:
 * - excel: stream `detections` (ReportDetection, id order);
 * - campaign: stream `videos` (CampaignVideo), stream `detections` with a video (CampaignDetection),
 *   call `spans` with a video (Span[]), call `frame` with `{ video, seconds }` (JPEG bytes or null).
 */
export interface ReportSources {
  stream(name: string, arg?: unknown): AsyncIterable<unknown>;
  call(name: string, arg?: unknown): Promise<unknown>;
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
        detections: sources.stream('detections') as AsyncIterable<ReportDetection>,
        clutter: new ClutterIndex(job.clutterSpans),
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
      spans: (video) => sources.call('spans', video) as Promise<Span[]>,
      detections: (video) => sources.stream('detections', video) as AsyncIterable<CampaignDetection>,
      async frame(video, seconds) {
        const jpeg = (await sources.call('frame', { video, seconds })) as Uint8Array | null;
        // A Buffer crosses threads as a plain Uint8Array; exceljs wants a Buffer.
        return jpeg ? Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength) : null;
      },
    },
    out,
  );
}
