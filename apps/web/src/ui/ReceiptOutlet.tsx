import CheckCircleOutlinedIcon from '@mui/icons-material/CheckCircleOutlined';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useContext, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { euro } from '../lib/format.ts';
import { CopyButton } from './CopyButton.tsx';
import { ListCtx, type Receipt } from './receipts.tsx';
import { StatusChip } from './StatusChip.tsx';

/** The kept receipts, where the shell puts them: above the page, under the header. */
export function ReceiptOutlet() {
  const { receipts, dismiss } = useContext(ListCtx);
  return (
    <Box aria-live="polite" sx={{ display: receipts.length ? 'block' : 'contents' }}>
      {receipts.map((r) => (
        <ReceiptCard key={r.key} receipt={r} onDismiss={() => dismiss(r.key)} />
      ))}
    </Box>
  );
}

/** One receipt: what moved, from where, to whom, its reference and status, and a link to it in its list. */
export function ReceiptCard({ receipt: r, onDismiss }: { receipt: Receipt; onDismiss: () => void }) {
  const rows: [string, ReactNode][] = [
    ['Amount', r.fee ? `${euro(r.amount)} + ${euro(r.fee)} fee` : euro(r.amount)],
    ['From', r.from],
    ['To', r.to],
    [
      'Reference',
      <Stack component="span" direction="row" sx={{ alignItems: 'center', minWidth: 0 }} key="ref">
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {r.reference}
        </Box>
        <CopyButton text={r.reference} label={`Copy reference ${r.reference}`} />
      </Stack>,
    ],
    ['Status', <StatusChip key="status" status={r.status} />],
  ];
  // reserved and waiting for a second person (issue 50): amber, not done yet
  const waiting = /approval/i.test(r.status);
  return (
    <Paper
      component="section"
      aria-label={`Receipt: ${r.title}`}
      variant="outlined"
      data-receipt
      sx={{ p: 2, mb: 2, borderColor: waiting ? 'warning.main' : 'success.main', borderLeftWidth: 4 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        {waiting ? (
          <HourglassEmptyIcon color="warning" fontSize="small" aria-hidden />
        ) : (
          <CheckCircleOutlinedIcon color="success" fontSize="small" aria-hidden />
        )}
        <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
          {r.title}
        </Typography>
      </Stack>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: 'max-content minmax(0, 1fr)', md: 'repeat(5, minmax(0, auto))' },
          gridAutoFlow: { xs: 'row', md: 'column' },
          gridTemplateRows: { md: 'auto auto' },
          columnGap: 3,
          rowGap: 0.5,
          alignItems: 'center',
        }}
      >
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="caption" color="textSecondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1.5, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        <Button size="small" component={RouterLink} to={r.link.to}>
          {r.link.label}
        </Button>
        <Button size="small" color="inherit" onClick={onDismiss}>
          Dismiss
        </Button>
      </Stack>
    </Paper>
  );
}
