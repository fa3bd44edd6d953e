import { VOLUME_GROUP_LABELS, VOLUME_GROUPS, type VolumeDay, type VolumeGroup } from '@obol/contract';
import { Box, useTheme } from '@mui/material';
import { euro } from '../../lib/format.ts';

export type VolumeMetric = 'amount' | 'count';

/** 'Nov 3' of a YYYY-MM-DD day (the day as written, whatever the browser's zone). */
export function dayLabel(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The smallest 1, 2, 2.5 or 5 times a power of ten at or above v (1 for 0). */
export function niceCeil(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 2.5, 5, 10].find((k) => k * p >= v) ?? 10) * p;
}

/** A short axis label: 1200 -> '1.2k', cents -> euros ('€1.2k'). */
export function shortValue(v: number, metric: VolumeMetric): string {
  const n = metric === 'amount' ? v / 100 : v;
  const s =
    n >= 1e6 ? `${+(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${+(n / 1e3).toFixed(1)}k` : `${+n.toFixed(n < 10 ? 2 : 0)}`;
  return metric === 'amount' ? `€${s}` : s;
}

const dayTotal = (d: VolumeDay, metric: VolumeMetric) => VOLUME_GROUPS.reduce((s, g) => s + d[g][metric], 0);

/** What a bar says on hover: the day, its total and each group. */
export function barTitle(d: VolumeDay): string {
  const count = dayTotal(d, 'count');
  const parts = VOLUME_GROUPS.map((g) => `${VOLUME_GROUP_LABELS[g]} ${d[g].count} (${euro(d[g].amount)})`);
  return `${dayLabel(d.day)}: ${count} payout${count === 1 ? '' : 's'}, ${euro(dayTotal(d, 'amount'))}. ${parts.join(', ')}`;
}

/** The colour of a status group in the current theme. */
export function useGroupColours(): Record<VolumeGroup, string> {
  const { palette } = useTheme();
  return { completed: palette.success.main, pending: palette.warning.main, failed: palette.error.main };
}

interface Props {
  days: VolumeDay[];
  metric: VolumeMetric;
  width: number;
  /** a phone: a slim strip without axes */
  compact: boolean;
  /** the summary a screen reader reads for the picture */
  label: string;
}

/** Stacked bars of the days (completed at the bottom, then pending, then failed), hand-drawn in SVG. */
export function VolumeBars({ days, metric, width, compact, label }: Props) {
  const theme = useTheme();
  const colours = useGroupColours();
  const height = compact ? 56 : 148;
  const m = compact ? { l: 0, r: 0, t: 4, b: 4 } : { l: 52, r: 8, t: 10, b: 22 };
  const plotW = Math.max(1, width - m.l - m.r);
  const plotH = height - m.t - m.b;
  const max = niceCeil(Math.max(0, ...days.map((d) => dayTotal(d, metric))));
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, Math.min(28, slot * 0.72));
  const y = (v: number) => m.t + plotH - (plotH * v) / max;
  // counts are whole: no tick half-way between two
  const ticks = compact ? [] : metric === 'count' && max % 2 ? [0, max] : [0, max / 2, max];
  const every = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(plotW / 64))));
  const text = { fontSize: 11, fill: theme.palette.text.secondary, fontFamily: theme.typography.fontFamily };

  return (
    <Box
      component="svg"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      sx={{ display: 'block', '& g.day:hover rect.hit': { fill: theme.palette.action.hover } }}
    >
      {ticks.map((t) => (
        <g key={t}>
          <line x1={m.l} x2={width - m.r} y1={y(t)} y2={y(t)} stroke={theme.palette.divider} />
          <text x={m.l - 6} y={y(t) + 4} textAnchor="end" {...text}>
            {shortValue(t, metric)}
          </text>
        </g>
      ))}
      {days.map((d, i) => {
        const x = m.l + i * slot;
        let base = 0;
        return (
          <g key={d.day} className="day" data-day={d.day}>
            <title>{barTitle(d)}</title>
            <rect className="hit" x={x} y={m.t} width={slot} height={plotH} fill="transparent" />
            {VOLUME_GROUPS.map((g) => {
              const v = d[g][metric];
              if (!v) return null;
              const top = y(base + v);
              const h = y(base) - top;
              base += v;
              return (
                <rect
                  key={g}
                  data-group={g}
                  x={x + (slot - barW) / 2}
                  y={top}
                  width={barW}
                  height={Math.max(h, 1)}
                  fill={colours[g]}
                />
              );
            })}
            {!compact &&
            (i % every === 0 || i === days.length - 1) &&
            (i === days.length - 1 || days.length - 1 - i >= every) ? (
              <text x={x + slot / 2} y={height - 6} textAnchor="middle" {...text}>
                {dayLabel(d.day)}
              </text>
            ) : null}
          </g>
        );
      })}
      {compact ? null : <line x1={m.l} x2={width - m.r} y1={y(0)} y2={y(0)} stroke={theme.palette.text.secondary} />}
    </Box>
  );
}
