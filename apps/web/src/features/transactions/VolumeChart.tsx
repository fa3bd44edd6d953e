import {
  AUTO_REFRESH_MS,
  VOLUME_GROUP_LABELS,
  VOLUME_GROUPS,
  type PayoutVolume,
  type VolumeFigure,
} from '@obol/contract';
import {
  Box,
  Paper,
  Skeleton,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState } from 'react';
import { euro } from '../../lib/format.ts';
import { payoutVolumeQuery, type PayoutVolumeInput } from './api/payoutVolume.ts';
import { dayLabel, useGroupColours, VolumeBars, type VolumeMetric } from './VolumeBars.tsx';
import { useFallbackPoll } from '../../lib/live.tsx';
import { visuallyHidden } from '../../ui/visuallyHidden.ts';

const sum = (figures: VolumeFigure[]) =>
  figures.reduce((s, f) => ({ count: s.count + f.count, amount: s.amount + f.amount }), { count: 0, amount: 0 });
const payouts = (n: number) => `${n} payout${n === 1 ? '' : 's'}`;

/** What the chart shows, in words: the range, the total and each status group. */
export function volumeSummary(v: PayoutVolume): string {
  const all = sum(VOLUME_GROUPS.map((g) => v.totals[g]));
  const groups = VOLUME_GROUPS.map(
    (g) => `${VOLUME_GROUP_LABELS[g]} ${v.totals[g].count} (${euro(v.totals[g].amount)})`,
  );
  return `Payout volume per day from ${dayLabel(v.start_date)} to ${dayLabel(v.end_date)}: ${payouts(all.count)}, ${euro(all.amount)}. ${groups.join(', ')}.`;
}

/** The width of an element, followed as it changes (a guess before the first layout). */
function useWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => el.clientWidth && setWidth(el.clientWidth);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * The payout volume above the payout list: per day the count or the amount of payouts by status, over the same
 * filters as the list (the server applies the caller's scope). On a phone it is a slim strip with the totals.
 */
export function VolumeChart({ filters }: { filters: PayoutVolumeInput }) {
  // the spec's refresh, only while the live stream is down
  const poll = useFallbackPoll(AUTO_REFRESH_MS);
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'));
  const colours = useGroupColours();
  const [metric, setMetric] = useState<VolumeMetric>('amount');
  const [ref, width] = useWidth<HTMLDivElement>(600);
  const q = useQuery({
    ...payoutVolumeQuery(filters),
    placeholderData: keepPreviousData,
    refetchInterval: poll,
  });
  const v = q.data;
  const all = v ? sum(VOLUME_GROUPS.map((g) => v.totals[g])) : null;

  return (
    <Paper component="section" aria-labelledby="volume-title" sx={{ p: { xs: 1.5, sm: 2 }, mb: 2 }}>
      <Stack
        direction="row"
        spacing={2}
        useFlexGap
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 1 }}
      >
        <Box>
          <Typography id="volume-title" component="h2" variant="subtitle1" sx={{ fontWeight: 600, lineHeight: 1.3 }}>
            Payout volume
          </Typography>
          <Typography variant="body2" color="textSecondary">
            {v && all
              ? `${dayLabel(v.start_date)} – ${dayLabel(v.end_date)} · ${payouts(all.count)} · ${euro(all.amount)}`
              : q.isError
                ? 'The chart could not be loaded.'
                : 'Loading…'}
          </Typography>
        </Box>
        {compact ? null : (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={metric}
            onChange={(_, m: VolumeMetric | null) => m && setMetric(m)}
            aria-label="Show"
            sx={{ '& .MuiToggleButton-root': { textTransform: 'none', py: 0.25, px: 1.25 } }}
          >
            <ToggleButton value="amount">Amount</ToggleButton>
            <ToggleButton value="count">Count</ToggleButton>
          </ToggleButtonGroup>
        )}
      </Stack>
      <Box ref={ref} sx={{ width: '100%', minWidth: 0 }}>
        {v ? (
          <VolumeBars
            days={v.days}
            metric={compact ? 'amount' : metric}
            width={width}
            compact={compact}
            label={volumeSummary(v)}
          />
        ) : (
          <Skeleton variant="rectangular" height={compact ? 56 : 148} />
        )}
      </Box>
      <Stack
        component="ul"
        direction="row"
        useFlexGap
        sx={{ flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, listStyle: 'none', p: 0, m: 0, mt: 1 }}
      >
        {VOLUME_GROUPS.map((g) => (
          <Stack component="li" key={g} direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
            <Box aria-hidden sx={{ width: 10, height: 10, borderRadius: 0.5, bgcolor: colours[g] }} />
            <Typography variant="caption" color="textSecondary">
              {VOLUME_GROUP_LABELS[g]}
              {v ? ` ${v.totals[g].count}` : ''}
            </Typography>
          </Stack>
        ))}
      </Stack>
      {v ? <VolumeTable volume={v} /> : null}
    </Paper>
  );
}

/**
 * The figures of the chart as a table, for screen readers (hidden in a box: a table grows to its content whatever
 * its width).
 */
function VolumeTable({ volume }: { volume: PayoutVolume }) {
  return (
    <Box sx={visuallyHidden}>
      <table data-testid="volume-figures">
        <caption>Payout volume by day and status</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {VOLUME_GROUPS.map((g) => (
              <th scope="col" key={g}>
                {VOLUME_GROUP_LABELS[g]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {volume.days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              {VOLUME_GROUPS.map((g) => (
                <td key={g}>
                  {payouts(d[g].count)}, {euro(d[g].amount)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  );
}
