import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';

interface Props {
  open: boolean;
  title: string;
  /** Spec: Save stays disabled until all required fields are filled. */
  canSave: boolean;
  busy?: boolean;
  saveLabel?: string;
  closeLabel?: string;
  maxWidth?: 'xs' | 'sm' | 'md';
  onSave(): void;
  onClose(): void;
  children: ReactNode;
}

/**
 * Escape pressed in a picker (an Autocomplete) closes only the picker: its open list closes itself
 * (MUI stops that Escape); with the list already closed, the focus leaves the picker instead of the
 * dialog closing and losing what was typed. The next Escape closes the dialog. True when handled.
 */
function leavePicker(target: EventTarget | null | undefined): boolean {
  if (!(target instanceof HTMLElement) || !target.closest('.MuiAutocomplete-root')) return false;
  target.blur();
  return true;
}

/** The generic modal of the spec: a form with Save and Close. */
export function FormDialog({
  open,
  title,
  canSave,
  busy,
  saveLabel = 'Save',
  closeLabel = 'Close',
  maxWidth = 'sm',
  onSave,
  onClose,
  children,
}: Props) {
  return (
    <Dialog
      open={open}
      onClose={(event: { target?: EventTarget | null }, reason) => {
        if (reason === 'escapeKeyDown' && leavePicker(event.target)) return;
        onClose();
      }}
      maxWidth={maxWidth}
      aria-labelledby="form-dialog-title"
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (canSave && !busy) onSave();
        }}
      >
        <DialogTitle id="form-dialog-title">{title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {children}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{closeLabel}</Button>
          <Button type="submit" variant="contained" disabled={!canSave || busy}>
            {saveLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
