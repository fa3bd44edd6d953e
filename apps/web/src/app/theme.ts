import { createTheme } from '@mui/material';

export const theme = createTheme({
  palette: {
    primary: { main: '#1f3a68' },
    secondary: { main: '#c28a17' },
    background: { default: '#f4f6f9' },
  },
  shape: { borderRadius: 8 },
  typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  components: { MuiButton: { defaultProps: { disableElevation: true } } },
});
