import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeExcelReport, type ReportDetection, type ReportInput } from '../../src/reports/excel-report.ts';
import { escapeCellText, SheetNamer } from '../../src/reports/excel-cells.ts';
import { IntervalUnion } from '../../src/reports/interval-union.ts';
import { ClutterIndex } from '../../src/analytics/exposure.ts';
import { quadFrameShare, screenRegion } from '../../src/reports/quad-geometry.ts';

const W = 1000;
const H = 500;

/** An axis-aligned quad, clockwise from top-left, in video pixels. */
function rect(x: number, y: number, w: number, h: number): number[] {
  return [x, y, x + w, y, x + w, y + h, x, y + h];
}

function detection(
  id: number,
  brandId: number,
  placementId: number,
  begin: number,
  end: number,
  points: number[],
  extra: Partial<ReportDetection> = {},
): ReportDetection {
  return {
    id,
    brandId,
    placementId,
    time_begin: begin,
    time_end: end,
    coordinates: [{ start_time: begin, end_time: end, points }],
    confidence: 0.8,
    review: 'UNREVIEWED',
    source: 'engine',
    reviewed_by: null,
    reviewed_at: null,
    ...extra,
  };
}

// Video of 20 s. Brand 1 (acme): two overlapping detections on the board (0-4 s, 2-6 s) and one on
// the shirt (10-11 s). Brand 2 (=evil, a formula-looking name): one on the board (4-6 s).
const DETECTIONS: ReportDetection[] = [
  detection(1, 1, 10, 0, 4000, rect(0, 0, 100, 50)), // 1% of the frame, top-left
  detection(2, 1, 10, 2000, 6000, rect(0, 0, 200, 250)), // 10%
  detection(3, 1, 11, 10_000, 11_000, rect(900, 450, 100, 50), {
    confidence: null,
    review: 'TRUE_POSITIVE',
    reviewed_by: 'ann',
    reviewed_at: '2026-11-25T09:30:15.250Z',
  }),
  detection(4, 2, 10, 4000, 6000, rect(450, 200, 100, 100), { source: 'manual' }), // 2%, centre
];

function baseInput(overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    video: { id: 7, name: 'Match day', fps: 25, frames: 500, duration: 20, width: W, height: H },
    brands: new Map([
      [1, { id: 1, name: 'acme', localized_name: 'ACME Corp' }],
      [2, { id: 2, name: '=evil()', localized_name: '@evil' }],
    ]),
    placements: new Map([
      [10, { id: 10, localized_name: 'Board', color: '#ff0000', manual: false }],
      [11, { id: 11, localized_name: '-Shirt', color: '#00ff00', manual: true }],
    ]),
    tags: [],
    withoutPlacement: false,
    detections: fromArray(DETECTIONS),
    ...overrides,
  };
}

async function* fromArray<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

async function buildReport(input: ReportInput): Promise<ExcelJS.Workbook> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => out.on('end', resolve));
  await writeExcelReport(input, out);
  await ended;
  const workbook = new ExcelJS.Workbook();
  const file = Buffer.concat(chunks);
  await workbook.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
  return workbook;
}

/** Data rows under a header row, as objects keyed by header text; stops at the first empty row. */
function table(sheet: ExcelJS.Worksheet, headerRow: number): Record<string, unknown>[] {
  const headers = (sheet.getRow(headerRow).values as unknown[]).slice(1).map(String);
  const rows: Record<string, unknown>[] = [];
  for (let r = headerRow + 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    if (!row.hasValues) break;
    rows.push(Object.fromEntries(headers.map((h, i) => [h, row.getCell(i + 1).value])));
  }
  return rows;
}

/** exceljs reads time-formatted numbers back as dates counted from 1899-12-30. */
function excelTimeToMs(value: unknown): number {
  if (value instanceof Date) return value.getTime() - Date.UTC(1899, 11, 30);
  return Number(value) * 86_400_000;
}

describe('writeExcelReport', () => {
  it('writes Summary, By placement and Detections sheets in that tab order', async () => {
    const workbook = await buildReport(baseInput());
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Summary', 'By placement', 'Detections']);
  });

  it('summarises per brand with exposure as the union of spans, sizes and share of voice', async () => {
    const summary = (await buildReport(baseInput())).getWorksheet('Summary')!;
    expect(summary.getCell('B1').value).toBe('Match day');
    expect(summary.getCell('H2').value).toBe(4);
    const rows = table(summary, 4);
    const acme = rows.find((r) => r.Brand === 'acme')!;
    const evil = rows.find((r) => r['Localized name'] === "'@evil")!;
    expect(acme.Detections).toBe(3);
    // 0-6 s (the overlap counts once) plus 10-11 s.
    expect(acme['Exposure (s)']).toBeCloseTo(7);
    expect(acme['Share of video']).toBeCloseTo(7 / 20);
    // Time-weighted: (1% x 4 s + 10% x 4 s + 1% x 1 s) / 9 s.
    expect(acme['Mean size (% of frame)']).toBeCloseTo((0.01 * 4 + 0.1 * 4 + 0.01 * 1) / 9);
    expect(acme['Largest size (% of frame)']).toBeCloseTo(0.1);
    expect(acme['Share of voice']).toBeCloseTo(7 / 9);
    expect(evil['Exposure (s)']).toBeCloseTo(2);
    expect(evil['Share of voice']).toBeCloseTo(2 / 9);
    // Sorted by exposure, largest first.
    expect(rows[0].Brand).toBe('acme');

    const total = summary.getRow(4 + rows.length + 2);
    expect(total.getCell(1).value).toBe('All brands');
    expect(total.getCell(3).value).toBe(4);
    expect(total.getCell(4).value).toBeCloseTo(7); // 0-6 s and 10-11 s, whichever brand
  });

  it('adds the measures of analytics/exposure.ts: size-weighted exposure, position, clutter, media value', async () => {
    const workbook = await buildReport(
      baseInput({
        clutter: new ClutterIndex(
          DETECTIONS.map((d) => ({ brand_id: d.brandId, time_begin: d.time_begin, time_end: d.time_end })),
        ),
        rates: new Map([[10, 2]]),
        currency: 'USD',
      }),
    );
    const rows = table(workbook.getWorksheet('Summary')!, 4);
    const evil = rows.find((r) => r['Localized name'] === "'@evil")!;
    // 2 s at 2% of the frame in the centre, with acme on screen all the time (n = 1, factor 0.5):
    // valued seconds 2 x 1 x 0.5 = 1, at 2 USD per second on the board.
    expect(evil['Size-weighted exposure (s)']).toBeCloseTo(0.04);
    expect(evil['Position weight']).toBeCloseTo(1);
    expect(evil.Clutter).toBeCloseTo(1);
    expect(evil['Media value (USD)']).toBeCloseTo(2);
    const placements = table(workbook.getWorksheet('By placement')!, 1);
    const shirt = placements.find((r) => r.Placement === "'-Shirt")!;
    expect(shirt['Media value (USD)']).toBe(0); // no rate for the shirt
  });

  it('lists every detection with times, size, position, confidence and review state', async () => {
    const sheet = (await buildReport(baseInput())).getWorksheet('Detections')!;
    const rows = table(sheet, 1);
    expect(rows.map((r) => r.ID)).toEqual([1, 2, 3, 4]);
    const third = rows[2];
    expect(third.Brand).toBe('acme');
    expect(third['Localized name']).toBe('ACME Corp');
    expect(third.Placement).toBe("'-Shirt");
    expect(excelTimeToMs(third.Start)).toBeCloseTo(10_000, 3);
    expect(excelTimeToMs(third.End)).toBeCloseTo(11_000, 3);
    expect(third['Duration (s)']).toBeCloseTo(1);
    expect(third['Mean size (% of frame)']).toBeCloseTo(0.01);
    expect(third['Centre x (%)']).toBeCloseTo(0.95);
    expect(third['Centre y (%)']).toBeCloseTo(0.95);
    expect(third['Screen position']).toBe('bottom-right');
    expect(third.Confidence).toBeNull();
    expect(third.Review).toBe('TRUE_POSITIVE');
    expect(third['Reviewed by']).toBe('ann');
    expect((third['Reviewed at'] as Date).toISOString()).toBe('2026-11-25T09:30:15.250Z');
    expect(rows[0]['Reviewed by']).toBeNull();
    expect(rows[0]['Reviewed at']).toBeNull();
    expect(rows[3]['Screen position']).toBe('centre');
    expect(rows[3].Source).toBe('manual');
    expect(rows[0].Confidence).toBeCloseTo(0.8);
  });

  it('styles the tables: frozen header, autofilter, widths and number formats', async () => {
    const workbook = await buildReport(baseInput());
    const detections = workbook.getWorksheet('Detections')!;
    expect(detections.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(detections.autoFilter).toBe('A1:Q1');
    expect(detections.getCell('Q2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(detections.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(detections.getColumn(2).width).toBeGreaterThan(10);
    expect(detections.getCell('E2').numFmt).toBe('[h]:mm:ss.000');
    expect(detections.getCell('H2').numFmt).toBe('0.00%');
    const summary = workbook.getWorksheet('Summary')!;
    expect(summary.views[0]).toMatchObject({ state: 'frozen', ySplit: 4 });
    expect(summary.autoFilter).toBe('A4:L4');
    expect(summary.getCell('E5').numFmt).toBe('0.00%');
  });

  it('groups by brand and placement, with share of voice inside each placement', async () => {
    const sheet = (await buildReport(baseInput())).getWorksheet('By placement')!;
    const rows = table(sheet, 1);
    expect(rows).toHaveLength(3);
    const board = rows.filter((r) => r.Placement === 'Board');
    const acmeBoard = board.find((r) => r.Brand === 'acme')!;
    expect(acmeBoard.Detections).toBe(2);
    expect(acmeBoard['Exposure (s)']).toBeCloseTo(6);
    expect(acmeBoard['Share of voice in placement']).toBeCloseTo(6 / 8);
    const shirt = rows.find((r) => r.Placement === "'-Shirt")!;
    expect(shirt.Manual).toBe('yes');
    expect(shirt['Exposure (s)']).toBeCloseTo(1);
  });

  it('leaves placements out without_placement', async () => {
    const workbook = await buildReport(baseInput({ withoutPlacement: true }));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Summary', 'Detections']);
    const rows = table(workbook.getWorksheet('Detections')!, 1);
    expect(rows[0]).not.toHaveProperty('Placement');
    expect(rows[0]).toHaveProperty('Start');
    const acme = table(workbook.getWorksheet('Summary')!, 4).find((r) => r.Brand === 'acme')!;
    expect(acme['Exposure (s)']).toBeCloseTo(7);
  });

  it('writes a sheet per tag with its brand and placements, names sanitised and unique', async () => {
    const workbook = await buildReport(
      baseInput({
        tags: [
          { id: 1, name: 'acme [boards]: first half / all?', brand: 1, placements: [10] },
          { id: 2, name: 'acme [boards]: first half / all!', brand: 1, placements: [] },
        ],
      }),
    );
    const names = workbook.worksheets.map((s) => s.name);
    expect(names).toHaveLength(5);
    const tagNames = names.slice(2, 4);
    for (const name of tagNames) {
      expect(name.length).toBeLessThanOrEqual(31);
      expect(name).not.toMatch(/[[\]:*?/\\]/);
    }
    expect(new Set(tagNames.map((n) => n.toLowerCase())).size).toBe(2);

    const boardsOnly = workbook.getWorksheet(tagNames[0])!;
    expect(boardsOnly.getCell('B1').value).toBe('acme [boards]: first half / all?');
    expect(boardsOnly.getCell('B2').value).toBe('ACME Corp (acme)');
    expect(boardsOnly.getCell('B3').value).toBe('Board');
    const rows = table(boardsOnly, 5);
    expect(rows).toEqual([expect.objectContaining({ Placement: 'Board', Detections: 2 })]);
    expect(rows[0]['Exposure (s)']).toBeCloseTo(6);

    const allPlacements = workbook.getWorksheet(tagNames[1])!;
    expect(allPlacements.getCell('B3').value).toBe('All');
    const all = table(allPlacements, 5);
    expect(all.map((r) => r.Placement).sort()).toEqual(["'-Shirt", 'Board']);
    const total = allPlacements.getRow(5 + all.length + 2);
    expect(total.getCell(1).value).toBe('All placements of the tag');
    expect(total.getCell(3).value).toBe(3);
    expect(total.getCell(4).value).toBeCloseTo(7);
  });

  it('escapes every text cell that a spreadsheet could read as a formula', async () => {
    const workbook = await buildReport(
      baseInput({
        video: { id: 7, name: '+SUM(A1)', fps: 25, frames: 500, duration: 20, width: W, height: H },
        detections: fromArray([
          detection(1, 2, 11, 0, 1000, rect(0, 0, 10, 10), {
            review: '\tx',
            source: '\rmanual',
            reviewed_by: '=cmd',
          }),
        ]),
      }),
    );
    expect(workbook.getWorksheet('Summary')!.getCell('B1').value).toBe("'+SUM(A1)");
    const [row] = table(workbook.getWorksheet('Detections')!, 1);
    expect(row.Brand).toBe("'=evil()");
    expect(row['Localized name']).toBe("'@evil");
    expect(row.Placement).toBe("'-Shirt");
    expect(row.Review).toBe("'\tx");
    // XML parsing turns a raw carriage return into a line feed; the quote in front is what matters.
    expect(row.Source).toMatch(/^'[\r\n]manual$/);
    expect(row['Reviewed by']).toBe("'=cmd");
    // No cell in the file holds a formula.
    for (const sheet of workbook.worksheets) {
      sheet.eachRow((r) => r.eachCell((cell) => expect(cell.type).not.toBe(ExcelJS.ValueType.Formula)));
    }
  });

  it('rejects instead of hanging when the output is closed mid-way (a client went away)', async () => {
    const out = new PassThrough();
    let received = 0;
    out.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > 50_000) out.destroy();
    });
    const many = Array.from({ length: 30_000 }, (_, i) =>
      detection(i + 1, 1, 10, i, i + 10, rect(0, 0, 10, 10)),
    );
    await expect(writeExcelReport(baseInput({ detections: fromArray(many) }), out)).rejects.toThrow(
      'The report output was closed before the report was complete',
    );
  });

  it('writes a valid report without detections', async () => {
    const workbook = await buildReport(baseInput({ detections: fromArray([]) }));
    const summary = workbook.getWorksheet('Summary')!;
    expect(summary.getCell('H2').value).toBe(0);
    expect(table(workbook.getWorksheet('Detections')!, 1)).toEqual([]);
  });
});

describe('report helpers', () => {
  it('escapes only leading formula characters', () => {
    expect(escapeCellText('=1+2')).toBe("'=1+2");
    expect(escapeCellText('-5')).toBe("'-5");
    expect(escapeCellText('@x')).toBe("'@x");
    expect(escapeCellText('a=b')).toBe('a=b');
    expect(escapeCellText('')).toBe('');
  });

  it('sanitises sheet names', () => {
    const namer = new SheetNamer();
    expect(namer.name('a/b\\c?d*e[f]g:h')).toBe('a_b_c_d_e_f_g_h');
    expect(namer.name("'quoted'")).toBe('quoted');
    expect(namer.name('x'.repeat(40))).toBe('x'.repeat(31));
    expect(namer.name('X'.repeat(40))).toBe(`${'X'.repeat(27)} (2)`);
    expect(namer.name('History')).not.toBe('History');
    expect(namer.name('')).not.toBe('');
  });

  it('merges overlapping and touching spans in any order', () => {
    const union = new IntervalUnion();
    union.add(10, 20);
    union.add(40, 50);
    union.add(0, 5);
    union.add(15, 42); // bridges the first two
    union.add(5, 6); // touches 0-5
    expect(union.total()).toBe(6 + 40);
    expect(union.spanCount).toBe(2);
  });

  it('measures only the part of a quad inside the frame', () => {
    expect(quadFrameShare(rect(0, 0, 100, 100), 100, 100)).toBeCloseTo(1);
    expect(quadFrameShare(rect(-50, 0, 100, 100), 100, 100)).toBeCloseTo(0.5);
    expect(quadFrameShare([50, 0, 100, 50, 50, 100, 0, 50], 100, 100)).toBeCloseTo(0.5); // a diamond
    expect(quadFrameShare(rect(200, 200, 10, 10), 100, 100)).toBe(0);
    expect(screenRegion(0.1, 0.9)).toBe('bottom-left');
    expect(screenRegion(0.5, 0.1)).toBe('top-centre');
  });
});
