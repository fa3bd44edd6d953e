import { reportOps, type FeeChartResponse } from '@obol/contract';
import { Box, Skeleton, Stack, Typography, useTheme } from '@mui/material';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { euro } from '../../lib/format.ts';

export const feeChartQuery = (months = 12) =>
  queryOptions({ queryKey: ['fee-chart', months], queryFn: () => call(reportOps.feeChart, { months }) });

const monthLabel = (m: string) =>
  new Date(`${m}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', timeZone: 'UTC' });

const HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * Fees by merchant per month: stacked bars (one colour per merchant, or per merchant and brand for a merchant's
 * team), the month's total above each bar, a legend, and the same figures as a table for screen readers.
 */
export function FeeChartView({ data }: { data: FeeChartResponse }) {
  const theme = useTheme();
  const colors = [
    theme.palette.primary.main,
    theme.palette.success.main,
    theme.palette.warning.main,
    theme.palette.info.main,
    theme.palette.error.main,
    theme.palette.secondary.main,
  ];
  const totals = data.months.map((_, i) => data.series.reduce((n, s) => n + s.fees[i], 0));
  const max = Math.max(1, ...totals);
  const W = 560;
  const H = 180;
  const top = 18;
  const bottom = 22;
  const step = W / data.months.length;
  const bar = Math.min(28, step * 0.6);
  const scale = (H - top - bottom) / max;
  return (
    <Box component="figure" sx={{ m: 0 }}>
      <Typography component="figcaption" variant="subtitle2" sx={{ mb: 1 }}>
        Fees by merchant per month
      </Typography>
      <Box
        component="svg"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Fees per month, ${data.months[0]} to ${data.months.at(-1)}: ${euro(totals.reduce((a, b) => a + b, 0))} in all`}
        sx={{ width: '100%', height: 'auto', display: 'block' }}
      >
        <line x1={0} x2={W} y1={H - bottom} y2={H - bottom} stroke={theme.palette.divider} />
        {data.months.map((m, i) => {
          let y = H - bottom;
          const x = i * step + (step - bar) / 2;
          return (
            <g key={m}>
              {data.series.map((s, k) => {
                const h = s.fees[i] * scale;
                y -= h;
                return h > 0 ? (
                  <rect key={s.name} x={x} y={y} width={bar} height={h} fill={colors[k % colors.length]} rx={2} />
                ) : null;
              })}
              {totals[i] > 0 ? (
                <text x={x + bar / 2} y={y - 4} textAnchor="middle" fontSize={9} fill={theme.palette.text.secondary}>
                  €{Math.round(totals[i] / 100)}
                </text>
              ) : null}
              <text x={x + bar / 2} y={H - 6} textAnchor="middle" fontSize={10} fill={theme.palette.text.secondary}>
                {monthLabel(m)}
              </text>
            </g>
          );
        })}
      </Box>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', mt: 1 }} aria-hidden>
        {data.series.map((s, k) => (
          <Stack key={s.name} direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
            <Box sx={{ width: 10, height: 10, borderRadius: 0.5, bgcolor: colors[k % colors.length] }} />
            <Typography variant="caption">{s.name}</Typography>
          </Stack>
        ))}
      </Stack>
      <Box component="table" sx={HIDDEN}>
        <caption>Fees by merchant per month (EUR)</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            {data.series.map((s) => (
              <th key={s.name} scope="col">
                {s.name}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {data.months.map((m, i) => (
            <tr key={m}>
              <th scope="row">{m}</th>
              {data.series.map((s) => (
                <td key={s.name}>{euro(s.fees[i])}</td>
              ))}
              <td>{euro(totals[i])}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}

/** The chart with its loading and empty states. */
export function FeeChart({ enabled }: { enabled: boolean }) {
  const q = useQuery({ ...feeChartQuery(), enabled });
  if (q.isLoading) return <Skeleton variant="rounded" height={200} />;
  if (!q.data) return null;
  if (!q.data.series.length)
    return (
      <Typography variant="body2" color="textSecondary">
        No fees in the last 12 months.
      </Typography>
    );
  return <FeeChartView data={q.data} />;
}
