import { demoShopOps } from '@obol/contract';
import CheckCircleOutlinedIcon from '@mui/icons-material/CheckCircleOutlined';
import ErrorOutlinedIcon from '@mui/icons-material/ErrorOutlined';
import HelpOutlinedIcon from '@mui/icons-material/HelpOutlined';
import { Box, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { call } from '../../lib/api.ts';
import { euro, localDateTime } from '../../lib/format.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { readEvents, SECRET_STORE, shopAddress, shopInbox, type Check } from './shopEvents.ts';

/** How often the shop's page asks its receiver what arrived (a public page: no live stream of Obol's). */
const POLL_MS = 3000;

const CHECKS: Record<Check, { text: string; tone: 'success' | 'error' | 'disabled'; Icon: typeof HelpOutlinedIcon }> = {
  verified: { text: 'Signature verified', tone: 'success', Icon: CheckCircleOutlinedIcon },
  mismatch: { text: 'Signature does not match this secret', tone: 'error', Icon: ErrorOutlinedIcon },
  'no-secret': { text: 'Paste the signing secret to check it', tone: 'disabled', Icon: HelpOutlinedIcon },
  unavailable: {
    text: 'This browser checks signatures only on https or localhost',
    tone: 'disabled',
    Icon: HelpOutlinedIcon,
  },
};

/**
 * What the shop's own server heard from Obol: its webhook address (for the merchant to add on API Keys), the signing
 * secret it was shown there, and each event that arrived with its signature checked here, as a shop would.
 */
export function ShopEvents() {
  const [inbox] = useState(shopInbox);
  const address = shopAddress(window.location.origin, inbox);
  const [secret, setSecret] = useState(() => sessionStorage.getItem(SECRET_STORE) ?? '');
  const rows = useQuery({
    queryKey: ['demo-shop', inbox],
    queryFn: () => call(demoShopOps.demoShopEvents, undefined, { inbox }),
    refetchInterval: POLL_MS,
  });
  const events = useQuery({
    queryKey: ['demo-shop', inbox, secret, (rows.data?.data ?? []).map((r) => `${r.event_id}:${r.times}`).join()],
    queryFn: () => readEvents(rows.data?.data ?? [], secret),
    enabled: !!rows.data,
    placeholderData: (prev) => prev,
  });

  const keep = (value: string) => {
    setSecret(value);
    sessionStorage.setItem(SECRET_STORE, value.trim());
  };

  return (
    <Paper component="section" aria-labelledby="shop-events-title" sx={{ p: 3, mt: 3 }}>
      <Typography id="shop-events-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        Events this shop received
      </Typography>
      <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
        The shop&apos;s server hears about its money by webhook. Add this address as an endpoint on{' '}
        <Link component={RouterLink} to="/api-keys" underline="always">
          API Keys
        </Link>{' '}
        (Webhooks), then paste the signing secret it shows once, so the shop can check each event came from Obol.
      </Typography>
      <TextField
        label="Webhook address"
        fullWidth
        size="small"
        value={address}
        sx={{ mb: 2 }}
        slotProps={{
          htmlInput: { readOnly: true, spellCheck: false, sx: { fontFamily: 'monospace' } },
          input: { endAdornment: <CopyButton text={address} label="Copy webhook address" /> },
        }}
      />
      <TextField
        label="Signing secret"
        fullWidth
        size="small"
        value={secret}
        onChange={(e) => keep(e.target.value)}
        helperText="whsec_… from Add endpoint. Kept in this tab only."
        slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off' } }}
      />
      <Box component="ul" aria-label="Received events" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
        {(events.data ?? []).map((e) => {
          const c = CHECKS[e.check];
          return (
            <Box
              component="li"
              key={e.eventId}
              sx={{ py: 1.25, borderTop: 1, borderColor: 'divider', display: 'grid', gap: 0.25 }}
            >
              <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
                <Typography component="span" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
                  {e.type}
                </Typography>
                {e.object ? (
                  <Typography component="span" variant="body2">
                    {e.object.kind} {e.object.id} · {e.object.status} · {euro(e.object.amount)}
                  </Typography>
                ) : null}
                <Typography component="span" variant="body2" color="textSecondary" sx={{ ml: 'auto' }}>
                  {localDateTime(e.receivedAt)}
                  {e.times > 1 ? ` · received ${e.times} times` : ''}
                </Typography>
              </Stack>
              <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
                <c.Icon fontSize="small" color={c.tone} aria-hidden />
                <Typography variant="body2" color={c.tone === 'disabled' ? 'textSecondary' : c.tone}>
                  {c.text}
                </Typography>
                <Typography variant="caption" color="textSecondary" sx={{ fontFamily: 'monospace' }}>
                  {e.eventId}
                </Typography>
              </Stack>
            </Box>
          );
        })}
      </Box>
      {rows.data && !rows.data.data.length ? (
        <Typography variant="body2" color="textSecondary" sx={{ mt: 2 }}>
          Nothing yet. Events arrive here a few seconds after a payment, refund or payout of this merchant.
        </Typography>
      ) : null}
    </Paper>
  );
}
