import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  AccumulatorMap,
  ClutterIndex,
  ExposureAccumulator,
  means,
  measureDetection,
  mediaValue,
} from '../analytics/exposure.ts';
import {
  escapeCellText,
  INTEGER_FORMAT,
  msToExcelTime,
  PERCENT_FORMAT,
  SECONDS_FORMAT,
  SheetNamer,
  TIME_FORMAT,
} from './excel-cells.ts';
import { screenRegion } from './quad-geometry.ts';

export interface ReportVideo {
  id: number;
  name: string;
  fps: number;
  frames: number;
  /** Seconds. */
  duration: number;
  width: number;
  height: number;
}

export interface ReportDetection {
  id: number;
  brandId: number;
  placementId: number;
  /** ms */
  time_begin: number;
  /** ms */
  time_end: number;
  /** Points in video pixels, times in ms. */
  coordinates: { start_time: number; end_time: number; points: number[] }[];
  confidence: number | null;
  review: string;
  source: string;
  /** Username of the last review action (null: none, or made with the API key). */
  reviewed_by: string | null;
  /** ISO time of the last review action. */
  reviewed_at: string | null;
}

export interface ReportBrand {
  id: number;
  name: string;
  localized_name: string;
}

export interface ReportPlacement {
  id: number;
  localized_name: string;
  color: string;
  manual: boolean;
}

export interface ReportTag {
  id: number;
  name: string;
  brand: number;
  /** Empty means every placement. */
  placements: number[];
}

export interface ReportInput {
  video: ReportVideo;
  brands: Map<number, ReportBrand>;
  placements: Map<number, ReportPlacement>;
  /** Selected tags; empty means no tag sheets. */
  tags: ReportTag[];
  withoutPlacement: boolean;
  /** Streamed from the database in id order, already filtered (bFilter, pFilter, hidden, false positives). */
  detections: AsyncIterable<ReportDetection>;
  /**
   * The video's counted detections' spans by brand (before bFilter/pFilter), for the clutter
   * measure; absent: no clutter (every detection alone on screen).
   */
  clutter?: ClutterIndex;
  /** Media value: rate per second per placement (missing: 0) and the currency; absent: no value. */
  rates?: Map<number, number>;
  currency?: string;
}

type Sheet = ExcelJS.Worksheet;
type Cell = ExcelJS.CellValue;

export interface ColumnSpec {
  header: string;
  width: number;
  numFmt?: string;
}

/** The exposure columns every summary sheet shares (one row per group). */
const STAT_COLUMNS: ColumnSpec[] = [
  { header: 'Detections', width: 12, numFmt: INTEGER_FORMAT },
  { header: 'Exposure (s)', width: 13, numFmt: SECONDS_FORMAT },
  { header: 'Share of video', width: 13, numFmt: PERCENT_FORMAT },
  { header: 'Mean size (% of frame)', width: 14, numFmt: PERCENT_FORMAT },
  { header: 'Largest size (% of frame)', width: 14, numFmt: PERCENT_FORMAT },
];

/** The measures of analytics/exposure.ts that the summaries add after share of voice. */
const MEASURE_COLUMNS: ColumnSpec[] = [
  { header: 'Size-weighted exposure (s)', width: 15, numFmt: SECONDS_FORMAT },
  { header: 'Position weight', width: 11, numFmt: '0.000' },
  { header: 'Clutter', width: 10, numFmt: '0.00' },
];

function measureCells(stats: ExposureAccumulator): Cell[] {
  const t = stats.totals();
  const m = means(t);
  return [t.size_weighted_s, m.position_weight, m.clutter];
}

/** A brand's media value: the sum over its placements of rate x valued seconds (exposure.ts). */
function brandMediaValue(
  input: ReportInput,
  byBrandPlacement: AccumulatorMap<string>,
  brandId: number,
): number {
  const rows = [...byBrandPlacement.entries].flatMap(([key, acc]) => {
    const [b, placementId] = key.split(':').map(Number);
    return b === brandId ? [{ placement_id: placementId, valued_s: acc.totals().valued_s }] : [];
  });
  return mediaValue(rows, input.rates ?? new Map());
}

function moneyFormat(input: ReportInput): string {
  return `#,##0.00 "${input.currency ?? 'EUR'}"`;
}

/** Rows written between two chances for the output to drain (keeps the zip pipeline from buffering). */
const FLUSH_EVERY = 1000;

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F3864' } };
const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FFFFFFFF' } };
const TOTAL_FONT: Partial<ExcelJS.Font> = { bold: true };
const TITLE_FONT: Partial<ExcelJS.Font> = { bold: true, size: 14 };
const LABEL_FONT: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FF595959' } };

/**
 * Writes the detection report of one video as an .xlsx to `out`, streaming.
 *
 * Sheets, in tab order: Summary (per brand), By placement (per brand and placement; left out with
 * `withoutPlacement`), one sheet per selected tag, Detections (one row per detection).
 *
 * Memory does not grow with the number of detections: each detection row is committed to the zip
 * stream as soon as it is read, and the summaries keep only per-group totals plus each group's
 * merged time spans (bounded by the video's length). Exposure is the union of a group's time spans,
 * so overlapping detections of one brand count once; share of voice is a brand's exposure over the
 * sum of all brands' exposures.
 *
 * `out` is not ended by the caller: exceljs ends it when the workbook is complete.
 */
export async function writeExcelReport(input: ReportInput, out: NodeJS.WritableStream): Promise<void> {
  const { video, withoutPlacement } = input;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    // exceljs types want a full stream.Writable; it only pipes into it, which any writable supports.
    stream: out as Writable,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Logo Review';
  const namer = new SheetNamer();
  const names = {
    summary: namer.name('Summary'),
    byPlacement: withoutPlacement ? null : namer.name('By placement'),
    tags: input.tags.map((tag) => namer.name(`Tag ${tag.name}`)),
    detections: namer.name('Detections'),
  };

  const all = new ExposureAccumulator();
  const byBrand = new AccumulatorMap<number>();
  const byBrandPlacement = new AccumulatorMap<string>();
  const byTag = new AccumulatorMap<number>();
  const clutter = input.clutter ?? new ClutterIndex([]);

  // The detections sheet goes first into the zip: exceljs only releases committed rows of the
  // first uncommitted worksheet (exceljs issue #629), so the summaries are added after it and the
  // tab order is fixed at the end.
  const detectionColumns: ColumnSpec[] = [
    { header: 'ID', width: 10, numFmt: '0' },
    { header: 'Brand', width: 22 },
    { header: 'Localized name', width: 22 },
    ...(withoutPlacement ? [] : [{ header: 'Placement', width: 20 }]),
    { header: 'Start', width: 13, numFmt: TIME_FORMAT },
    { header: 'End', width: 13, numFmt: TIME_FORMAT },
    { header: 'Duration (s)', width: 12, numFmt: SECONDS_FORMAT },
    { header: 'Mean size (% of frame)', width: 14, numFmt: PERCENT_FORMAT },
    { header: 'Largest size (% of frame)', width: 14, numFmt: PERCENT_FORMAT },
    { header: 'Centre x (%)', width: 11, numFmt: '0.0%' },
    { header: 'Centre y (%)', width: 11, numFmt: '0.0%' },
    { header: 'Screen position', width: 15 },
    { header: 'Confidence', width: 11, numFmt: '0.0%' },
    { header: 'Review', width: 16 },
    { header: 'Source', width: 10 },
    { header: 'Reviewed by', width: 16 },
    // A real date (UTC) so that the column sorts and filters as time.
    { header: 'Reviewed at', width: 20, numFmt: 'yyyy-mm-dd hh:mm:ss' },
  ];
  const detections = addTableSheet(workbook, names.detections, detectionColumns, []);
  // One shared style object per column: exceljs caches style ids by object identity, which saves a
  // style lookup per cell (the per-cell copies exceljs makes from column styles always miss).
  const detectionStyles = detectionColumns.map((c): Partial<ExcelJS.Style> =>
    c.numFmt ? { numFmt: c.numFmt } : {},
  );
  let written = 0;
  for await (const d of input.detections) {
    const measure = measureDetection(d.coordinates, video.width, video.height);
    const others = clutter.othersOnScreen(d.brandId, d.time_begin, d.time_end);
    all.add(d.time_begin, d.time_end, measure, others);
    byBrand.get(d.brandId).add(d.time_begin, d.time_end, measure, others);
    byBrandPlacement.get(`${d.brandId}:${d.placementId}`).add(d.time_begin, d.time_end, measure, others);
    input.tags.forEach((tag, i) => {
      if (
        tag.brand === d.brandId &&
        (tag.placements.length === 0 || tag.placements.includes(d.placementId))
      ) {
        byTag.get(i).add(d.time_begin, d.time_end, measure, others);
      }
    });

    const brand = input.brands.get(d.brandId);
    const row: Cell[] = [
      d.id,
      text(brand?.name ?? `#${d.brandId}`),
      text(brand?.localized_name ?? ''),
      ...(withoutPlacement ? [] : [text(placementName(input, d.placementId))]),
      msToExcelTime(d.time_begin),
      msToExcelTime(d.time_end),
      (d.time_end - d.time_begin) / 1000,
      measure.weight > 0 ? measure.shareWeighted / measure.weight : 0,
      measure.maxShare,
      measure.centreX,
      measure.centreY,
      measure.centreX === null || measure.centreY === null
        ? ''
        : screenRegion(measure.centreX, measure.centreY),
      d.confidence,
      text(d.review),
      text(d.source),
      d.reviewed_by === null ? null : text(d.reviewed_by),
      d.reviewed_at === null ? null : new Date(d.reviewed_at),
    ];
    const added = detections.addRow(row);
    for (let c = 0; c < detectionStyles.length; c++) added.getCell(c + 1).style = detectionStyles[c];
    added.commit();
    if (++written % FLUSH_EVERY === 0) await letOutputDrain(detections, out);
  }
  detections.commit();

  const durationMs = videoDurationMs(video);
  const summary = writeSummarySheet(
    workbook,
    names.summary,
    input,
    byBrand,
    byBrandPlacement,
    all,
    durationMs,
  );
  const sheetsFirst: Sheet[] = [summary];
  if (names.byPlacement) {
    sheetsFirst.push(writePlacementSheet(workbook, names.byPlacement, input, byBrandPlacement, durationMs));
  }
  input.tags.forEach((tag, i) => {
    sheetsFirst.push(
      writeTagSheet(workbook, names.tags[i], input, tag, byTag.get(i), byBrandPlacement, durationMs),
    );
  });
  putSheetsFirst(workbook, sheetsFirst);
  await workbook.commit();
}

function writeSummarySheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  input: ReportInput,
  byBrand: AccumulatorMap<number>,
  byBrandPlacement: AccumulatorMap<string>,
  all: ExposureAccumulator,
  durationMs: number,
): Sheet {
  const { video } = input;
  const columns: ColumnSpec[] = [
    { header: 'Brand', width: 24 },
    { header: 'Localized name', width: 24 },
    ...STAT_COLUMNS,
    { header: 'Share of voice', width: 13, numFmt: PERCENT_FORMAT },
    ...MEASURE_COLUMNS,
    { header: `Media value (${input.currency ?? 'EUR'})`, width: 16, numFmt: moneyFormat(input) },
  ];
  const preamble: Cell[][] = [
    ['Video', text(video.name)],
    [
      'Duration',
      msToExcelTime(durationMs),
      'Frame size',
      `${video.width} × ${video.height}`,
      'Frames / fps',
      `${video.frames} / ${round(video.fps, 3)}`,
      'Detections',
      all.count,
    ],
    [],
  ];
  const sheet = addTableSheet(workbook, name, columns, preamble, { B2: TIME_FORMAT, H2: INTEGER_FORMAT });
  const rows = [...byBrand.entries].map(([brandId, stats]) => ({ brandId, stats }));
  const voiceTotal = rows.reduce((sum, r) => sum + r.stats.exposureSeconds, 0);
  rows.sort((a, b) => b.stats.exposureSeconds - a.stats.exposureSeconds || a.brandId - b.brandId);
  for (const { brandId, stats } of rows) {
    const brand = input.brands.get(brandId);
    sheet
      .addRow([
        text(brand?.name ?? `#${brandId}`),
        text(brand?.localized_name ?? ''),
        ...statsCells(stats, durationMs, voiceTotal),
        ...measureCells(stats),
        brandMediaValue(input, byBrandPlacement, brandId),
      ])
      .commit();
  }
  sheet.addRow([]).commit();
  // Any brand on screen: the union over all brands; share of voice does not apply.
  const totalValue = rows.reduce((sum, r) => sum + brandMediaValue(input, byBrandPlacement, r.brandId), 0);
  const total = sheet.addRow([
    'All brands',
    '',
    ...statsCells(all, durationMs, 0),
    ...measureCells(all),
    totalValue,
  ]);
  total.font = TOTAL_FONT;
  total.commit();
  sheet.commit();
  return sheet;
}

function writePlacementSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  input: ReportInput,
  byBrandPlacement: AccumulatorMap<string>,
  durationMs: number,
): Sheet {
  const columns: ColumnSpec[] = [
    { header: 'Placement', width: 22 },
    { header: 'Manual', width: 9 },
    { header: 'Brand', width: 24 },
    { header: 'Localized name', width: 24 },
    ...STAT_COLUMNS,
    { header: 'Share of voice in placement', width: 15, numFmt: PERCENT_FORMAT },
    ...MEASURE_COLUMNS,
    { header: `Media value (${input.currency ?? 'EUR'})`, width: 16, numFmt: moneyFormat(input) },
  ];
  const sheet = addTableSheet(workbook, name, columns, []);
  const rows = [...byBrandPlacement.entries].map(([key, stats]) => {
    const [brandId, placementId] = key.split(':').map(Number);
    return { brandId, placementId, stats, placement: placementName(input, placementId) };
  });
  const voiceByPlacement = new Map<number, number>();
  for (const r of rows) {
    voiceByPlacement.set(r.placementId, (voiceByPlacement.get(r.placementId) ?? 0) + r.stats.exposureSeconds);
  }
  rows.sort(
    (a, b) =>
      a.placement.localeCompare(b.placement) ||
      a.placementId - b.placementId ||
      b.stats.exposureSeconds - a.stats.exposureSeconds ||
      a.brandId - b.brandId,
  );
  for (const r of rows) {
    const brand = input.brands.get(r.brandId);
    sheet
      .addRow([
        text(r.placement),
        input.placements.get(r.placementId)?.manual ? 'yes' : 'no',
        text(brand?.name ?? `#${r.brandId}`),
        text(brand?.localized_name ?? ''),
        ...statsCells(r.stats, durationMs, voiceByPlacement.get(r.placementId) ?? 0),
        ...measureCells(r.stats),
        (input.rates?.get(r.placementId) ?? 0) * r.stats.totals().valued_s,
      ])
      .commit();
  }
  sheet.commit();
  return sheet;
}

function writeTagSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  input: ReportInput,
  tag: ReportTag,
  tagStats: ExposureAccumulator,
  byBrandPlacement: AccumulatorMap<string>,
  durationMs: number,
): Sheet {
  const brand = input.brands.get(tag.brand);
  const placementIds =
    tag.placements.length > 0
      ? tag.placements
      : [...byBrandPlacement.entries.keys()]
          .map((key) => key.split(':').map(Number))
          .filter(([brandId]) => brandId === tag.brand)
          .map(([, placementId]) => placementId);
  const columns: ColumnSpec[] = [
    { header: 'Placement', width: 24 },
    { header: 'Manual', width: 9 },
    ...STAT_COLUMNS,
    { header: 'Share of tag exposure', width: 13, numFmt: PERCENT_FORMAT },
  ];
  const preamble: Cell[][] = [
    ['Tag', text(tag.name)],
    ['Brand', text(brand ? `${brand.localized_name} (${brand.name})` : `#${tag.brand}`)],
    [
      'Placements',
      text(
        tag.placements.length > 0 ? tag.placements.map((id) => placementName(input, id)).join(', ') : 'All',
      ),
    ],
    [],
  ];
  const sheet = addTableSheet(workbook, name, columns, preamble);
  const rows = placementIds.map((placementId) => ({
    placementId,
    placement: placementName(input, placementId),
    stats: byBrandPlacement.entries.get(`${tag.brand}:${placementId}`) ?? new ExposureAccumulator(),
  }));
  const voiceTotal = rows.reduce((sum, r) => sum + r.stats.exposureSeconds, 0);
  rows.sort(
    (a, b) => b.stats.exposureSeconds - a.stats.exposureSeconds || a.placement.localeCompare(b.placement),
  );
  for (const r of rows) {
    sheet
      .addRow([
        text(r.placement),
        input.placements.get(r.placementId)?.manual ? 'yes' : 'no',
        ...statsCells(r.stats, durationMs, voiceTotal),
      ])
      .commit();
  }
  sheet.addRow([]).commit();
  const total = sheet.addRow(['All placements of the tag', '', ...statsCells(tagStats, durationMs, 0)]);
  total.font = TOTAL_FONT;
  total.commit();
  sheet.commit();
  return sheet;
}

/** Detections, exposure, share of video, mean size, largest size, share of voice (or blank). */
function statsCells(stats: ExposureAccumulator, durationMs: number, voiceTotal: number): Cell[] {
  const exposure = stats.exposureSeconds;
  return [
    stats.count,
    exposure,
    durationMs > 0 ? Math.min(1, (exposure * 1000) / durationMs) : null,
    stats.meanShare,
    stats.maxShare,
    voiceTotal > 0 ? exposure / voiceTotal : null,
  ];
}

/**
 * Adds a sheet whose table header sits under `preamble` rows, frozen, with an autofilter and
 * per-column widths and number formats (column styles apply to every later cell of the column).
 */
export function addTableSheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  columns: ColumnSpec[],
  preamble: Cell[][],
  preambleFormats: Record<string, string> = {},
): Sheet {
  const headerRow = preamble.length + 1;
  const sheet = workbook.addWorksheet(name, {
    views: [{ state: 'frozen', xSplit: 0, ySplit: headerRow, topLeftCell: `A${headerRow + 1}` }],
  });
  sheet.columns = columns.map((c) => ({ width: c.width, style: c.numFmt ? { numFmt: c.numFmt } : {} }));
  preamble.forEach((values, i) => {
    const row = sheet.addRow(values);
    row.eachCell((cell, col) => {
      // The first line is the title; below it labels sit in odd columns and values in even ones.
      if (i === 0) cell.font = TITLE_FONT;
      else if (col % 2 === 1) cell.font = LABEL_FONT;
      const numFmt = preambleFormats[cell.address];
      if (numFmt) cell.numFmt = numFmt;
    });
    row.commit();
  });
  const header = sheet.addRow(columns.map((c) => c.header));
  header.height = 30;
  header.eachCell((cell) => {
    cell.fill = HEADER_FILL;
    cell.font = HEADER_FONT;
    cell.numFmt = 'General';
    cell.alignment = { vertical: 'middle', horizontal: 'center', wrapText: true };
    cell.border = { bottom: { style: 'thin', color: { argb: 'FF000000' } } };
  });
  header.commit();
  sheet.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow, column: columns.length } };
  return sheet;
}

/**
 * Moves the given sheets to the front of the tab order. The streaming writer orders tabs by
 * creation, and the detections sheet has to be created first (see above); the order lives in
 * its private worksheet list, which workbook.xml is rendered from. If a future exceljs changes
 * that, the report still opens, only with Detections as the first tab.
 */
export function putSheetsFirst(workbook: ExcelJS.stream.xlsx.WorkbookWriter, first: Sheet[]): void {
  const internal = workbook as unknown as { _worksheets?: unknown };
  if (!Array.isArray(internal._worksheets)) return;
  const rest = internal._worksheets.filter((s: unknown) => s && !first.includes(s as Sheet));
  // Index 0 stays a hole, as in exceljs's own list (sheet ids start at 1; its loops skip holes).
  const ordered: unknown[] = [];
  [...first, ...rest].forEach((sheet, i) => (ordered[i + 1] = sheet));
  internal._worksheets = ordered;
}

/** Bytes of sheet XML the zip has not compressed yet, above which rows wait. */
const MAX_ZIP_BACKLOG = 1 << 20;

/**
 * Waits while the zip pipeline is behind. exceljs pushes each sheet's XML into archiver without
 * back-pressure (its StreamBuf ignores write()'s return value), so when deflate is slower than the
 * rows arrive the bytes pile up in archiver's input PassThrough and memory grows with the rows.
 * The backlog is read from exceljs's internal sheet stream; if that shape is not there (another
 * exceljs version) this only yields and checks the destination's own back-pressure.
 */
export async function letOutputDrain(sheet: Sheet, out: NodeJS.WritableStream): Promise<void> {
  const writable = out as NodeJS.WritableStream & { writableNeedDrain?: boolean; destroyed?: boolean };
  do {
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
    if (writable.destroyed) throw new Error('The report output was closed before the report was complete');
  } while (zipBacklog(sheet) > MAX_ZIP_BACKLOG || writable.writableNeedDrain);
}

interface LegacyStreamState {
  length?: number;
}

function zipBacklog(sheet: Sheet): number {
  const internal = sheet as unknown as { stream?: { pipes?: unknown } };
  const pipes = internal.stream?.pipes;
  if (!Array.isArray(pipes)) return 0;
  let bytes = 0;
  // archiver's PassThrough comes from readable-stream 2, which has no writableLength getter.
  for (const pipe of pipes as { _writableState?: LegacyStreamState; _readableState?: LegacyStreamState }[]) {
    bytes += (pipe._writableState?.length ?? 0) + (pipe._readableState?.length ?? 0);
  }
  return bytes;
}

function placementName(input: ReportInput, placementId: number): string {
  return input.placements.get(placementId)?.localized_name ?? `#${placementId}`;
}

function videoDurationMs(video: ReportVideo): number {
  if (video.duration > 0) return video.duration * 1000;
  return video.fps > 0 ? (video.frames / video.fps) * 1000 : 0;
}

function text(value: string): string {
  return escapeCellText(value);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
