import { API_KEY_GRACE_HOURS, MSG, type ApiKeyResponse } from '@obol/contract';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Box, Button, IconButton, Paper, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSession } from '../../lib/session.ts';
import { useCopy } from '../../ui/CopyButton.tsx';
import { useNotify } from '../../ui/notifications.tsx';
import { apiKeyOverviewQuery } from './api/apiKeyOverview.ts';
import { revealApiKey } from './api/revealApiKey.ts';
import { rotateApiKey } from './api/rotateApiKey.ts';
import { localDateTime } from '../../lib/format.ts';
import { PasswordDialog } from '../../ui/PasswordDialog.tsx';

const HIDDEN = '••••••••••••••••';

/**
 * A merchant's or brand's own API key: the account reference and the masked public key; 'Reveal keys' asks the
 * password and shows both keys (kept in this card only, gone when it unmounts or on 'Hide keys'). Copying before
 * the reveal says 'Decrypt Keys first.'. 'Rotate keys' issues a new pair after the password and shows it; the
 * previous public key keeps working for the grace period, so an integration can switch without downtime.
 */
export function ApiKeyCard() {
  const session = useSession();
  const { notify } = useNotify();
  const copy = useCopy();
  const overview = useQuery(apiKeyOverviewQuery());
  const [keys, setKeys] = useState<ApiKeyResponse | null>(null);
  const [asking, setAsking] = useState<'reveal' | 'rotate' | null>(null);
  const [rotatedUntil, setRotatedUntil] = useState<string | null>(null);
  if (!session) return null;
  const copyKey = (value: string | undefined) => (value ? copy(value) : notify('error', MSG.decryptKeysFirst));
  const data = overview.data;
  const reference = keys?.account_reference ?? data?.account_reference;

  const row = (label: string, value: string | undefined, shown: string) => (
    <Box>
      <Typography variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography
          variant="body2"
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all', flex: 1, minWidth: 0 }}
          data-testid={label === 'Public key' ? 'public-key' : 'private-key'}
        >
          {shown}
        </Typography>
        <IconButton size="small" aria-label={`Copy the ${label.toLowerCase()}`} onClick={() => copyKey(value)}>
          <ContentCopyIcon fontSize="inherit" />
        </IconButton>
      </Stack>
    </Box>
  );

  return (
    <Paper sx={{ p: 3 }}>
      <Typography component="h2" variant="h6" sx={{ mb: 2 }}>
        API key
      </Typography>
      {overview.isPending ? (
        <Skeleton variant="rounded" height={96} />
      ) : (
        <Stack spacing={1.5}>
          <Box>
            <Typography variant="body2" color="textSecondary">
              Account reference
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {reference ?? 'Account not registered'}
            </Typography>
          </Box>
          {data?.public_key_masked || keys ? (
            <>
              {row('Public key', keys?.public_key, keys?.public_key ?? data?.public_key_masked ?? '')}
              {row('Private key', keys?.private_key, keys?.private_key ?? HIDDEN)}
              {rotatedUntil ? (
                <Alert severity="info" onClose={() => setRotatedUntil(null)}>
                  New keys are in use. The previous public key keeps working until {localDateTime(rotatedUntil)}: switch
                  your integration before then.
                </Alert>
              ) : null}
              <Stack direction="row" spacing={1}>
                {keys ? (
                  <Button variant="outlined" onClick={() => setKeys(null)}>
                    Hide keys
                  </Button>
                ) : (
                  <Button variant="outlined" onClick={() => setAsking('reveal')}>
                    Reveal keys
                  </Button>
                )}
                <Button color="warning" onClick={() => setAsking('rotate')}>
                  Rotate keys
                </Button>
              </Stack>
            </>
          ) : (
            <Typography variant="body2" color="textSecondary">
              {overview.isError ? 'The API key could not be loaded.' : 'No API key has been issued for this account.'}
            </Typography>
          )}
        </Stack>
      )}
      <PasswordDialog
        open={asking !== null}
        title={asking === 'rotate' ? 'Rotate API keys' : 'Reveal API keys'}
        text={
          asking === 'rotate'
            ? `Enter your password to issue a new key pair. The current key keeps working for ${API_KEY_GRACE_HOURS} hours, then stops.`
            : 'Enter your password to see your public and private key. Every reveal is recorded in the activity log.'
        }
        confirmLabel={asking === 'rotate' ? 'Rotate' : 'Reveal'}
        requiredMessage={MSG.requiredShort}
        onCancel={() => setAsking(null)}
        onConfirm={async (password) => {
          if (asking === 'rotate') {
            const r = await rotateApiKey({ current_password: password });
            setKeys({
              user_verified: 1,
              public_key: r.public_key,
              private_key: r.private_key,
              account_reference: reference ?? null,
              message: r.message,
            });
            setRotatedUntil(r.previous_valid_until);
            notify('success', 'New API keys issued.');
            await overview.refetch();
          } else {
            setKeys(await revealApiKey({ current_password: password, email: session.user.email }));
          }
          setAsking(null);
        }}
      />
    </Paper>
  );
}
