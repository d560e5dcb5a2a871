import { useEffect, useMemo, type MouseEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { API, type Brand, type DetectionSpansAnswer } from '@logo-review/contract';
import { formatTimecode } from '@logo-review/review-canvas';
import { http } from '../api/http-client';
import { useBrands, useProjects } from '../api/queries';
import { BRAND_COLORS } from '../theme/brand-colors';
import { brandLabel } from './id-picker';

/** Distinct colours for the brand rows (by row order, cycling): the dashboard's palette. */
export const STRIP_COLORS = BRAND_COLORS;
/** Segments asked per brand: one strip row is a few hundred px wide. */
const SEGMENTS = 300;
/** A mark narrower than this share of the row (%) is widened so that it stays visible. */
const MIN_MARK_PCT = 0.3;
/** After the loaded detections change (review, trim, new ones), the strip asks again after this pause. */
const REFRESH_DELAY_MS = 1500;

export interface StripMark {
  begin: number;
  end: number;
  left: number;
  width: number;
}
export interface StripRow {
  brand: number;
  label: string;
  color: string;
  count: number;
  marks: StripMark[];
}

/**
 * The rows of the strip: one per brand that has detections and is not hidden by the video's
 * project, sorted by label; each mark placed in % of the duration (clamped to it, at least
 * {@link MIN_MARK_PCT} wide).
 */
export function stripRows(
  answer: DetectionSpansAnswer,
  brands: readonly Pick<Brand, 'id' | 'name' | 'localized_name'>[],
  hiddenBrandIds: ReadonlySet<number>,
  durationMs: number,
): StripRow[] {
  if (!(durationMs > 0)) return [];
  const names = new Map(brands.map((b) => [b.id, brandLabel(b)]));
  const pct = (ms: number) => Math.min(100, Math.max(0, (ms / durationMs) * 100));
  return answer
    .filter((b) => !hiddenBrandIds.has(b.brand) && b.spans.length > 0)
    .map((b) => ({
      brand: b.brand,
      label: names.get(b.brand) ?? `#${b.brand}`,
      count: b.count,
      spans: b.spans,
    }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.brand - b.brand)
    .map((b, i) => ({
      brand: b.brand,
      label: b.label,
      count: b.count,
      color: STRIP_COLORS[i % STRIP_COLORS.length],
      marks: b.spans.map(([begin, end]) => {
        const left = Math.min(pct(begin), 100 - MIN_MARK_PCT);
        return { begin, end, left, width: Math.max(MIN_MARK_PCT, pct(end) - left) };
      }),
    }));
}

/** Where a click on a row seeks: the start of the clicked mark, otherwise the clicked time. */
export function stripClickTime(row: StripRow, x: number, width: number, durationMs: number): number | null {
  if (!(width > 0) || !(durationMs > 0)) return null;
  const at = Math.min(100, Math.max(0, (x / width) * 100));
  const mark = row.marks.find((m) => at >= m.left && at <= m.left + m.width);
  if (mark) return mark.begin;
  return Math.round((at / 100) * durationMs);
}

interface StripProps {
  videoId: number;
  projectId: number | null;
  durationMs: number;
  fps: number;
  onSeek: (ms: number) => void;
  /** Subscribes to changes of the loaded detections; answers the unsubscribe. */
  onDetectionsChanged: (fn: () => void) => () => void;
}

/**
 * The detection strip under the progress bar (issue 20): one thin row per brand with coloured
 * marks where its detections are over the whole video. Clicking a row seeks. Brands hidden by the
 * video's project stay hidden, as in the detections table.
 */
export function DetectionStrip({
  videoId,
  projectId,
  durationMs,
  fps,
  onSeek,
  onDetectionsChanged,
}: StripProps) {
  const queryKey = useMemo(() => ['detection-spans', videoId] as const, [videoId]);
  const client = useQueryClient();
  const spans = useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      http.get<DetectionSpansAnswer>(API.detectionSpans, { query: { videoId, segments: SEGMENTS }, signal }),
  });
  const brands = useBrands();
  const projects = useProjects();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = onDetectionsChanged(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void client.invalidateQueries({ queryKey }), REFRESH_DELAY_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [client, queryKey, onDetectionsChanged]);

  const rows = useMemo(() => {
    const project = projectId === null ? undefined : projects.data?.find((p) => p.id === projectId);
    const hidden = new Set(project?.filtered_brands.map((b) => b.id) ?? []);
    return stripRows(spans.data ?? [], brands.data ?? [], hidden, durationMs);
  }, [spans.data, brands.data, projects.data, projectId, durationMs]);

  if (rows.length === 0) return null;
  const seek = (row: StripRow) => (e: MouseEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    const t = stripClickTime(row, e.clientX - rect.left, rect.width, durationMs);
    if (t !== null) onSeek(t);
  };
  return (
    <Box
      role="group"
      aria-label="Detection strip"
      sx={{
        // A subgrid of the progress bar's grid: the rows line up with the bar, the names sit under the time.
        gridColumn: '1 / -1',
        display: 'grid',
        gridTemplateColumns: 'subgrid',
        rowGap: '3px',
        alignItems: 'center',
        maxHeight: 150,
        overflowY: 'auto',
      }}
    >
      {rows.map((row) => (
        <Box key={row.brand} sx={{ display: 'contents' }}>
          <Box
            data-testid="strip-row"
            aria-label={`${row.label}: ${row.count} detections`}
            title={`${row.label}: ${row.count} detections`}
            onClick={seek(row)}
            sx={{
              position: 'relative',
              height: 8,
              borderRadius: 0.5,
              bgcolor: 'grey.200',
              cursor: 'pointer',
              overflow: 'hidden',
            }}
          >
            {row.marks.map((m) => (
              <Box
                key={m.begin}
                data-testid="strip-mark"
                title={`${row.label} ${formatTimecode(m.begin, fps)} – ${formatTimecode(m.end, fps)}`}
                sx={{
                  position: 'absolute',
                  top: 0,
                  bottom: 0,
                  left: `${m.left}%`,
                  width: `${m.width}%`,
                  bgcolor: row.color,
                }}
              />
            ))}
          </Box>
          <Typography
            variant="caption"
            noWrap
            title={row.label}
            sx={{ maxWidth: 120, lineHeight: '12px', fontSize: 11, color: row.color }}
          >
            {row.label}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
