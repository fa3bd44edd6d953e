import { createTheme, type CSSObject, type Theme } from '@mui/material';
import { DARK, LIGHT, type SchemeColors, type ToneColors, type Tone } from '../ui/palette.ts';

declare module '@mui/material/styles' {
  interface Palette {
    tone: Record<Tone, ToneColors>;
    nav: { bg: string; selected: string; selectedText: string };
  }
  interface PaletteOptions {
    tone?: Record<Tone, ToneColors>;
    nav?: { bg: string; selected: string; selectedText: string };
  }
}

const palette = (c: SchemeColors) => ({
  primary: { main: c.primary, contrastText: c.primaryText },
  secondary: { main: c.secondary, contrastText: c.secondaryText },
  error: { main: c.error },
  warning: { main: c.warning },
  success: { main: c.success },
  info: { main: c.info },
  background: { default: c.background, paper: c.paper },
  text: { primary: c.text, secondary: c.textSecondary },
  divider: c.divider,
  tone: c.tone,
  nav: { bg: c.nav, selected: c.navSelected, selectedText: c.navSelectedText },
  // computed button and chip texts reach AA too
  contrastThreshold: 4.5,
});

/** A visible focus ring: 2 px in the primary colour (at least 3:1 against the page in both themes). */
const focusRing = (theme: Theme): CSSObject => ({
  outline: `2px solid ${theme.vars?.palette.primary.main ?? theme.palette.primary.main}`,
  outlineOffset: 2,
});

/** One theme with a light and a dark colour scheme, switched by a data attribute on <html>. */
export const theme = createTheme({
  cssVariables: { colorSchemeSelector: 'data-obol-color-scheme' },
  colorSchemes: { light: { palette: palette(LIGHT) }, dark: { palette: palette(DARK) } },
  shape: { borderRadius: 8 },
  spacing: 8,
  typography: {
    fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    fontSize: 14,
    h1: { fontSize: '2rem', fontWeight: 600, letterSpacing: '-0.01em' },
    h2: { fontSize: '1.5rem', fontWeight: 600 },
    h3: { fontSize: '1.25rem', fontWeight: 600 },
    h4: { fontSize: '1.25rem', fontWeight: 600 },
    h5: { fontSize: '1.375rem', fontWeight: 600, letterSpacing: '-0.005em' },
    h6: { fontSize: '1rem', fontWeight: 600 },
    subtitle1: { fontWeight: 500 },
    subtitle2: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 500 },
    overline: { letterSpacing: '0.08em', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: {
      styleOverrides: (theme) => ({
        body: { WebkitFontSmoothing: 'antialiased' },
        ':focus-visible': focusRing(theme),
        '[tabindex="-1"]:focus': { outline: 'none' },
      }),
    },
    MuiButtonBase: {
      styleOverrides: { root: ({ theme }) => ({ '&.Mui-focusVisible': focusRing(theme) }) },
    },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiLink: { defaultProps: { underline: 'hover' } },
    MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
    MuiTooltip: { defaultProps: { arrow: true } },
    // a disabled field's helper text and a disabled group's label still tell the user something ("Choose the
    // company first"): text.secondary, not MUI's disabled grey (under 3:1)
    MuiFormHelperText: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: (theme.vars ?? theme).palette.text.secondary } }),
      },
    },
    MuiFormLabel: {
      styleOverrides: {
        root: ({ theme }) => ({ '&.Mui-disabled': { color: (theme.vars ?? theme).palette.text.secondary } }),
      },
    },
    // a step not reached yet: text.secondary behind the number (MUI's default grey is 2.5:1)
    MuiStepIcon: {
      styleOverrides: {
        root: ({ theme }) => ({ color: (theme.vars ?? theme).palette.text.secondary }),
      },
    },
  },
});
