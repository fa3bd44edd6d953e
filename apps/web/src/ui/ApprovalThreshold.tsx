import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { approvalOps, type InputOf } from '@obol/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, call, errorMessage } from '../lib/api.ts';
import { euro } from '../lib/format.ts';
import { useNotify } from './notifications.tsx';

const policyKey = (holderType: string, holderId: number) => ['approval-policy', holderType, holderId];

/**
 * The Admin's four-eyes threshold of a merchant or a 2D company, saved on its own (it is not part of the holder's
 * details): at or above it, a payout, batch or transfer waits for a second person; 0 turns it off. Shared by the
 * merchant's edit dialog and the companies' list (issue 50).
 */
export function ApprovalThreshold({ holderType, holderId }: { holderType: 'merchant' | 'company'; holderId: number }) {
  const client = useQueryClient();
  const q = useQuery({
    queryKey: policyKey(holderType, holderId),
    queryFn: () => call(approvalOps.approvalPolicy, { holder_type: holderType, holder_id: holderId }),
  });
  const save = useMutation({
    mutationFn: (input: InputOf<typeof approvalOps.setApprovalPolicy>) => call(approvalOps.setApprovalPolicy, input),
    onSuccess: () => client.invalidateQueries({ queryKey: policyKey(holderType, holderId) }),
  });
  const { notify } = useNotify();
  const [typed, setTyped] = useState<string | null>(null);
  const [error, setError] = useState('');
  const saved = q.data?.policy.threshold;
  const value = typed ?? (saved === undefined ? '' : String(saved));
  const cents = /^\d+$/.test(value.trim()) ? Number(value.trim()) : null;

  const submit = async () => {
    try {
      const r = await save.mutateAsync({ holder_type: holderType, holder_id: holderId, threshold: value.trim() });
      notify('success', r.message[0]);
      setTyped(null);
      setError('');
    } catch (err) {
      setError(err instanceof ApiError ? (err.fieldError('threshold') ?? err.display) : errorMessage(err));
    }
  };

  return (
    <Box component="section" aria-label="Four eyes" sx={{ mt: 3, pt: 2, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        Four eyes
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 1.5 }}>
        {holderType === 'company'
          ? 'A 2D transfer at or above this amount waits, reserved, for a second 2D admin.'
          : 'A manual payout, a batch total or a transfer at or above this amount waits, reserved, for a second person.'}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          label="Approval threshold (cents)"
          size="small"
          value={value}
          disabled={q.isLoading}
          onChange={(e) => {
            setTyped(e.target.value);
            setError('');
          }}
          error={!!error}
          helperText={error || (cents ? `${euro(cents)} and above` : 'Off: 0')}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          sx={{ flex: 1 }}
        />
        <Button
          onClick={submit}
          variant="outlined"
          disabled={save.isPending || typed === null || value.trim() === String(saved)}
          sx={{ mt: 0.25 }}
        >
          Save threshold
        </Button>
      </Stack>
    </Box>
  );
}
