import { Chip } from '@mui/material';
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
