import { Card, CardContent, Typography } from '@mui/material';

/** One of a list screen's counters (Total, Active, Inactive ...): '-' until it is known. */
export function Counter({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Card sx={{ flex: 1, minWidth: 160 }}>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <Typography variant="h5" component="p">
          {value ?? '-'}
        </Typography>
      </CardContent>
    </Card>
  );
}
