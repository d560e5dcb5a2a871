import { ConfirmDialog } from './confirm-dialog';

interface Props {
  /** The name of the record to delete; null while nothing is to be deleted (the dialog is closed). */
  name: string | null;
  message: string;
  /** The user must type the name before confirming (deletes that take much with them). */
  typeName?: boolean;
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** 'Delete {name}?': the danger confirmation of a card's delete button. */
export function DeleteDialog({ name, message, typeName = false, busy, onConfirm, onClose }: Props) {
  return (
    <ConfirmDialog
      open={name !== null}
      title={`Delete ${name ?? ''}?`}
      message={message}
      confirmLabel="Delete"
      danger
      requireName={typeName ? (name ?? undefined) : undefined}
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
