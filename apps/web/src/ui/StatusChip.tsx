import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { Box, Chip, Stack, Tooltip } from '@mui/material';
import type { Tone } from './palette.ts';

export type { Tone };

/**
 * The tones of the statuses, by outcome: success green, failure red, waiting amber, in progress teal; every other
 * word (Inactive, Expired, Disabled, Not Rewarded, a role) is neutral grey.
 */
const TONES: Record<string, Tone> = {
  processing: 'teal',
  pending: 'amber',
  initiated: 'amber',
  invited: 'amber',
  'pending approval': 'amber',
  pending_approval: 'amber',
  'not verified': 'amber',
  refused: 'amber',
  failed: 'red',
  failing: 'red',
  declined: 'red',
  rejected: 'red',
  completed: 'green',
  succeeded: 'green',
  success: 'green',
  rewarded: 'green',
  active: 'green',
  enabled: 'green',
  verified: 'green',
  approved: 'green',
};

export const toneOf = (status: string | null | undefined): Tone => TONES[(status ?? '').toLowerCase()] ?? 'grey';

/**
 * The theme's colours of a tone, as palette paths for `sx` (they follow the light or dark scheme): chip
 * background and text, and a banner's tint (its text is text.primary).
 */
export const TONE_COLORS: Record<Tone, { bg: string; fg: string; tint: string }> = Object.fromEntries(
  (['teal', 'amber', 'red', 'green', 'grey'] as const).map((t) => [
    t,
    { bg: `tone.${t}.bg`, fg: `tone.${t}.fg`, tint: `tone.${t}.tint` },
  ]),
) as Record<Tone, { bg: string; fg: string; tint: string }>;

/**
 * Every status on every screen is this one chip: small, filled, coloured by the word's outcome. `label` shows other
 * text than the status word (a count), `tone` names the outcome where the word alone does not say it.
 */
export function StatusChip({ status, label, tone }: { status: string; label?: string; tone?: Tone }) {
  const t = tone ?? toneOf(status);
  const c = TONE_COLORS[t];
  return (
    <Chip size="small" label={label ?? status} data-tone={t} sx={{ bgcolor: c.bg, color: c.fg, fontWeight: 500 }} />
  );
}

/** A status chip with the reason beside it in a tooltip (a Declined or Expired transaction), reachable by keyboard. */
export function StatusWithReason({ status, reason, tone }: { status: string; reason?: string | null; tone?: Tone }) {
  if (!reason) return <StatusChip status={status} tone={tone} />;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <StatusChip status={status} tone={tone} />
      <Tooltip title={reason}>
        <Box
          component="span"
          role="img"
          aria-label={`Reason: ${reason}`}
          tabIndex={0}
          sx={{ display: 'inline-flex', color: 'text.secondary' }}
        >
          <InfoOutlinedIcon fontSize="small" />
        </Box>
      </Tooltip>
    </Stack>
  );
}
