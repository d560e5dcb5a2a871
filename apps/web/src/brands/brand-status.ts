import { BRAND_STATUS } from '@logo-review/contract';

export type ChipColor = 'default' | 'success' | 'error' | 'warning' | 'info';

export function brandStatusColor(status: string): ChipColor {
  switch (status) {
    case BRAND_STATUS.ACTIVE:
      return 'success';
    case BRAND_STATUS.ERROR:
      return 'error';
    case BRAND_STATUS.NO_LOGOS:
      return 'warning';
    case BRAND_STATUS.QUEUED:
    case BRAND_STATUS.ACTIVATING:
      return 'info';
    default:
      return 'default';
  }
}

/** Precision is a 0..1 share; the card shows it in percent, or 'No data' when it is missing. */
export function formatPrecision(precision: number | null | undefined): string {
  if (precision === null || precision === undefined || Number.isNaN(precision)) return 'No data';
  return `${Math.round(precision * 1000) / 10}%`;
}
