import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useStore } from '../state/create-store';
import { loadingStore } from '../state/loading-store';

/** Full-screen loading overlay with an optional label. */
export function LoadingOverlay() {
  const { active, label } = useStore(loadingStore);
  return (
    <Backdrop
      open={active}
      sx={{ zIndex: (t) => t.zIndex.modal + 10, color: '#fff', flexDirection: 'column', gap: 2 }}
      role="progressbar"
      aria-label={label || 'Loading'}
      aria-hidden={!active}
    >
      <CircularProgress color="inherit" />
      {label && <Typography variant="h6">{label}</Typography>}
    </Backdrop>
  );
}
