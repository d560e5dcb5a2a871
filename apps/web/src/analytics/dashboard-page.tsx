import { lazy, Suspense, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import { formatError } from '../api/api-error';
import { useProjects, useVideoTree } from '../api/queries';
import { PageLayout } from '../components/page-layout';
import { flattenFolders } from '../videos/video-tree';
import { analyticsApi, type Dashboard, type Processing } from './analytics-api';
import { exportCampaignReport } from './campaign-export';
import {
  exposureBars,
  filtersFromParams,
  formatCount,
  formatEta,
  formatMoney,
  formatSeconds,
  formatShare,
  paramsFromFilters,
  placementBars,
  scopeFromFilters,
  shareOfVoice,
  timeline,
  topVideoRows,
  type DashboardFilters,
} from './dashboard-data';

// The chart library (@mui/x-charts) is fetched only when a chart is shown.
const charts = () => import('./dashboard-charts');
const ExposureChart = lazy(() => charts().then((m) => ({ default: m.ExposureChart })));
const ShareOfVoiceChart = lazy(() => charts().then((m) => ({ default: m.ShareOfVoiceChart })));
const PlacementChart = lazy(() => charts().then((m) => ({ default: m.PlacementChart })));
const TimelineChart = lazy(() => charts().then((m) => ({ default: m.TimelineChart })));

const PROCESSING_POLL_MS = 5000;

/**
 * The filters kept in the URL, and a setter that merges a patch into them. The router commits a
 * navigation in a transition, so the address may already hold a change (say "from") that this
 * render has not seen yet; a second field changed quickly after it is merged into that pending
 * query, not into this render's, so that it does not drop the first change.
 */
function useUrlFilters(): [DashboardFilters, (patch: Partial<DashboardFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const current = params.toString();
  // The queries set and not yet all committed: the query they were set over, then each one set.
  const pending = useRef<string[] | null>(null);
  // Only a committed render says what has landed: a render of a transition that suspends (the charts
  // load lazily) is thrown away, and clearing here then would merge the next change into the old query.
  useLayoutEffect(() => {
    const chain = pending.current;
    // The last one committed, or the address changed some other way (back, a link): nothing pending.
    // An earlier one committed while a later one is still on its way: the later one stays the base.
    if (chain && (current === chain[chain.length - 1] || !chain.includes(current))) pending.current = null;
  }, [current]);
  const set = (patch: Partial<DashboardFilters>) => {
    const chain = pending.current ?? [current];
    const base = filtersFromParams(new URLSearchParams(chain[chain.length - 1]));
    const next = new URLSearchParams(paramsFromFilters({ ...base, ...patch }));
    pending.current = [...chain, next.toString()];
    setParams(next, { replace: true });
  };
  return [filtersFromParams(params), set];
}

/** Issue 20: exposure, share of voice, placements, the videos over time, processing and review. */
export default function DashboardPage() {
  const [filters, setFilters] = useUrlFilters();
  const scoped = scopeFromFilters(filters);
  const scope = 'scope' in scoped ? scoped.scope : null;

  const dashboard = useQuery({
    queryKey: ['analytics', 'dashboard', scope],
    queryFn: ({ signal }) => analyticsApi.dashboard(scope!, signal),
    enabled: scope !== null,
    placeholderData: keepPreviousData,
  });
  const processing = useQuery({
    queryKey: ['analytics', 'processing', scope],
    queryFn: ({ signal }) => analyticsApi.processing(scope!, signal),
    enabled: scope !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.active.length ? PROCESSING_POLL_MS : false),
  });
  const d = dashboard.data;

  return (
    <PageLayout
      toolbar={<FilterBar filters={filters} onChange={setFilters} />}
      actions={
        <Button
          variant="contained"
          startIcon={<DownloadIcon />}
          disabled={scope === null}
          onClick={() => scope && void exportCampaignReport(scope)}
        >
          Export campaign report
        </Button>
      }
    >
      {'error' in scoped && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {scoped.error}
        </Alert>
      )}
      {dashboard.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {formatError(dashboard.error, 'Error retrieving the dashboard')}
        </Alert>
      )}
      {dashboard.isFetching && <LinearProgress aria-label="Loading dashboard" sx={{ mb: 1 }} />}
      {d && <Summary d={d} />}
      {d && d.brands.length === 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          No counted detections in this selection.
        </Alert>
      )}
      <Grid container spacing={2}>
        {d && d.brands.length > 0 && <Charts d={d} />}
        <Grid size={{ xs: 12, lg: 6 }}>
          <ProcessingCard processing={processing.data} />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>{d && <ReviewCard d={d} />}</Grid>
      </Grid>
    </PageLayout>
  );
}

function FilterBar({
  filters,
  onChange,
}: {
  filters: DashboardFilters;
  onChange(patch: Partial<DashboardFilters>): void;
}) {
  const projects = useProjects().data ?? [];
  const tree = useVideoTree().data;
  const folders = useMemo(() => flattenFolders(tree).sort((a, b) => a.path.localeCompare(b.path)), [tree]);
  // A target from the URL that the lists do not (yet) hold is still shown as selected.
  const known =
    filters.target === 'all' ||
    projects.some((p) => `project:${p.id}` === filters.target) ||
    folders.some((f) => `folder:${f.id}` === filters.target);
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1.5 }}>
      <TextField
        select
        size="small"
        label="Videos"
        value={filters.target}
        onChange={(e) => onChange({ target: e.target.value })}
        sx={{ minWidth: 220, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
      >
        <MenuItem value="all">All videos</MenuItem>
        {!known && <MenuItem value={filters.target}>{filters.target}</MenuItem>}
        {projects.length > 0 && <ListSubheader>Projects</ListSubheader>}
        {[...projects]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((p) => (
            <MenuItem key={`p${p.id}`} value={`project:${p.id}`}>
              {p.name}
            </MenuItem>
          ))}
        {folders.length > 0 && <ListSubheader>Folders (with subfolders)</ListSubheader>}
        {folders.map((f) => (
          <MenuItem key={`f${f.id}`} value={`folder:${f.id}`}>
            {f.path}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="date"
        size="small"
        label="Uploaded from"
        value={filters.from}
        onChange={(e) => onChange({ from: e.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ flex: { xs: '1 1 140px', sm: '0 1 170px' } }}
      />
      <TextField
        type="date"
        size="small"
        label="Uploaded to"
        value={filters.to}
        onChange={(e) => onChange({ to: e.target.value })}
        slotProps={{ inputLabel: { shrink: true } }}
        sx={{ flex: { xs: '1 1 140px', sm: '0 1 170px' } }}
      />
    </Stack>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1.5, flex: '1 1 140px', minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p" noWrap aria-label={label}>
        {value}
      </Typography>
    </Paper>
  );
}

function Summary({ d }: { d: Dashboard }) {
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, mb: 2 }} aria-label="Totals" component="section">
      <Stat label="Videos" value={formatCount(d.videos)} />
      <Stat label="Detections" value={formatCount(d.totals.detections)} />
      <Stat label="Exposure" value={formatSeconds(d.totals.exposure_seconds)} />
      <Stat label="Media value" value={formatMoney(d.totals.media_value, d.currency)} />
      <Stat label="Reviewed" value={formatShare(d.review.overall.share)} />
    </Stack>
  );
}

/** A titled card holding a chart, with a Chart / Table toggle: the table is the chart's text alternative. */
function ChartCard({
  title,
  chart,
  table,
  tableOnly,
}: {
  title: string;
  chart?: ReactNode;
  table: ReactNode;
  tableOnly?: boolean;
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const shown = tableOnly ? 'table' : view;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={title}
      sx={{ p: 2, height: '100%', minWidth: 0 }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 1 }}>
        <Typography variant="subtitle1" component="h2">
          {title}
        </Typography>
        {!tableOnly && (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={view}
            onChange={(_e, v: 'chart' | 'table' | null) => v && setView(v)}
            aria-label={`${title}: show as`}
          >
            <ToggleButton value="chart">Chart</ToggleButton>
            <ToggleButton value="table">Table</ToggleButton>
          </ToggleButtonGroup>
        )}
      </Stack>
      {shown === 'chart' ? (
        <Suspense fallback={<Skeleton variant="rounded" height={240} aria-label="Loading chart" />}>
          <Box sx={{ minWidth: 0 }}>{chart}</Box>
        </Suspense>
      ) : (
        <TableContainer sx={{ maxHeight: 420 }}>{table}</TableContainer>
      )}
    </Paper>
  );
}

/**
 * A small table; the first `textColumns` columns hold text (left-aligned), the rest numbers
 * (right-aligned, never wrapped: a narrow screen scrolls the table sideways instead).
 */
function SimpleTable({
  label,
  head,
  rows,
  textColumns = 1,
}: {
  label: string;
  head: string[];
  rows: (string | number)[][];
  textColumns?: number;
}) {
  const align = (i: number) => (i < textColumns ? 'left' : 'right');
  const nowrap = (i: number) => (i < textColumns ? undefined : { whiteSpace: 'nowrap' as const });
  return (
    <Table size="small" stickyHeader aria-label={label}>
      <TableHead>
        <TableRow>
          {head.map((h, i) => (
            <TableCell key={h} align={align(i)} sx={nowrap(i)}>
              {h}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r, i) => (
          <TableRow key={i}>
            {r.map((c, j) => (
              <TableCell
                key={j}
                align={align(j)}
                sx={{ ...nowrap(j), minWidth: j < textColumns ? 96 : undefined }}
              >
                {c}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Charts({ d }: { d: Dashboard }) {
  const bars = useMemo(() => exposureBars(d), [d]);
  const slices = useMemo(() => shareOfVoice(d), [d]);
  const placements = useMemo(() => placementBars(d), [d]);
  const line = useMemo(() => timeline(d), [d]);
  const top = useMemo(() => topVideoRows(d), [d]);
  const money = (v: number) => formatMoney(v, d.currency);
  return (
    <>
      <Grid size={{ xs: 12, lg: 6 }}>
        <ChartCard
          title="Exposure per brand"
          chart={<ExposureChart bars={bars} />}
          table={
            <SimpleTable
              label="Exposure per brand"
              head={['Brand', 'Exposure', 'Share of voice', 'Detections', 'Videos', 'Media value']}
              rows={d.brands.map((b) => [
                b.brand.localized_name || b.brand.name,
                formatSeconds(b.exposure_seconds),
                formatShare(b.share_of_voice),
                formatCount(b.detections),
                formatCount(b.videos),
                money(b.media_value),
              ])}
            />
          }
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <ChartCard
          title="Share of voice"
          chart={<ShareOfVoiceChart slices={slices} />}
          table={
            <SimpleTable
              label="Share of voice"
              head={['Brand', 'Share of voice']}
              rows={slices.map((s) => [s.label, formatShare(s.value / 100)])}
            />
          }
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <ChartCard
          title="Exposure by placement"
          chart={<PlacementChart bars={placements} currency={d.currency} />}
          table={
            <SimpleTable
              label="Exposure by placement"
              head={['Placement', 'Exposure', 'Rate per second', 'Media value']}
              rows={d.placements.map((p) => [
                p.placement.localized_name,
                formatSeconds(p.exposure_seconds),
                money(p.rate_per_second),
                money(p.media_value),
              ])}
            />
          }
        />
      </Grid>
      <Grid size={{ xs: 12, lg: 6 }}>
        <ChartCard
          title="Exposure over the videos"
          chart={<TimelineChart timeline={line} />}
          table={
            <SimpleTable
              label="Exposure over the videos"
              textColumns={2}
              head={['Video', 'Uploaded', 'All brands', ...line.series.map((s) => s.label)]}
              rows={line.videos.map((v, i) => [
                v.name,
                v.date,
                formatSeconds(v.total),
                ...line.series.map((s) => formatSeconds(s.data[i])),
              ])}
            />
          }
        />
      </Grid>
      <Grid size={12}>
        <ChartCard
          title="Top videos per brand"
          tableOnly
          table={
            <SimpleTable
              label="Top videos per brand"
              textColumns={3}
              head={['Brand', '#', 'Video', 'Exposure', 'Share of video', 'Media value']}
              rows={top.map((r) => [
                r.brand,
                r.rank,
                r.video,
                formatSeconds(r.seconds),
                formatShare(r.shareOfVideo),
                money(r.mediaValue),
              ])}
            />
          }
        />
      </Grid>
    </>
  );
}

function ProcessingCard({ processing }: { processing: Processing | undefined }) {
  return (
    <Paper variant="outlined" component="section" aria-label="Processing" sx={{ p: 2, height: '100%' }}>
      <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
        Processing
      </Typography>
      {!processing ? (
        <Skeleton variant="rounded" height={60} />
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {processing.speed === null
              ? 'Analysis speed: not measured yet.'
              : `Analysis speed: ${processing.speed.toFixed(1)}× real time.`}
          </Typography>
          {processing.active.length === 0 && (
            <Typography variant="body2">No video is being analysed.</Typography>
          )}
          <Stack spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {processing.active.map((a) => (
              <Box component="li" key={a.video.id} aria-label={`Processing ${a.video.name}`}>
                <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
                  <Typography variant="body2" noWrap sx={{ minWidth: 0 }} title={a.video.name}>
                    {a.video.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                    {a.status === 'PROCESSING' ? `${Math.round(a.progress)} %` : 'Queued'} · ETA{' '}
                    {formatEta(a.eta_seconds)}
                  </Typography>
                </Stack>
                <LinearProgress
                  variant={a.status === 'PROCESSING' ? 'determinate' : 'indeterminate'}
                  value={a.progress}
                  aria-label={`Progress of ${a.video.name}`}
                />
              </Box>
            ))}
          </Stack>
          {processing.failed.length > 0 && (
            <>
              <Typography variant="subtitle2" component="h3" sx={{ mt: 2, mb: 0.5 }} color="error">
                Failed
              </Typography>
              <Stack component="ul" spacing={0.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
                {processing.failed.map((f) => (
                  <Typography component="li" variant="body2" key={f.video.id}>
                    <strong>{f.video.name}</strong>: {f.reason}
                  </Typography>
                ))}
              </Stack>
            </>
          )}
        </>
      )}
    </Paper>
  );
}

function ReviewCard({ d }: { d: Dashboard }) {
  const o = d.review.overall;
  return (
    <Paper variant="outlined" component="section" aria-label="Review" sx={{ p: 2, height: '100%' }}>
      <Typography variant="subtitle1" component="h2">
        Review
      </Typography>
      <Typography variant="body2" sx={{ mb: 0.5 }}>
        {formatShare(o.share)} of {formatCount(o.total)} detections reviewed ({formatCount(o.reviewed)}).
      </Typography>
      <LinearProgress
        variant="determinate"
        value={o.share * 100}
        aria-label="Reviewed overall"
        sx={{ mb: 1.5 }}
      />
      <TableContainer sx={{ maxHeight: 320 }}>
        <SimpleTable
          label="Review per video"
          head={['Video', 'Reviewed', 'Detections', 'Share']}
          rows={d.review.videos.map((v) => [
            v.video.name,
            formatCount(v.reviewed),
            formatCount(v.total),
            v.total === 0 ? '—' : formatShare(v.share),
          ])}
        />
      </TableContainer>
    </Paper>
  );
}
