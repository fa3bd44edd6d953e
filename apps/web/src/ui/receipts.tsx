import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { euro } from '../lib/format.ts';
import { CopyButton } from './CopyButton.tsx';
import { StatusChip } from './StatusChip.tsx';

/** What a money action did, as the person who made it needs to find it again. */
export interface Receipt {
  /** what was done: 'Transfer submitted', 'Payout created', 'Refund requested' */
  title: string;
  /** cents moved */
  amount: number;
  /** cents of fee on top, when there is one */
  fee?: number;
  /** the account or holder the money left */
  from: string;
  /** who receives it */
  to: string;
  /** the id to quote: transfer id, batch id, pay-in id */
  reference: string;
  /** its status as its list shows it */
  status: string;
  /** where it is listed */
  link: { to: string; label: string };
}

interface Receipts {
  showReceipt(r: Receipt): void;
}
const Ctx = createContext<Receipts>({ showReceipt: () => undefined });
/** Shows a receipt above the page; it stays (across pages too) until dismissed. */
export const useReceipt = () => useContext(Ctx);

/** at most this many receipts at once, newest first: older ones are in their lists */
const KEEP = 3;
interface Kept extends Receipt {
  key: number;
}
const ListCtx = createContext<{ receipts: Kept[]; dismiss(key: number): void }>({
  receipts: [],
  dismiss: () => undefined,
});

export function ReceiptsProvider({ children }: { children: ReactNode }) {
  const [receipts, setReceipts] = useState<Kept[]>([]);
  const showReceipt = useCallback(
    (r: Receipt) => setReceipts((all) => [{ ...r, key: Date.now() + Math.random() }, ...all].slice(0, KEEP)),
    [],
  );
  const dismiss = useCallback((key: number) => setReceipts((all) => all.filter((r) => r.key !== key)), []);
  const value = useMemo(() => ({ showReceipt }), [showReceipt]);
  const list = useMemo(() => ({ receipts, dismiss }), [receipts, dismiss]);
  return (
    <Ctx.Provider value={value}>
      <ListCtx.Provider value={list}>{children}</ListCtx.Provider>
    </Ctx.Provider>
  );
}

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
  return (
    <Paper
      component="section"
      aria-label={`Receipt: ${r.title}`}
      variant="outlined"
      data-receipt
      sx={{ p: 2, mb: 2, borderColor: 'success.main', borderLeftWidth: 4 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <CheckCircleOutlineIcon color="success" fontSize="small" aria-hidden />
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
            <Typography component="dt" variant="caption" color="text.secondary">
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
