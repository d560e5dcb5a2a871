import type { AnalyticsScope, BrandName, Dashboard } from './analytics-api';
import { BRAND_COLORS } from '../theme/brand-colors';

/** A brand's shown name: its localized name, else its name. */
export const brandName = (b: Pick<BrandName, 'name' | 'localized_name'>) => b.localized_name || b.name;

/** Colours of the brand series (by rank), shared by every chart so a brand keeps its colour. */
export { BRAND_COLORS } from '../theme/brand-colors';
export const OTHER_COLOR = '#9e9e9e';
export const OTHER_LABEL = 'Other brands';

// ---- filters ------------------------------------------------------------------------------------------

/** The dashboard's filters, as kept in the URL (?project=3 or ?folder=12, &from=YYYY-MM-DD&to=...). */
export interface DashboardFilters {
  /** 'all', 'project:<id>' or 'folder:<id>'. */
  target: string;
  from: string;
  to: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function filtersFromParams(params: URLSearchParams): DashboardFilters {
  const project = params.get('project');
  const folder = params.get('folder');
  const target =
    project && /^\d+$/.test(project)
      ? `project:${project}`
      : folder && /^\d+$/.test(folder)
        ? `folder:${folder}`
        : 'all';
  const date = (v: string | null) => (v && DATE.test(v) ? v : '');
  return { target, from: date(params.get('from')), to: date(params.get('to')) };
}

export function paramsFromFilters(f: DashboardFilters): Record<string, string> {
  const out: Record<string, string> = {};
  const [kind, id] = f.target.split(':');
  if ((kind === 'project' || kind === 'folder') && id) out[kind] = id;
  if (f.from) out.from = f.from;
  if (f.to) out.to = f.to;
  return out;
}

/** The API scope of the filters; a date range given backwards is an error to show, not a query. */
export function scopeFromFilters(f: DashboardFilters): { scope: AnalyticsScope } | { error: string } {
  if (f.from && f.to && f.from > f.to) return { error: 'The start date must not be after the end date.' };
  const p = paramsFromFilters(f);
  const scope: AnalyticsScope = {};
  if (p.project) scope.project = Number(p.project);
  if (p.folder) scope.folder = Number(p.folder);
  if (p.from) scope.from = p.from;
  if (p.to) scope.to = p.to;
  return { scope };
}

// ---- formatting ---------------------------------------------------------------------------------------

const number1 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Between a number and its unit: a no-break space, so that '12.5 s' never wraps in a narrow table. */
export const NBSP = '\u00a0';
/** Exposure seconds with one decimal: '1,234.5 s'. */
export const formatSeconds = (s: number) => `${number1.format(s)}${NBSP}s`;
export const formatCount = (n: number) => integer.format(n);
/** A share 0..1 as a percentage with one decimal: '11.7 %'. */
export const formatShare = (share: number) => `${number1.format(share * 100)}${NBSP}%`;

/** A money amount in the organization's currency (falls back to the code when Intl does not know it). */
export function formatMoney(value: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(
      value,
    );
  } catch {
    return `${integer.format(value)} ${currency}`;
  }
}

/** A remaining time: '45 s', '12 min', '2 h 05 min'; null (no measured speed yet): 'unknown'. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return 'unknown';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}${NBSP}s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes}${NBSP}min`;
  const h = Math.floor(minutes / 60);
  return `${h}${NBSP}h ${String(minutes % 60).padStart(2, '0')}${NBSP}min`;
}

// ---- chart data ---------------------------------------------------------------------------------------

export interface BrandBar {
  id: number;
  label: string;
  seconds: number;
  color: string;
}

/** The brands' colours by their rank in the answer (sorted by exposure), for every chart. */
export function brandColors(d: Pick<Dashboard, 'brands'>): Map<number, string> {
  return new Map(d.brands.map((b, i) => [b.brand.id, BRAND_COLORS[i % BRAND_COLORS.length]]));
}

/** Exposure per brand, most exposed first, at most `limit` bars (the chart stays readable when narrow). */
export function exposureBars(d: Pick<Dashboard, 'brands'>, limit = 12): BrandBar[] {
  const colors = brandColors(d);
  return [...d.brands]
    .sort((a, b) => b.exposure_seconds - a.exposure_seconds)
    .slice(0, limit)
    .map((b) => ({
      id: b.brand.id,
      label: brandName(b.brand),
      seconds: b.exposure_seconds,
      color: colors.get(b.brand.id) ?? OTHER_COLOR,
    }));
}

export interface Slice {
  id: number | 'other';
  label: string;
  /** Percent, 0..100. */
  value: number;
  color: string;
}

/** Share of voice: the `limit` largest brands, the rest summed as 'Other brands'; in percent. */
export function shareOfVoice(d: Pick<Dashboard, 'brands'>, limit = 6): Slice[] {
  const colors = brandColors(d);
  const sorted = [...d.brands].sort((a, b) => b.share_of_voice - a.share_of_voice);
  const head = sorted.slice(0, sorted.length > limit ? limit - 1 : limit);
  const rest = sorted.slice(head.length);
  const slices: Slice[] = head.map((b) => ({
    id: b.brand.id,
    label: brandName(b.brand),
    value: b.share_of_voice * 100,
    color: colors.get(b.brand.id) ?? OTHER_COLOR,
  }));
  if (rest.length > 0)
    slices.push({
      id: 'other',
      label: OTHER_LABEL,
      value: rest.reduce((sum, b) => sum + b.share_of_voice, 0) * 100,
      color: OTHER_COLOR,
    });
  return slices.filter((s) => s.value > 0);
}

export interface PlacementBar {
  id: number;
  label: string;
  seconds: number;
  mediaValue: number;
  color: string;
}

export const placementBars = (d: Pick<Dashboard, 'placements'>): PlacementBar[] =>
  [...d.placements]
    .sort((a, b) => b.exposure_seconds - a.exposure_seconds)
    .map((p) => ({
      id: p.placement.id,
      label: p.placement.localized_name,
      seconds: p.exposure_seconds,
      mediaValue: p.media_value,
      color: p.placement.color,
    }));

export interface Timeline {
  /** One x per video, in upload order: 'name' (the table shows the date too). */
  videos: { id: number; name: string; date: string; total: number }[];
  /** The `limit` most exposed brands, each with one value per video (0 where absent). */
  series: { id: number; label: string; color: string; data: number[] }[];
}

/** Exposure over the videos: per video in upload order, the top brands' exposure seconds. */
export function timeline(d: Pick<Dashboard, 'brands' | 'timeline'>, limit = 5): Timeline {
  const colors = brandColors(d);
  const top = [...d.brands].sort((a, b) => b.exposure_seconds - a.exposure_seconds).slice(0, limit);
  return {
    videos: d.timeline.map((p) => ({
      id: p.video.id,
      name: p.video.name,
      date: p.video.created_at.slice(0, 10),
      total: p.exposure_seconds,
    })),
    series: top.map((b) => ({
      id: b.brand.id,
      label: brandName(b.brand),
      color: colors.get(b.brand.id) ?? OTHER_COLOR,
      data: d.timeline.map((p) => p.brands.find((x) => x.brand_id === b.brand.id)?.exposure_seconds ?? 0),
    })),
  };
}

export interface TopVideoRow {
  brandId: number;
  brand: string;
  rank: number;
  video: string;
  videoId: number;
  seconds: number;
  shareOfVideo: number;
  mediaValue: number;
}

/** The top videos per brand as table rows, brands in the answer's order (most exposed first). */
export function topVideoRows(d: Pick<Dashboard, 'brands' | 'top_videos'>): TopVideoRow[] {
  const names = new Map(d.brands.map((b) => [b.brand.id, brandName(b.brand)]));
  return d.top_videos.flatMap((t) =>
    t.videos.map((v, i) => ({
      brandId: t.brand_id,
      brand: names.get(t.brand_id) ?? `#${t.brand_id}`,
      rank: i + 1,
      video: v.video.name,
      videoId: v.video.id,
      seconds: v.exposure_seconds,
      shareOfVideo: v.share_of_video,
      mediaValue: v.media_value,
    })),
  );
}
