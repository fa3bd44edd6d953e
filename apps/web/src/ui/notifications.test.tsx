import { describe, expect, it } from 'vitest';
import { downloadsPath, severityOf, snackbarHeight } from './notifications.tsx';
import { euro, localDateTime } from '../lib/format.ts';
import { warnAt } from '../app/IdleWarning.tsx';

describe('notifications', () => {
  it('map types to severities, unknown types to warning', () => {
    expect(severityOf('error')).toBe('error');
    expect(severityOf('success')).toBe('success');
    expect(severityOf('info')).toBe('info');
    expect(severityOf('whatever')).toBe('warning');
  });
  it('are taller when the text exceeds 65 characters', () => {
    expect(snackbarHeight('x'.repeat(65))).toBe(68);
    expect(snackbarHeight('x'.repeat(66))).toBe(88);
  });
  it('send See Downloads to the list of the type', () => {
    expect(downloadsPath('transactions')).toBe('/download-transactions');
    expect(downloadsPath('accounting-transactions')).toBe('/download-accounting-transactions');
    expect(downloadsPath('reports')).toBe('/download-reports');
  });
});

describe('formatting', () => {
  it('shows cents in euro', () => {
    expect(euro(123456)).toBe('€1,234.56');
    expect(euro(5)).toBe('€0.05');
    expect(euro(null)).toBe('-');
  });
  it('shows UTC times in the local zone', () => {
    const iso = '2026-01-02T03:04:05Z';
    const d = new Date(iso);
    expect(localDateTime(iso)).toBe(
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}:${String(d.getSeconds()).padStart(2, '0')}`,
    );
  });
  it('warns a minute before an idle expiry, or at half a short one', () => {
    expect(warnAt(1800)).toBe(60);
    expect(warnAt(60)).toBe(30);
  });
});
