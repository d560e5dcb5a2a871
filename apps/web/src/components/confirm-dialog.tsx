import { useRef, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { confirmNameMatches } from './validation';

interface Props {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** When set, the user must type this name (case-insensitive) before confirming. */
  requireName?: string;
  danger?: boolean;
  busy?: boolean;
  /** The confirm button stays disabled (the message says why). */
  blocked?: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** A confirmation dialog; for irreversible deletes it asks for the record's name. */
export function ConfirmDialog(props: Props) {
  // While the dialog fades out its record is already gone; keep showing the last texts.
  const last = useRef(props);
  if (props.open) last.current = props;
  const shown = props.open ? props : { ...last.current, open: false, busy: true };
  return (
    <Dialog open={props.open} onClose={props.onClose} maxWidth="xs" aria-labelledby="confirm-dialog-title">
      <ConfirmBody key={String(props.open)} {...shown} />
    </Dialog>
  );
}

function ConfirmBody({
  title,
  message,
  confirmLabel,
  requireName,
  danger,
  busy,
  blocked,
  onConfirm,
  onClose,
}: Props) {
  const [typed, setTyped] = useState('');
  const ok = !blocked && (requireName === undefined || confirmNameMatches(typed, requireName));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (ok && !busy) onConfirm();
      }}
    >
      <DialogTitle id="confirm-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">{message}</DialogContentText>
        {requireName !== undefined && (
          <TextField
            autoFocus
            fullWidth
            sx={{ mt: 2 }}
            label={`Type "${requireName}" to confirm`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" color={danger ? 'error' : 'primary'} disabled={!ok || busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </form>
  );
}
