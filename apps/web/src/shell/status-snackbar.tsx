import { createPortal } from 'react-dom';
import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useStore } from '../state/create-store';
import { statusStore, type StatusLevel } from '../state/status-store';

const SEVERITY: Record<StatusLevel, AlertColor> = { 0: 'success', 1: 'info', 2: 'warning', 3: 'error' };

/**
 * The status snackbar at the top centre (spec: 6 s by default). It mounts straight into <body>
 * when a message arrives, so an open dialog (which hides the rest of the page from assistive
 * technology) does not hide its error message too.
 */
export function StatusSnackbar() {
  const status = useStore(statusStore);
  const close = () => statusStore.set((current) => (current?.key === status?.key ? null : current));
  if (!status) return null;
  return createPortal(
    <Snackbar
      key={status.key}
      open
      autoHideDuration={status.duration}
      onClose={(_e, reason) => reason !== 'clickaway' && close()}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Alert
        severity={SEVERITY[status.level]}
        variant="filled"
        onClose={close}
        sx={{ maxWidth: 640, alignItems: 'center' }}
      >
        {status.message}
      </Alert>
    </Snackbar>,
    document.body,
  );
}
