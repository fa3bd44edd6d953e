import { FEE_MSG, MAX_FEE_BPS, type FeeRow } from '@obol/contract';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  List,
  ListItem,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { useNotify } from '../../ui/notifications.tsx';
import { ReadDialog } from '../../ui/ReadDialog.tsx';
import { feeHistoryQuery, updateFee } from './api/fees.ts';

/** The fee as typed, in basis points, or null when it is not a percentage above 0 up to 100 with two decimals. */
export function typedBps(text: string): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bps > 0 && bps <= MAX_FEE_BPS ? bps : null;
}

/** Edit a fee: the new percentage and the reason; Save only for a valid change. */
export function EditFeeDialog({ row, onClose }: { row: FeeRow; onClose: () => void }) {
  const [fee, setFee] = useState(String(row.fee));
  const [reason, setReason] = useState('');
  const { notify } = useNotify();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: () => updateFee({ id: row.id, fee: fee.trim(), reason: reason.trim() }),
    onSuccess: async (r) => {
      notify('success', r.message[0] ?? FEE_MSG.updated);
      await qc.invalidateQueries({ queryKey: ['fee-list'] });
      await qc.invalidateQueries({ queryKey: ['fee-history', row.id] });
      onClose();
    },
  });
  const bps = typedBps(fee);
  const feeError = fee.trim() && bps === null ? FEE_MSG.range : undefined;
  const reasonError = reason && reason.trim().length < 3 ? FEE_MSG.reasonLength : undefined;
  const changed = bps !== null && bps !== Math.round(row.fee * 100);
  const valid = changed && reason.trim().length >= 3 && reason.trim().length <= 255;
  const serverField = (f: string) => (save.error instanceof ApiError ? save.error.fieldError(f) : undefined);

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="edit-fee-title">
      <DialogTitle id="edit-fee-title">Edit fee of {row.name}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="textSecondary">
            Payouts created after the change use the new fee; payouts already made keep theirs.
          </Typography>
          <TextField
            label="Fee"
            value={fee}
            onChange={(e) => setFee(e.target.value)}
            error={!!(feeError ?? serverField('fee'))}
            helperText={feeError ?? serverField('fee') ?? 'Above 0 up to 100, two decimals at most'}
            slotProps={{
              htmlInput: { inputMode: 'decimal' },
              input: { endAdornment: <InputAdornment position="end">%</InputAdornment> },
            }}
          />
          <TextField
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            multiline
            minRows={2}
            error={!!(reasonError ?? serverField('reason'))}
            helperText={reasonError ?? serverField('reason') ?? 'Kept in the fee history and the activity log'}
            slotProps={{ htmlInput: { maxLength: 255 } }}
          />
          {save.isError && !serverField('fee') && !serverField('reason') ? (
            <Alert severity="error">{errorMessage(save.error)}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={!valid || save.isPending} onClick={() => save.mutate()}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The changes of a holder's fee, newest first. */
export function FeeHistoryDialog({ row, onClose }: { row: FeeRow; onClose: () => void }) {
  const q = useQuery(feeHistoryQuery(row.id));
  return (
    <ReadDialog title={<>Fee history of {row.name}</>} onClose={onClose}>
      {q.isError ? (
        <Alert severity="error">{errorMessage(q.error)}</Alert>
      ) : !q.data ? (
        <CircularProgress size={24} aria-label="Loading the fee history" />
      ) : q.data.data.length === 0 ? (
        <Typography color="textSecondary">
          The fee has not been changed since the {row.role.toLowerCase()} was created.
        </Typography>
      ) : (
        <List dense>
          {q.data.data.map((c) => (
            <ListItem key={c.id} divider disableGutters>
              <ListItemText
                primary={`${c.old_fee}% → ${c.new_fee}%: ${c.reason}`}
                secondary={`${c.changed_by}, ${localDateTime(c.changed_at)}`}
              />
            </ListItem>
          ))}
        </List>
      )}
    </ReadDialog>
  );
}
