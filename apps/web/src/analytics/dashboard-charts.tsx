// The dashboard's charts: the only module that imports @mui/x-charts, loaded lazily by the page so
// that the chart library stays out of the initial JavaScript.
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { PieChart } from '@mui/x-charts/PieChart';
import {
  formatMoney,
  formatSeconds,
  type BrandBar,
  type PlacementBar,
  type Slice,
  type Timeline,
} from './dashboard-data';

const secondsFormatter = (v: number | null) => (v === null ? '' : formatSeconds(v));
/** Axis labels longer than this are cut with an ellipsis (the tooltip and the table show them whole). */
const short = (label: string, max = 14) => (label.length > max ? `${label.slice(0, max - 1)}…` : label);
/** Horizontal bars: a row per item, so long lists stay readable on a narrow screen. */
const barsHeight = (n: number) => Math.max(170, 64 + n * 34);

export function ExposureChart({ bars }: { bars: BrandBar[] }) {
  return (
    <BarChart
      height={barsHeight(bars.length)}
      layout="horizontal"
      dataset={bars.map((b) => ({ label: b.label, seconds: b.seconds }))}
      yAxis={[
        {
          scaleType: 'band',
          dataKey: 'label',
          width: 96,
          valueFormatter: (v: string, ctx) => (ctx.location === 'tick' ? short(v) : v),
          colorMap: { type: 'ordinal', values: bars.map((b) => b.label), colors: bars.map((b) => b.color) },
        },
      ]}
      xAxis={[{ label: 'Exposure (s)', tickLabelMinGap: 24 }]}
      series={[{ dataKey: 'seconds', label: 'Exposure', valueFormatter: secondsFormatter }]}
      hideLegend
      margin={{ right: 16 }}
    />
  );
}

export function ShareOfVoiceChart({ slices }: { slices: Slice[] }) {
  return (
    <PieChart
      height={240}
      series={[
        {
          data: slices.map((s) => ({ id: s.id, value: s.value, label: s.label, color: s.color })),
          innerRadius: 50,
          outerRadius: 100,
          paddingAngle: 1,
          cornerRadius: 2,
          valueFormatter: (v) => `${v.value.toFixed(1)}\u00a0%`,
        },
      ]}
      slotProps={{ legend: { direction: 'vertical', position: { vertical: 'middle', horizontal: 'end' } } }}
    />
  );
}

export function PlacementChart({ bars, currency }: { bars: PlacementBar[]; currency: string }) {
  return (
    <BarChart
      height={barsHeight(bars.length)}
      layout="horizontal"
      dataset={bars.map((b) => ({ label: b.label, seconds: b.seconds, value: b.mediaValue }))}
      yAxis={[
        {
          scaleType: 'band',
          dataKey: 'label',
          width: 96,
          valueFormatter: (v: string, ctx) => (ctx.location === 'tick' ? short(v) : v),
          colorMap: { type: 'ordinal', values: bars.map((b) => b.label), colors: bars.map((b) => b.color) },
        },
      ]}
      xAxis={[{ label: 'Exposure (s)', tickLabelMinGap: 24 }]}
      series={[
        {
          dataKey: 'seconds',
          label: 'Exposure',
          valueFormatter: (v, { dataIndex }) =>
            v === null ? '' : `${formatSeconds(v)} · ${formatMoney(bars[dataIndex].mediaValue, currency)}`,
        },
      ]}
      hideLegend
      margin={{ right: 16 }}
    />
  );
}

export function TimelineChart({ timeline }: { timeline: Timeline }) {
  return (
    <LineChart
      height={300}
      xAxis={[
        {
          scaleType: 'point',
          data: timeline.videos.map((v, i) => i),
          valueFormatter: (i: number, ctx) => {
            const v = timeline.videos[i];
            if (!v) return '';
            return ctx.location === 'tick' ? short(v.name, 12) : `${v.name} (${v.date})`;
          },
          tickLabelMinGap: 12,
          label: 'Videos, by upload date',
        },
      ]}
      yAxis={[{ label: 'Exposure (s)', width: 56 }]}
      series={timeline.series.map((s) => ({
        id: s.id,
        label: s.label,
        color: s.color,
        data: s.data,
        curve: 'linear' as const,
        showMark: timeline.videos.length <= 40,
        valueFormatter: secondsFormatter,
      }))}
      slotProps={{ legend: { direction: 'horizontal', position: { vertical: 'top', horizontal: 'center' } } }}
      // Room for the last video's name under the axis end.
      margin={{ right: 36, left: 8 }}
    />
  );
}
