import type { PasskeyRow } from '@obol/contract';
import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api.ts';
import { localDateTime } from '../../lib/format.ts';
import { passkeysQuery } from './api/passkeys.ts';
import { AddPasskeyDialog, RemovePasskeyDialog, RenamePasskeyDialog } from './PasskeyDialogs.tsx';

type Dialogs = { kind: 'add' } | { kind: 'rename'; key: PasskeyRow } | { kind: 'remove'; key: PasskeyRow } | null;

/**
 * The profile's passkeys: each with its name, when it was added and last used; add one (the password, then the
 * browser's prompt), rename one, remove one (confirmed with the password).
 */
export function PasskeysCard() {
  const list = useQuery(passkeysQuery());
  const [open, setOpen] = useState<Dialogs>(null);
  const keys = list.data?.data ?? [];
  return (
    <Paper sx={{ p: 3 }}>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        Passkeys
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        A passkey on this device or a security key signs you in after your password, instead of a code.
      </Typography>
      {list.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(list.error)}
        </Alert>
      ) : null}
      {list.isSuccess && !keys.length ? (
        <Typography variant="body2" sx={{ mb: 2 }}>
          No passkeys yet.
        </Typography>
      ) : null}
      <Stack component="ul" aria-label="Your passkeys" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}>
        {keys.map((k) => (
          <Box
            component="li"
            key={k.id}
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              gap: 1,
              alignItems: 'center',
              justifyContent: 'space-between',
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              p: 1.5,
            }}
          >
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{k.name}</Typography>
              <Typography variant="body2" color="textSecondary">
                Added {localDateTime(k.created_at)} · Last used{' '}
                {k.last_used_at ? localDateTime(k.last_used_at) : 'never'}
              </Typography>
            </Box>
            <Stack direction="row" spacing={1}>
              <Button size="small" onClick={() => setOpen({ kind: 'rename', key: k })} aria-label={`Rename ${k.name}`}>
                Rename
              </Button>
              <Button
                size="small"
                color="error"
                onClick={() => setOpen({ kind: 'remove', key: k })}
                aria-label={`Remove ${k.name}`}
              >
                Remove
              </Button>
            </Stack>
          </Box>
        ))}
      </Stack>
      <Button variant="outlined" onClick={() => setOpen({ kind: 'add' })}>
        Add a passkey
      </Button>
      <AddPasskeyDialog open={open?.kind === 'add'} onClose={() => setOpen(null)} />
      {open?.kind === 'rename' ? <RenamePasskeyDialog passkey={open.key} onClose={() => setOpen(null)} /> : null}
      {open?.kind === 'remove' ? <RemovePasskeyDialog passkey={open.key} onClose={() => setOpen(null)} /> : null}
    </Paper>
  );
}
