import { Card, CardContent, Stack, Typography } from '@mui/material';

/** One of a list screen's counters (Total, Active, Inactive ...): '-' until it is known. */
export function Counter({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card sx={{ flex: 1, minWidth: 160 }}>
      <CardContent>
        <Typography color="textSecondary" variant="body2">
          {label}
        </Typography>
        <Typography variant="h5" component="p">
          {value ?? '-'}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** How many of a list's holders there are, and how many of them are active and inactive. */
export interface ActiveCounts {
  count: number;
  active: number;
  inactive: number;
}

/** The Total, Active and Inactive counters over a list screen (`noun`: Merchants, Users, Rules ...). */
export function ActiveCounters({ noun, counts }: { noun: string; counts: ActiveCounts | undefined }) {
  return (
    <Stack direction="row" spacing={2} sx={{ mb: 2, flexWrap: 'wrap' }} useFlexGap>
      <Counter label={`Total ${noun}`} value={counts?.count} />
      <Counter label={`Active ${noun}`} value={counts?.active} />
      <Counter label={`Inactive ${noun}`} value={counts?.inactive} />
    </Stack>
  );
}
