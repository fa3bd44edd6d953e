import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import { Box, Chip, Stack, Tooltip } from '@mui/material';
import type { Tone } from './palette.ts';

export type { Tone };

/** The tones of the statuses: Processing teal, Pending amber, Failed red, Completed green. */
const TONES: Record<string, Tone> = {
  processing: 'teal',
  pending: 'amber',
  initiated: 'amber',
  failed: 'red',
  declined: 'red',
  completed: 'green',
  rewarded: 'green',
  active: 'green',
  invited: 'amber',
  'pending approval': 'amber',
  pending_approval: 'amber',
  approved: 'green',
  rejected: 'red',
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

/** A status as a coloured chip (transactions, batches and download files). */
export function StatusChip({ status }: { status: string }) {
  const tone = toneOf(status);
  const c = TONE_COLORS[tone];
  return <Chip size="small" label={status} data-tone={tone} sx={{ bgcolor: c.bg, color: c.fg, fontWeight: 500 }} />;
}

/** A status chip with the reason beside it in a tooltip (a Declined or Expired transaction), reachable by keyboard. */
export function StatusWithReason({ status, reason }: { status: string; reason?: string | null }) {
  if (!reason) return <StatusChip status={status} />;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <StatusChip status={status} />
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
