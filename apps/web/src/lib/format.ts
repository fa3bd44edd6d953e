import { formatCents } from '@obol/contract';

/** cents -> '€1,234.56' (negative: '-€25.50'); missing -> '-' */
export const euro = (cents: number | null | undefined) =>
  cents === null || cents === undefined || !Number.isFinite(cents)
    ? '-'
    : `${cents < 0 ? '-' : ''}€${formatCents(Math.abs(cents))}`;

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO UTC -> 'YYYY-MM-DD HH:mm:ss' in the browser's time zone */
export function localDateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '-';
  const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function localDate(iso: string | null | undefined): string {
  return localDateTime(iso).split(' ')[0];
}
