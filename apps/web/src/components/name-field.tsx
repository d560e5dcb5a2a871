import TextField from '@mui/material/TextField';
import { LIMITS } from '@logo-review/contract';

/** The required, focused 'Name' field a create or edit dialog starts with, cut at the API's name limit. */
export function NameField({ value, onChange }: { value: string; onChange(next: string): void }) {
  return (
    <TextField
      label="Name"
      required
      autoFocus
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ htmlInput: { maxLength: LIMITS.nameMax } }}
    />
  );
}
