/** Cell and sheet-name hygiene for the Excel report. */

/**
 * Text that a spreadsheet could read as a formula (or that hides one behind a tab or carriage return)
 * gets a leading single quote, the usual defence against formula injection in exported sheets.
 */
export function escapeCellText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const MAX_SHEET_NAME = 31;
// Control characters are not allowed in sheet names either.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_SHEET_NAME = /[[\]:*?/\\\u0000-\u001f]/g;

/**
 * Makes sheet names Excel accepts: none of []:*?/\, no leading or trailing apostrophe, at most 31
 * characters, not 'History', and unique (case-insensitively) within one workbook.
 */
export class SheetNamer {
  private readonly used = new Set<string>();

  name(wanted: string): string {
    let base = wanted
      .replace(FORBIDDEN_IN_SHEET_NAME, '_')
      .replace(/^'+|'+$/g, '')
      .trim();
    if (base === '' || base.toLowerCase() === 'history') base = `Sheet ${this.used.size + 1}`;
    base = base.slice(0, MAX_SHEET_NAME);
    let candidate = base;
    for (let n = 2; this.used.has(candidate.toLowerCase()); n++) {
      const suffix = ` (${n})`;
      candidate = base.slice(0, MAX_SHEET_NAME - suffix.length) + suffix;
    }
    this.used.add(candidate.toLowerCase());
    return candidate;
  }
}

/** Milliseconds as an Excel time value (days), shown with TIME_FORMAT. */
export function msToExcelTime(ms: number): number {
  return ms / 86_400_000;
}

/** Hours may pass 24 for long recordings, hence [h]. */
export const TIME_FORMAT = '[h]:mm:ss.000';
export const PERCENT_FORMAT = '0.00%';
export const SECONDS_FORMAT = '#,##0.000';
export const INTEGER_FORMAT = '#,##0';
