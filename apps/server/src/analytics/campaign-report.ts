/**
 * The campaign report (issue 20): one .xlsx over many videos (a project, or a folder with its
 * subfolders), streamed with exceljs's WorkbookWriter. No HTTP and no database here: the caller
 * gives the videos in order and, per video, its counted spans and detections (see campaign.ts).
 *
 * Tabs: Summary, Brand x video, Brand x placement, Media value, Best frames, then one sheet per
 * video with its counted detections. Every number comes from exposure.ts (VideoExposure per video,
 * summed across videos with addTotals), like the dashboard's aggregates.
 *
 * Memory: a video's detection rows are committed as they are read (the video sheets are created
 * before the summaries, since exceljs frees only rows of the first uncommitted sheet); what stays
 * is per (brand, video) and (brand, placement) totals, one ClutterIndex at a time, and the best
 * frame of each brand.
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { quadFrameShare, screenRegion } from '../reports/quad-geometry.ts';
import {
  escapeCellText,
  INTEGER_FORMAT,
  msToExcelTime,
  PERCENT_FORMAT,
  SECONDS_FORMAT,
  SheetNamer,
  TIME_FORMAT,
} from '../reports/excel-cells.ts';
import {
  addTableSheet,
  letOutputDrain,
  putSheetsFirst,
  type ColumnSpec,
  type ReportBrand,
  type ReportPlacement,
} from '../reports/excel-report.ts';
import {
  addTotals,
  ALL_PLACEMENTS,
  ClutterIndex,
  emptyTotals,
  means,
  VideoExposure,
  type ExposureTotals,
  type Segment,
} from './exposure.ts';

export interface CampaignVideo {
  id: number;
  name: string;
  created_at: Date | string;
  duration: number;
  width: number;
  height: number;
}

export interface CampaignDetection {
  id: number;
  brand_id: number;
  placement_id: number;
  time_begin: number;
  time_end: number;
  coordinates: Segment[];
  confidence: number | null;
  review: string;
  source: string;
}

export interface CampaignInput {
  title: string;
  currency: string;
  includeUnreviewed: boolean;
  brands: Map<number, ReportBrand>;
  placements: Map<number, ReportPlacement>;
  /** Rate per second of each placement (missing: 0). */
  rates: Map<number, number>;
  videos: AsyncIterable<CampaignVideo> | Iterable<CampaignVideo>;
  /** The video's counted, shown detections' spans (for clutter). */
  spans(video: CampaignVideo): Promise<{ brand_id: number; time_begin: number; time_end: number }[]>;
  /** The video's counted, shown detections, in id order, streamed. */
  detections(video: CampaignVideo): AsyncIterable<CampaignDetection>;
  /** A JPEG of the video's frame at `seconds`, or null when it cannot be cut. */
  frame?(video: CampaignVideo, seconds: number): Promise<Buffer | null>;
}

const FLUSH_EVERY = 1000;
const PREFETCH_ROWS = 2000;
const FRAME_CONCURRENCY = 3;
const THUMB_WIDTH = 320;
const TOTAL_FONT: Partial<ExcelJS.Font> = { bold: true };

interface Best {
  video: CampaignVideo;
  detectionId: number;
  share: number;
  duration: number;
  /** ms: the middle of the detection's largest segment. */
  at: number;
}

type Workbook = ExcelJS.stream.xlsx.WorkbookWriter;

export async function writeCampaignReport(input: CampaignInput, out: NodeJS.WritableStream): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out as Writable,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Logo Review';
  const namer = new SheetNamer();
  const names = {
    summary: namer.name('Summary'),
    brandVideo: namer.name('Brand x video'),
    brandPlacement: namer.name('Brand x placement'),
    mediaValue: namer.name('Media value'),
    bestFrames: namer.name('Best frames'),
  };
  const brandTotals = new Map<number, { totals: ExposureTotals; videos: number; media_value: number }>();
  const brandPlacement = new Map<string, ExposureTotals>();
  const brandVideo: {
    video: CampaignVideo;
    brandId: number;
    totals: ExposureTotals;
    media_value: number;
    voice: number;
  }[] = [];
  const best = new Map<number, Best>();
  const videoSheets: ExcelJS.Worksheet[] = [];

  const columns: ColumnSpec[] = [
    { header: 'ID', width: 10, numFmt: '0' },
    { header: 'Brand', width: 22 },
    { header: 'Localized name', width: 22 },
    { header: 'Placement', width: 20 },
    { header: 'Start', width: 13, numFmt: TIME_FORMAT },
    { header: 'End', width: 13, numFmt: TIME_FORMAT },
    { header: 'Duration (s)', width: 12, numFmt: SECONDS_FORMAT },
    { header: 'Mean size (% of frame)', width: 14, numFmt: PERCENT_FORMAT },
    { header: 'Largest size (% of frame)', width: 14, numFmt: PERCENT_FORMAT },
    { header: 'Screen position', width: 15 },
    { header: 'Position weight', width: 11, numFmt: '0.000' },
    { header: 'Clutter (other brands)', width: 12, numFmt: '0.00' },
    { header: 'Confidence', width: 11, numFmt: '0.0%' },
    { header: 'Review', width: 16 },
    { header: 'Source', width: 10 },
  ];
  const styles = columns.map((c): Partial<ExcelJS.Style> => (c.numFmt ? { numFmt: c.numFmt } : {}));

  let written = 0;
  // The next video's spans and first detections are read while this one's rows are written: the
  // database works on its own core meanwhile. At most one page of detections waits in memory.
  const prepare = (video: CampaignVideo) => {
    const spans = input.spans(video);
    const rows = prefetch(input.detections(video), PREFETCH_ROWS);
    // Consumed in order below; a failure surfaces there, not as an unhandled rejection.
    spans.catch(() => undefined);
    rows.catch(() => undefined);
    return { video, spans, rows };
  };
  const videos = lookahead(input.videos);
  let next = await videos.next();
  let pending = next.done ? null : prepare(next.value);
  while (pending) {
    const { video } = pending;
    const spans = await pending.spans;
    const detections = await pending.rows;
    next = await videos.next();
    pending = next.done ? null : prepare(next.value);
    const exposure = new VideoExposure(video.width, video.height, new ClutterIndex(spans));
    const sheet = addTableSheet(
      workbook,
      namer.name(video.name),
      columns,
      [
        [text(video.name)],
        ['Uploaded', uploadDate(video), 'Duration', msToExcelTime(video.duration * 1000)],
        [],
      ],
      { B2: 'yyyy-mm-dd', D2: TIME_FORMAT },
    );
    videoSheets.push(sheet);
    for await (const d of detections) {
      const { measure, clutter } = exposure.add(d);
      const b = best.get(d.brand_id);
      const duration = d.time_end - d.time_begin;
      if (
        !b ||
        measure.maxShare > b.share ||
        (measure.maxShare === b.share &&
          (duration > b.duration || (duration === b.duration && d.id < b.detectionId)))
      ) {
        best.set(d.brand_id, {
          video,
          detectionId: d.id,
          share: measure.maxShare,
          duration,
          at: largestSegmentMiddle(d, video),
        });
      }
      const brand = input.brands.get(d.brand_id);
      const row = sheet.addRow([
        d.id,
        text(brand?.name ?? `#${d.brand_id}`),
        text(brand?.localized_name ?? ''),
        text(input.placements.get(d.placement_id)?.localized_name ?? `#${d.placement_id}`),
        msToExcelTime(d.time_begin),
        msToExcelTime(d.time_end),
        duration / 1000,
        measure.weight > 0 ? measure.shareWeighted / measure.weight : 0,
        measure.maxShare,
        measure.centreX === null || measure.centreY === null
          ? ''
          : screenRegion(measure.centreX, measure.centreY),
        measure.weight > 0 ? measure.positionWeighted / measure.weight : 1,
        clutter,
        d.confidence,
        text(d.review),
        text(d.source),
      ]);
      for (let c = 0; c < styles.length; c++) row.getCell(c + 1).style = styles[c];
      row.commit();
      if (++written % FLUSH_EVERY === 0) await letOutputDrain(sheet, out);
    }
    sheet.commit();

    // This video's groups into the campaign's totals.
    const rows = exposure.rows();
    const valueOf = new Map<number, number>();
    for (const r of rows) {
      if (r.placement_id === ALL_PLACEMENTS) continue;
      valueOf.set(
        r.brand_id,
        (valueOf.get(r.brand_id) ?? 0) + (input.rates.get(r.placement_id) ?? 0) * r.valued_s,
      );
      const key = `${r.brand_id}:${r.placement_id}`;
      brandPlacement.set(key, addTotals(brandPlacement.get(key) ?? emptyTotals(), r));
    }
    const brandRows = rows.filter((r) => r.placement_id === ALL_PLACEMENTS);
    const videoVoice = brandRows.reduce((s, r) => s + r.exposure_s, 0);
    for (const r of brandRows) {
      const mv = valueOf.get(r.brand_id) ?? 0;
      let t = brandTotals.get(r.brand_id);
      if (!t) brandTotals.set(r.brand_id, (t = { totals: emptyTotals(), videos: 0, media_value: 0 }));
      addTotals(t.totals, r);
      t.videos++;
      t.media_value += mv;
      brandVideo.push({
        video,
        brandId: r.brand_id,
        totals: { ...r },
        media_value: mv,
        voice: videoVoice > 0 ? r.exposure_s / videoVoice : 0,
      });
    }
  }

  const order = [...brandTotals.entries()].sort(
    (a, b) => b[1].totals.exposure_s - a[1].totals.exposure_s || a[0] - b[0],
  );
  const rank = new Map(order.map(([id], i) => [id, i]));
  const brandName = (id: number) => text(input.brands.get(id)?.name ?? `#${id}`);
  const placementName = (id: number) => text(input.placements.get(id)?.localized_name ?? `#${id}`);
  const money = `#,##0.00 "${input.currency}"`;

  // Summary.
  const voiceTotal = order.reduce((s, [, b]) => s + b.totals.exposure_s, 0);
  const summary = addTableSheet(
    workbook,
    names.summary,
    [
      { header: 'Brand', width: 24 },
      { header: 'Localized name', width: 24 },
      { header: 'Detections', width: 12, numFmt: INTEGER_FORMAT },
      { header: 'Videos', width: 9, numFmt: INTEGER_FORMAT },
      { header: 'Exposure (s)', width: 13, numFmt: SECONDS_FORMAT },
      { header: 'Share of voice', width: 12, numFmt: PERCENT_FORMAT },
      { header: 'Size-weighted exposure (s)', width: 15, numFmt: SECONDS_FORMAT },
      { header: 'Mean share of frame', width: 12, numFmt: PERCENT_FORMAT },
      { header: 'Position weight', width: 11, numFmt: '0.000' },
      { header: 'Clutter', width: 10, numFmt: '0.00' },
      { header: `Media value (${input.currency})`, width: 16, numFmt: money },
    ],
    [
      [text(`Campaign: ${input.title}`)],
      [
        'Counted',
        input.includeUnreviewed ? 'Reviewed-true and unreviewed detections' : 'Reviewed-true detections only',
      ],
      [],
    ],
  );
  const all = emptyTotals();
  let allValue = 0;
  for (const [id, b] of order) {
    const m = means(b.totals);
    addTotals(all, b.totals);
    allValue += b.media_value;
    summary
      .addRow([
        brandName(id),
        text(input.brands.get(id)?.localized_name ?? ''),
        b.totals.detections,
        b.videos,
        b.totals.exposure_s,
        voiceTotal > 0 ? b.totals.exposure_s / voiceTotal : 0,
        b.totals.size_weighted_s,
        m.mean_share,
        m.position_weight,
        m.clutter,
        b.media_value,
      ])
      .commit();
  }
  summary.addRow([]).commit();
  const allMeans = means(all);
  const total = summary.addRow([
    'All brands',
    '',
    all.detections,
    null,
    all.exposure_s,
    voiceTotal > 0 ? 1 : 0,
    all.size_weighted_s,
    allMeans.mean_share,
    allMeans.position_weight,
    allMeans.clutter,
    allValue,
  ]);
  total.font = TOTAL_FONT;
  total.commit();
  summary.commit();

  // Brand x video.
  const byVideo = addTableSheet(
    workbook,
    names.brandVideo,
    [
      { header: 'Brand', width: 24 },
      { header: 'Video', width: 30 },
      { header: 'Upload date', width: 12, numFmt: 'yyyy-mm-dd' },
      { header: 'Detections', width: 12, numFmt: INTEGER_FORMAT },
      { header: 'Exposure (s)', width: 13, numFmt: SECONDS_FORMAT },
      { header: 'Share of video', width: 12, numFmt: PERCENT_FORMAT },
      { header: 'Share of voice in video', width: 13, numFmt: PERCENT_FORMAT },
      { header: `Media value (${input.currency})`, width: 16, numFmt: money },
    ],
    [],
  );
  brandVideo.sort(
    (a, b) => rank.get(a.brandId)! - rank.get(b.brandId)! || b.totals.exposure_s - a.totals.exposure_s,
  );
  for (const r of brandVideo) {
    byVideo
      .addRow([
        brandName(r.brandId),
        text(r.video.name),
        uploadDate(r.video),
        r.totals.detections,
        r.totals.exposure_s,
        r.video.duration > 0 ? Math.min(1, r.totals.exposure_s / r.video.duration) : null,
        r.voice,
        r.media_value,
      ])
      .commit();
  }
  byVideo.commit();

  // Brand x placement, and the media value per placement.
  const placementVoice = new Map<number, number>();
  const placementTotals = new Map<number, { exposure: number; valued: number }>();
  const bp = [...brandPlacement.entries()].map(([key, totals]) => {
    const [brandId, placementId] = key.split(':').map(Number);
    placementVoice.set(placementId, (placementVoice.get(placementId) ?? 0) + totals.exposure_s);
    const p = placementTotals.get(placementId) ?? { exposure: 0, valued: 0 };
    p.exposure += totals.exposure_s;
    p.valued += totals.valued_s;
    placementTotals.set(placementId, p);
    return { brandId, placementId, totals };
  });
  bp.sort((a, b) => rank.get(a.brandId)! - rank.get(b.brandId)! || b.totals.exposure_s - a.totals.exposure_s);
  const byPlacement = addTableSheet(
    workbook,
    names.brandPlacement,
    [
      { header: 'Brand', width: 24 },
      { header: 'Placement', width: 22 },
      { header: 'Detections', width: 12, numFmt: INTEGER_FORMAT },
      { header: 'Exposure (s)', width: 13, numFmt: SECONDS_FORMAT },
      { header: 'Share of voice in placement', width: 14, numFmt: PERCENT_FORMAT },
      { header: `Rate per second (${input.currency})`, width: 14, numFmt: money },
      { header: `Media value (${input.currency})`, width: 16, numFmt: money },
    ],
    [],
  );
  for (const r of bp) {
    const rate = input.rates.get(r.placementId) ?? 0;
    const voice = placementVoice.get(r.placementId) ?? 0;
    byPlacement
      .addRow([
        brandName(r.brandId),
        placementName(r.placementId),
        r.totals.detections,
        r.totals.exposure_s,
        voice > 0 ? r.totals.exposure_s / voice : 0,
        rate,
        rate * r.totals.valued_s,
      ])
      .commit();
  }
  byPlacement.commit();

  const valueSheet = addTableSheet(
    workbook,
    names.mediaValue,
    [
      { header: 'Placement', width: 22 },
      { header: `Rate per second (${input.currency})`, width: 14, numFmt: money },
      { header: 'Exposure (s)', width: 13, numFmt: SECONDS_FORMAT },
      { header: 'Valued seconds (position and clutter weighted)', width: 18, numFmt: SECONDS_FORMAT },
      { header: `Media value (${input.currency})`, width: 16, numFmt: money },
    ],
    [
      [text(`Media value: ${input.title}`)],
      [
        'Formula',
        'rate per second x exposure x position weight x clutter factor, per brand, video and placement',
      ],
      [],
    ],
  );
  let valueTotal = 0;
  const placementOrder = [...placementTotals.entries()].sort(
    (a, b) => b[1].exposure - a[1].exposure || a[0] - b[0],
  );
  for (const [id, p] of placementOrder) {
    const rate = input.rates.get(id) ?? 0;
    valueTotal += rate * p.valued;
    valueSheet.addRow([placementName(id), rate, p.exposure, p.valued, rate * p.valued]).commit();
  }
  valueSheet.addRow([]).commit();
  const valueRow = valueSheet.addRow(['All placements', null, null, null, valueTotal]);
  valueRow.font = TOTAL_FONT;
  valueRow.commit();
  valueSheet.commit();

  // Best frames: the frame of each brand's best detection (largest share of the frame).
  const frames = addTableSheet(
    workbook,
    names.bestFrames,
    [
      { header: 'Brand', width: 24 },
      { header: 'Video', width: 30 },
      { header: 'Time', width: 13, numFmt: TIME_FORMAT },
      { header: 'Detection', width: 11, numFmt: '0' },
      { header: 'Share of frame', width: 12, numFmt: PERCENT_FORMAT },
      { header: 'Frame', width: 46 },
    ],
    [],
  );
  const pictures: Picture[] = [];
  // Frames are cut a few at a time (each is an ffmpeg process that mostly waits on its seek).
  const jpegs = await mapLimit(
    order.map(([id]) => best.get(id)),
    FRAME_CONCURRENCY,
    (b) => (b && input.frame ? input.frame(b.video, b.at / 1000).catch(() => null) : Promise.resolve(null)),
  );
  for (const [i, [id]] of order.entries()) {
    const b = best.get(id);
    if (!b) continue;
    const jpeg = jpegs[i];
    const heightPx =
      b.video.width > 0 ? Math.round((THUMB_WIDTH * b.video.height) / b.video.width) : THUMB_WIDTH * 0.5625;
    const row = frames.addRow([
      brandName(id),
      text(b.video.name),
      msToExcelTime(b.at),
      b.detectionId,
      b.share,
      jpeg ? '' : 'Frame not available',
    ]);
    if (jpeg) {
      row.height = heightPx * 0.75 + 4; // points
      pictures.push({
        imageId: workbook.addImage({ buffer: jpeg as unknown as ExcelJS.Buffer, extension: 'jpeg' }),
        col: 5,
        row: row.number - 1,
        width: THUMB_WIDTH,
        height: heightPx,
      });
    }
    row.commit();
  }
  if (pictures.length) addPictures(workbook, frames, pictures);
  frames.commit();

  const firstSheets = [
    names.summary,
    names.brandVideo,
    names.brandPlacement,
    names.mediaValue,
    names.bestFrames,
  ].map((n) => workbook.getWorksheet(n)!);
  putSheetsFirst(workbook, firstSheets);
  await workbook.commit();
}

/** An async iterator over sync or async iterables. */
function lookahead<T>(items: AsyncIterable<T> | Iterable<T>): AsyncIterator<T> {
  return (async function* () {
    yield* items;
  })();
}

/**
 * Pulls the first `count` items of an async iterable now; the result iterates them and then the
 * rest, so a stream of rows can start before its consumer is ready.
 */
async function prefetch<T>(items: AsyncIterable<T>, count: number): Promise<AsyncIterable<T>> {
  const iterator = items[Symbol.asyncIterator]();
  const head: T[] = [];
  let done = false;
  while (head.length < count) {
    const r = await iterator.next();
    if (r.done) {
      done = true;
      break;
    }
    head.push(r.value);
  }
  return (async function* () {
    yield* head;
    if (done) return;
    for (;;) {
      const r = await iterator.next();
      if (r.done) return;
      yield r.value;
    }
  })();
}

/** fn over items, at most `limit` at once, results in order. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let nextIndex = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (nextIndex < items.length) {
      const i = nextIndex++;
      results[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return results;
}

/** The middle (ms) of the detection's segment with the largest share of the frame. */
function largestSegmentMiddle(d: CampaignDetection, video: CampaignVideo): number {
  let bestShare = -1;
  let at = (d.time_begin + d.time_end) / 2;
  for (const s of d.coordinates) {
    const share = quadFrameShare(s.points, video.width, video.height);
    if (share > bestShare) {
      bestShare = share;
      at = (s.start_time + s.end_time) / 2;
    }
  }
  return at;
}

function uploadDate(video: CampaignVideo): Date {
  return new Date(video.created_at);
}

function text(value: string): string {
  return escapeCellText(value);
}

interface Picture {
  imageId: number;
  /** 0-based cell of the picture's top-left corner. */
  col: number;
  row: number;
  width: number;
  height: number;
}

const EMU_PER_PIXEL = 9525;

/**
 * Anchors pictures on a sheet of the streaming writer. exceljs's WorksheetWriter only supports a
 * background image, so this writes the drawing part (xl/drawings/drawing1.xml and its rels), the
 * sheet's relationship and <drawing> element, and the content type override itself. Images are
 * added with workbook.addImage (exceljs writes xl/media and the jpeg content type). Call before
 * the sheet's commit, once per workbook.
 */
function addPictures(workbook: Workbook, sheet: ExcelJS.Worksheet, pictures: Picture[]): void {
  const internal = sheet as unknown as {
    _sheetRelsWriter: { addRelationship(rel: { Type: string; Target: string }): string };
    _writeLegacyData: () => void;
    stream: { write(text: string): void };
  };
  const wb = workbook as unknown as {
    zip: { append(data: string | Buffer, opts: { name: string }): void };
    media: { name: string }[];
  };
  const rId = internal._sheetRelsWriter.addRelationship({
    Type: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing',
    Target: '../drawings/drawing1.xml',
  });
  const original = internal._writeLegacyData.bind(sheet);
  internal._writeLegacyData = () => {
    internal.stream.write(`<drawing r:id="${rId}"/>`);
    original();
  };
  const anchors = pictures
    .map((p, i) => {
      const cx = p.width * EMU_PER_PIXEL;
      const cy = p.height * EMU_PER_PIXEL;
      return `<xdr:oneCellAnchor><xdr:from><xdr:col>${p.col}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${p.row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:ext cx="${cx}" cy="${cy}"/><xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${i + 2}" name="Picture ${i + 1}"/><xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr><xdr:blipFill><a:blip r:embed="rId${i + 1}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill><xdr:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>`;
    })
    .join('');
  wb.zip.append(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${anchors}</xdr:wsDr>`,
    { name: 'xl/drawings/drawing1.xml' },
  );
  const rels = pictures
    .map(
      (p, i) =>
        `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/${wb.media[p.imageId].name}"/>`,
    )
    .join('');
  wb.zip.append(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    { name: 'xl/drawings/_rels/drawing1.xml.rels' },
  );
  // The content types part is rendered at commit: add the drawing's override to it.
  const zip = wb.zip;
  const append = zip.append.bind(zip);
  zip.append = (data, opts) => {
    if (opts.name === '[Content_Types].xml' && typeof data === 'string') {
      data = data.replace(
        '</Types>',
        '<Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/></Types>',
      );
    }
    append(data, opts);
  };
}
