import { Chip } from '@mui/material';
import { amber, green, grey, red, teal } from '@mui/material/colors';

/** The tones of the statuses: Processing teal, Pending amber, Failed red, Completed green. */
export type Tone = 'teal' | 'amber' | 'red' | 'green' | 'grey';

const TONES: Record<string, Tone> = {
  processing: 'teal',
  pending: 'amber',
  initiated: 'amber',
  failed: 'red',
  declined: 'red',
  completed: 'green',
};

export const toneOf = (status: string | null | undefined): Tone => TONES[(status ?? '').toLowerCase()] ?? 'grey';

/** chip colours: background and text */
export const TONE_COLORS: Record<Tone, { bg: string; fg: string; tint: string }> = {
  teal: { bg: teal[600], fg: '#fff', tint: teal[50] },
  amber: { bg: amber[600], fg: 'rgba(0, 0, 0, 0.87)', tint: amber[50] },
  red: { bg: red[600], fg: '#fff', tint: red[50] },
  green: { bg: green[600], fg: '#fff', tint: green[50] },
  grey: { bg: grey[300], fg: 'rgba(0, 0, 0, 0.87)', tint: grey[100] },
};

/** A status as a coloured chip (transactions, batches and download files). */
export function StatusChip({ status }: { status: string }) {
  const tone = toneOf(status);
  const c = TONE_COLORS[tone];
  return <Chip size="small" label={status} data-tone={tone} sx={{ bgcolor: c.bg, color: c.fg, fontWeight: 500 }} />;
}
