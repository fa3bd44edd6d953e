import type { ActivityRow } from '@obol/contract';
import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { localDateTime } from '../../lib/format.ts';
import { fieldChanges, show } from './diff.ts';
import { StatusChip } from '../../ui/StatusChip.tsx';
import { Facts } from '../../ui/Facts.tsx';
import { ReadDialog } from '../../ui/ReadDialog.tsx';

const OUTCOME: Record<ActivityRow['outcome'], string> = { success: 'Success', failure: 'Failed', denied: 'Refused' };

export function OutcomeChip({ outcome }: { outcome: ActivityRow['outcome'] }) {
  return <StatusChip status={OUTCOME[outcome]} />;
}

/** One record of the activity log: who, what, when, from where, and its before/after as a list of changed fields. */
export function ActivityDetailsDialog({ record, onClose }: { record: ActivityRow | null; onClose: () => void }) {
  // the record stays on screen while the dialog closes
  const [last, setLast] = useState(record);
  if (record && record !== last) setLast(record);
  const r = record ?? last;
  const facts: [string, ReactNode][] = r
    ? [
        ['Action', r.activity],
        ['Outcome', <OutcomeChip key="outcome" outcome={r.outcome} />],
        ['User', show(r.user_name)],
        ['Email', show(r.user_email)],
        ['Date and time', localDateTime(r.created_at)],
        ['Target', r.target ? `${r.target.type}${r.target.id ? ` ${r.target.id}` : ''}` : '-'],
        ['Detail', show(r.detail)],
        ['IP address', show(r.ip)],
        ['HTTP status', String(r.status_code)],
        ['Request ID', show(r.request_id)],
        ['Record', `#${r.seq}`],
        ['Hash', <code key="hash">{r.hash}</code>],
      ]
    : [];
  const changes = r ? fieldChanges(r.before, r.after) : [];
  return (
    <ReadDialog open={!!record} title="Activity Details" onClose={onClose} maxWidth="md" dividers>
      <Facts facts={facts} />
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, mt: 3, mb: 1 }}>
        Changes
      </Typography>
      {changes.length ? (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Changes">
            <TableHead>
              <TableRow>
                <TableCell>Field</TableCell>
                <TableCell>Before</TableCell>
                <TableCell>After</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {changes.map((c) => (
                <TableRow
                  key={c.field}
                  data-changed={c.changed || undefined}
                  sx={c.changed ? { bgcolor: 'action.hover', '& td': { fontWeight: 600 } } : undefined}
                >
                  <TableCell>{c.field}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{c.before}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{c.after}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      ) : (
        <Typography color="textSecondary">No changes recorded</Typography>
      )}
    </ReadDialog>
  );
}
