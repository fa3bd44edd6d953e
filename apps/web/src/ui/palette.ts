/** The colours of both themes, each text pair at WCAG AA (checked in palette.test.ts). */

export type Tone = 'teal' | 'amber' | 'red' | 'green' | 'grey';
/** A status tone: chip background and text, and the tint of a banner (whose text is text.primary). */
export interface ToneColors {
  bg: string;
  fg: string;
  tint: string;
}

export interface SchemeColors {
  primary: string;
  primaryText: string;
  secondary: string;
  secondaryText: string;
  background: string;
  paper: string;
  text: string;
  textSecondary: string;
  divider: string;
  error: string;
  warning: string;
  success: string;
  info: string;
  /** the sidebar and its selected item */
  nav: string;
  navSelected: string;
  navSelectedText: string;
  tone: Record<Tone, ToneColors>;
}

export const LIGHT: SchemeColors = {
  primary: '#4338ca',
  primaryText: '#ffffff',
  secondary: '#92400e',
  secondaryText: '#ffffff',
  background: '#f6f7f9',
  paper: '#ffffff',
  text: '#171a21',
  textSecondary: '#555d6b',
  divider: '#e3e6eb',
  error: '#b42318',
  warning: '#8a4b00',
  success: '#17663a',
  info: '#0b5cad',
  nav: '#fbfbfc',
  navSelected: '#e9e8fb',
  navSelectedText: '#3730a3',
  tone: {
    green: { bg: '#e3f4e8', fg: '#17663a', tint: '#eef8f1' },
    teal: { bg: '#dcf1ef', fg: '#0b5f58', tint: '#eef8f7' },
    amber: { bg: '#fcefd2', fg: '#7f4500', tint: '#fff7e6' },
    red: { bg: '#fde6e4', fg: '#b42318', tint: '#fef2f1' },
    grey: { bg: '#eceef1', fg: '#434955', tint: '#f4f5f7' },
  },
};

export const DARK: SchemeColors = {
  primary: '#a5b4fc',
  primaryText: '#111527',
  secondary: '#fbbf24',
  secondaryText: '#1d1604',
  background: '#0e1014',
  paper: '#16191f',
  text: '#e8eaef',
  textSecondary: '#a4abb8',
  divider: '#2a2f38',
  error: '#f9a19a',
  warning: '#f5c26b',
  success: '#7ddc9a',
  info: '#8cc4ff',
  nav: '#121419',
  navSelected: '#272c45',
  navSelectedText: '#c7d0ff',
  tone: {
    green: { bg: '#163725', fg: '#8ae6a6', tint: '#13241a' },
    teal: { bg: '#113533', fg: '#7fe3d5', tint: '#10231f' },
    amber: { bg: '#3a2b0c', fg: '#f8cf6a', tint: '#261d0c' },
    red: { bg: '#451c1c', fg: '#fcaaa4', tint: '#2a1616' },
    grey: { bg: '#2a2e36', fg: '#d0d5dd', tint: '#1d2027' },
  },
};

/** WCAG relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
