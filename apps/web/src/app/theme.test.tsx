import { ALL_PERMISSIONS } from '@obol/contract';
import { getContrastRatio, type Palette } from '@mui/material';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp, signInAs } from '../test-utils.tsx';
import { contrast, DARK, LIGHT, type SchemeColors } from '../ui/palette.ts';
import { THEME_MODE_KEY } from './providers.tsx';
import { theme } from './theme.ts';

const AA = 4.5;

describe.each([
  ['light', LIGHT],
  ['dark', DARK],
] as const)('the %s colours', (scheme, c: SchemeColors) => {
  it('computes contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it.each([
    ['text', 'background'],
    ['text', 'paper'],
    ['textSecondary', 'background'],
    ['textSecondary', 'paper'],
    ['textSecondary', 'nav'],
    ['text', 'nav'],
    ['primary', 'paper'],
    ['primary', 'background'],
    ['primaryText', 'primary'],
    ['secondaryText', 'secondary'],
    ['secondary', 'paper'],
    ['error', 'paper'],
    ['warning', 'paper'],
    ['success', 'paper'],
    ['info', 'paper'],
    ['navSelectedText', 'navSelected'],
  ] as const)('%s on %s is at least 4.5:1', (fg, bg) => {
    expect(contrast(c[fg], c[bg])).toBeGreaterThanOrEqual(AA);
  });

  it('every status chip, and the text of every tinted banner, is at least 4.5:1', () => {
    for (const [tone, t] of Object.entries(c.tone)) {
      expect(contrast(t.fg, t.bg), `${tone} chip`).toBeGreaterThanOrEqual(AA);
      expect(contrast(c.text, t.tint), `${tone} banner`).toBeGreaterThanOrEqual(AA);
    }
  });

  it('the focus ring stands out from the page (3:1)', () => {
    for (const bg of [c.background, c.paper, c.nav]) expect(contrast(c.primary, bg)).toBeGreaterThanOrEqual(3);
  });

  it('the theme uses these colours, and its computed button texts reach AA', () => {
    const p = (theme as unknown as { colorSchemes: Record<string, { palette: Palette }> }).colorSchemes[scheme].palette;
    expect(p.primary.main).toBe(c.primary);
    expect(p.background.default).toBe(c.background);
    expect(p.tone.green.fg).toBe(c.tone.green.fg);
    for (const key of ['primary', 'secondary', 'error', 'warning', 'success', 'info'] as const)
      expect(getContrastRatio(p[key].contrastText, p[key].main), key).toBeGreaterThanOrEqual(AA);
  });
});

/** A browser whose system prefers dark (or not). */
function systemPrefersDark(dark: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: dark && query.includes('prefers-color-scheme: dark'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    })),
  );
}

const scheme = () => document.documentElement.getAttribute('data-obol-color-scheme');

describe('dark mode', () => {
  it('follows the system by default', async () => {
    mockApi();
    signInAs(ALL_PERMISSIONS);
    systemPrefersDark(true);
    renderApp('/user-profile');
    await waitFor(() => expect(scheme()).toBe('dark'));
    cleanup();
    systemPrefersDark(false);
    renderApp('/user-profile');
    await waitFor(() => expect(scheme()).toBe('light'));
  });

  it('is switched from the top bar, and the choice is remembered', async () => {
    mockApi();
    signInAs(ALL_PERMISSIONS);
    systemPrefersDark(true);
    renderApp('/user-profile');
    await userEvent.click(screen.getByRole('button', { name: 'Theme' }));
    expect(screen.getByRole('menuitemradio', { name: 'System' }).getAttribute('aria-checked')).toBe('true');
    await userEvent.click(screen.getByRole('menuitemradio', { name: 'Light' }));
    await waitFor(() => expect(scheme()).toBe('light'));
    expect(localStorage.getItem(THEME_MODE_KEY)).toBe('light');
    cleanup();
    renderApp('/user-profile');
    await waitFor(() => expect(scheme()).toBe('light'));
    await userEvent.click(screen.getByRole('button', { name: 'Theme' }));
    expect(screen.getByRole('menuitemradio', { name: 'Light' }).getAttribute('aria-checked')).toBe('true');
    await userEvent.click(screen.getByRole('menuitemradio', { name: 'Dark' }));
    await waitFor(() => expect(scheme()).toBe('dark'));
    expect(localStorage.getItem(THEME_MODE_KEY)).toBe('dark');
  }, 15_000);
});
