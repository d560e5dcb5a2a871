import { createTheme } from '@mui/material/styles';

/** One calm palette and a few shape rules keep every screen consistent. */
export const theme = createTheme({
  palette: {
    primary: { main: '#2554c7' },
    secondary: { main: '#7c3aed' },
    background: { default: '#f5f7fb', paper: '#ffffff' },
    success: { main: '#15803d' },
    error: { main: '#c62828' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
    subtitle1: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiCard: {
      defaultProps: { variant: 'outlined' },
      styleOverrides: { root: { height: '100%', display: 'flex', flexDirection: 'column' } },
    },
    MuiCardContent: { styleOverrides: { root: { flexGrow: 1 } } },
    MuiTextField: { defaultProps: { size: 'small' } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
    MuiDialog: { defaultProps: { fullWidth: true, maxWidth: 'sm' } },
    MuiTooltip: { defaultProps: { arrow: true } },
  },
});
